package rundir

import (
	"fmt"
	"io"
	"os"
)

// Appender appends whole records to a file that grows as results arrive
// (such as a sweep's cells.csv), one write per call, synced; after each,
// the held Dir containing it records the file's length and SHA-256 as
// far as it is complete, which a manifest keeps so that a resumed
// command can check the file and cut off what a kill left after the last
// complete record.
type Appender struct {
	fh   *os.File
	sum  *summer
	path string
}

// OpenAppender opens path for appending without following a link
// (ErrSymlink). With resume nil the file is created afresh holding
// header; otherwise its first resume.Size bytes must have the recorded
// checksum (an error wrapping ErrChecksum if not), and whatever follows
// them is cut off.
func OpenAppender(path string, header []byte, resume *FileSum) (*Appender, error) {
	if resume == nil {
		if err := WriteBytes(path, header); err != nil {
			return nil, err
		}
	}
	fh, err := os.OpenFile(path, os.O_RDWR|noFollow, 0o644)
	if err != nil {
		if isLoop(err) {
			return nil, pathError(path, ErrSymlink)
		}
		return nil, err
	}
	a, err := startAppender(fh, path, header, resume)
	if err != nil {
		fh.Close()
		return nil, err
	}
	recordSum(path, a.sum.sum())
	return a, nil
}

// startAppender checks fh against resume (or hashes the header just
// written) and positions it at the end of the complete records.
func startAppender(fh *os.File, path string, header []byte, resume *FileSum) (*Appender, error) {
	want := FileSum{Size: int64(len(header))}
	if resume != nil {
		want = *resume
	}
	s, err := hashPrefix(fh, want.Size)
	if err != nil {
		return nil, fmt.Errorf("%s %w", path, err)
	}
	if resume != nil && s.sum().SHA256 != resume.SHA256 {
		return nil, fmt.Errorf("%s: its first %d bytes %w", path, want.Size, ErrChecksum)
	}
	if err := fh.Truncate(want.Size); err != nil {
		return nil, err
	}
	if _, err := fh.Seek(want.Size, io.SeekStart); err != nil {
		return nil, err
	}
	return &Appender{fh: fh, sum: s, path: path}, nil
}

// Add appends b in one write, syncs the file and records its new sum.
func (a *Appender) Add(b []byte) error {
	n, err := a.fh.Write(b)
	a.sum.Write(b[:n])
	if err == nil {
		err = a.fh.Sync()
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", a.path, err)
	}
	recordSum(a.path, a.sum.sum())
	return nil
}

// Sum returns the length and checksum of the file as far as it is
// complete.
func (a *Appender) Sum() FileSum { return a.sum.sum() }

// Close closes the file; nil-safe, and later calls do nothing.
func (a *Appender) Close() error {
	if a == nil || a.fh == nil {
		return nil
	}
	err := a.fh.Close()
	a.fh = nil
	return err
}
