package runloop

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestParseCadence checks the two forms of a cadence and the refusals:
// 20 is 20 scans, 90s is 90 seconds, 0 scans and a negative or
// unreadable duration are refused with their error.
func TestParseCadence(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Cadence
		err  error
	}{
		{"20", Cadence{Scans: 20}, nil},
		{"90s", Cadence{Wall: 90 * time.Second}, nil},
		{"1h", Cadence{Wall: time.Hour}, nil},
		{"0", Cadence{}, ErrNoScans},
		{"-5", Cadence{}, ErrNoScans},
		{"-1m", Cadence{}, ErrCadence},
		{"often", Cadence{}, ErrCadence},
	} {
		got, err := ParseCadence(c.in)
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("ParseCadence(%q) = %+v, %v; want %+v, %v", c.in, got, err, c.want, c.err)
		}
	}
}

// TestCheckPath checks that a file in a writable directory passes and
// leaves nothing there, that a directory is refused with ErrIsDir, and
// that a file in a directory that does not exist is refused.
func TestCheckPath(t *testing.T) {
	dir := t.TempDir()
	if err := CheckPath(filepath.Join(dir, "run.ckpt")); err != nil {
		t.Errorf("a writable directory: %v", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("CheckPath left %d files behind", len(left))
	}
	if err := CheckPath(dir); !errors.Is(err, ErrIsDir) {
		t.Errorf("a directory: %v, want ErrIsDir", err)
	}
	if err := CheckPath(filepath.Join(dir, "missing", "run.ckpt")); err == nil {
		t.Error("a missing directory: no error")
	}
}
