//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestResumeReadsRegularFilesOnly checks issue 26's cause 6: --resume of
// a FIFO (which blocked the run forever) or of /dev/zero (which never
// ends, and exhausted the memory) is refused with one line, and so is a
// regular file larger than the memory limit, before it is read.
func TestResumeReadsRegularFilesOnly(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		refused(t, append(small, "--resume", fifo), "--resume", "not a regular file", "FIFO")
	}()
	select {
	case <-done:
	case <-time.After(hangGuard): // only when the run blocks on the FIFO
		// Open the writing end, so that the run's read ends.
		if fh, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			fh.Close()
		}
		<-done
		t.Errorf("--resume FIFO blocked for %v", hangGuard)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		refused(t, append(small, "--resume", "/dev/zero"), "--resume", "not a regular file", "character device")
	}
	// A sparse file of 2 MiB against a limit of 1.5 MiB (the run itself
	// needs less; see the "run: …" line of a run without --quiet).
	big := filepath.Join(dir, "big.ckpt")
	fh, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := fh.Truncate(2 << 20); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	refused(t, append(small, "--max-memory", "1.5MiB", "--resume", big), "--resume", "2.0 MiB", "memory limit of 1.5 MiB")
}
