package runout

import (
	"io"
	"strconv"
)

// SampleWriter streams samples.csv: a header `replicate,iteration,x0,…`
// and one row per kept target-chain state, flushed after every scan so
// that an interrupted run keeps every finished scan's rows. Its Write and
// Flush are batch.Samples' Write and Flush; Close ends the file, and
// Sync commits the flushed rows to stable storage (a checkpoint counts
// them).
type SampleWriter struct {
	*streamFile
	first int // the replicate number of the run's first replicate
}

// NewSampleWriter creates dir/samples.csv with its header; the run's
// replicate b is numbered first+b.
func NewSampleWriter(dir string, observables []string, first int) (*SampleWriter, error) {
	header := "replicate,iteration"
	for _, name := range observables {
		header += "," + name
	}
	s, err := createStream(dir, "samples.csv", header+"\n")
	if err != nil {
		return nil, err
	}
	return &SampleWriter{streamFile: s, first: first}, nil
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
	return s.writeRow()
}

// Lines returns the writer of raw rows, for rows copied back whole (a
// resumed run's rows from before its checkpoint).
func (s *SampleWriter) Lines() io.Writer { return s.w }
