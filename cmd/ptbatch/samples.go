package main

import (
	"io"

	"github.com/ptbatch/ptbatch/runout"
)

// sampleWriter is runout.SampleWriter under the names runcmd.go and
// checkpoint.go use: write, flush and close, fh.Sync, w for raw rows, and
// first, the number of the run's replicate 0, set before the run.
type sampleWriter struct {
	*runout.SampleWriter
	first int
	fh    interface{ Sync() error }
	w     io.Writer
}

// newSampleWriter creates dir/samples.csv with its header.
func newSampleWriter(dir string, observables []string) (*sampleWriter, error) {
	s, err := runout.NewSampleWriter(dir, observables, 0)
	if err != nil {
		return nil, err
	}
	return &sampleWriter{SampleWriter: s, fh: s, w: s.Lines()}, nil
}

// write appends one row; it is batch.Samples.Write.
func (s *sampleWriter) write(b, m int, x []float64) error { return s.Write(s.first+b, m, x) }

// flush is batch.Samples.Flush.
func (s *sampleWriter) flush() error { return s.Flush() }

// close flushes and closes the file; later calls do nothing.
func (s *sampleWriter) close() error { return s.Close() }
