package runout

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ptbatch/ptbatch/rundir"
)

// streamFile is a file a run streams rows to (samples.csv, index.csv):
// buffered, flushed as each scan ends, closed once; its first error is
// kept and returned by every later call.
type streamFile struct {
	name   string
	fh     *rundir.File
	w      *bufio.Writer
	buf    []byte // the row being formatted
	closed bool
	err    error
}

// createStream creates dir/name (and dir) with header.
func createStream(dir, name, header string) (*streamFile, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	fh, err := rundir.Create(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	s := &streamFile{name: name, fh: fh, w: bufio.NewWriterSize(fh, 1<<16)}
	s.w.WriteString(header)
	return s, nil
}

// writeRow writes the formatted row s.buf, keeping the first error.
func (s *streamFile) writeRow() error {
	if _, err := s.w.Write(s.buf); err != nil && s.err == nil {
		s.err = fmt.Errorf("writing %s: %w", s.name, err)
	}
	return s.err
}

// Flush writes the buffered rows to the file.
func (s *streamFile) Flush() error {
	if s.err == nil {
		if err := s.w.Flush(); err != nil {
			s.err = fmt.Errorf("writing %s: %w", s.name, err)
		}
	}
	return s.err
}

// Sync commits the flushed rows to stable storage (a checkpoint counts
// them).
func (s *streamFile) Sync() error { return s.fh.Sync() }

// Close flushes and closes the file; later calls do nothing.
func (s *streamFile) Close() error {
	if s.closed {
		return s.err
	}
	s.closed = true
	if err := s.w.Flush(); err != nil && s.err == nil {
		s.err = fmt.Errorf("writing %s: %w", s.name, err)
	}
	if err := s.fh.Close(); err != nil && s.err == nil {
		s.err = err
	}
	return s.err
}
