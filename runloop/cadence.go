package runloop

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// ErrNoScans refuses a cadence of fewer than 1 scan; ErrCadence a text
// that is neither a whole number of scans nor a positive duration.
var (
	ErrNoScans = errors.New("runloop: need at least 1 scan")
	ErrCadence = errors.New("runloop: want a number of scans or a positive duration")
)

// ParseCadence reads a checkpoint cadence as a user writes it: a whole
// number of scans (such as 20, at least 1) or a positive wall-clock
// duration (such as 90s, 10m or 1h, time.ParseDuration).
func ParseCadence(s string) (Cadence, error) {
	if n, err := strconv.Atoi(s); err == nil {
		if n < 1 {
			return Cadence{}, ErrNoScans
		}
		return Cadence{Scans: n}, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return Cadence{Wall: d}, nil
	}
	return Cadence{}, ErrCadence
}

// ErrIsDir refuses a checkpoint path that is a directory.
var ErrIsDir = errors.New("runloop: the checkpoint path is a directory")

// CheckPath checks, before a run, that a checkpoint can be written at
// path: that it is not a directory (ErrIsDir), and that a temporary file
// can be made in its directory, as each checkpoint's write does (the
// error of os.CreateTemp); it removes that file again.
func CheckPath(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return ErrIsDir
	}
	fh, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	fh.Close()
	os.Remove(fh.Name())
	return nil
}
