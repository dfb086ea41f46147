package runloop

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestReadCheckpoint: a regular file within the limit is read whole; one
// byte over the limit, a directory and a missing file are refused with
// their typed errors (the os package's for the missing one).
func TestReadCheckpoint(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ck.bin")
	want := []byte("twelve bytes") // 12 bytes: the limits below are 12 and 11
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCheckpoint(path, 12)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("ReadCheckpoint = %q, %v; want %q", got, err, want)
	}
	var large *TooLargeError
	if _, err := ReadCheckpoint(path, 11); !errors.As(err, &large) || large.Size != 12 || large.Limit != 11 {
		t.Errorf("over the limit: %v, want a *TooLargeError of 12 > 11", err)
	}
	var nr *NotRegularError
	if _, err := ReadCheckpoint(dir, 1<<20); !errors.As(err, &nr) || FileKind(nr.Mode) != "a directory" {
		t.Errorf("a directory: %v, want a *NotRegularError naming a directory", err)
	}
	if _, err := ReadCheckpoint(filepath.Join(dir, "none"), 1<<20); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v, want os.ErrNotExist", err)
	}
}
