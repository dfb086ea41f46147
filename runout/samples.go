package runout

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/ptbatch/ptbatch/rundir"
)

// SampleWriter streams samples.csv: a header `replicate,iteration,x0,…`
// and one row per kept target-chain state, flushed after every scan so
// that an interrupted run keeps every finished scan's rows. Its Write and
// Flush are batch.Samples' Write and Flush.
type SampleWriter struct {
	fh     *rundir.File
	w      *bufio.Writer
	buf    []byte
	first  int // the replicate number of the run's first replicate
	closed bool
	err    error
}

// NewSampleWriter creates dir/samples.csv with its header; the run's
// replicate b is numbered first+b.
func NewSampleWriter(dir string, observables []string, first int) (*SampleWriter, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	fh, err := rundir.Create(filepath.Join(dir, "samples.csv"))
	if err != nil {
		return nil, err
	}
	s := &SampleWriter{fh: fh, w: bufio.NewWriterSize(fh, 1<<16), first: first}
	s.w.WriteString("replicate,iteration")
	for _, name := range observables {
		s.w.WriteString("," + name)
	}
	s.w.WriteString("\n")
	return s, nil
}

// Write appends the row of replicate b's state x at iteration m.
func (s *SampleWriter) Write(b, m int, x []float64) error {
	if s.err != nil {
		return s.err
	}
	s.buf = strconv.AppendInt(s.buf[:0], int64(s.first+b), 10)
	s.buf = append(s.buf, ',')
	s.buf = strconv.AppendInt(s.buf, int64(m), 10)
	for _, v := range x {
		s.buf = append(s.buf, ',')
		s.buf = strconv.AppendFloat(s.buf, v, 'g', -1, 64)
	}
	s.buf = append(s.buf, '\n')
	if _, err := s.w.Write(s.buf); err != nil {
		s.err = fmt.Errorf("writing samples.csv: %w", err)
	}
	return s.err
}

// Flush writes the buffered rows to the file.
func (s *SampleWriter) Flush() error {
	if s.err == nil {
		if err := s.w.Flush(); err != nil {
			s.err = fmt.Errorf("writing samples.csv: %w", err)
		}
	}
	return s.err
}

// Close flushes and closes the file; later calls do nothing.
func (s *SampleWriter) Close() error {
	if s.closed {
		return s.err
	}
	s.closed = true
	if err := s.w.Flush(); err != nil && s.err == nil {
		s.err = fmt.Errorf("writing samples.csv: %w", err)
	}
	if err := s.fh.Close(); err != nil && s.err == nil {
		s.err = err
	}
	return s.err
}

// Sync commits the flushed rows to stable storage (a checkpoint counts
// them).
func (s *SampleWriter) Sync() error { return s.fh.Sync() }

// Lines returns the writer of raw rows, for rows copied back whole (a
// resumed run's rows from before its checkpoint).
func (s *SampleWriter) Lines() io.Writer { return s.w }
