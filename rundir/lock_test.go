//go:build unix

package rundir

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// holderEnv names the directory the test binary, started again as a
// child, holds (TestHelperHoldDir).
const holderEnv = "RUNDIR_TEST_HOLD"

// TestHelperHoldDir is not a test: started by TestKilledHolderRecovered
// as a child with holderEnv set, it opens that directory, says "held" on
// stdout, and waits on stdin until the parent kills it.
func TestHelperHoldDir(t *testing.T) {
	dir := os.Getenv(holderEnv)
	if dir == "" {
		t.Skip("a helper process for TestKilledHolderRecovered")
	}
	d, err := Open(dir, Options{})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(3)
	}
	fmt.Println("held")
	bufio.NewReader(os.Stdin).ReadString('\n') // until killed (or stdin closes)
	d.Close()
	os.Exit(0)
}

// TestKilledHolderRecovered starts a child process that holds a
// directory, checks that a second writer is refused with the child's
// pid while it lives, SIGKILLs it once it has said it holds the lock (the
// test decides when; no timing), and checks that the lock file the kill
// left is taken over with one note naming the child's pid, and that Close
// then leaves no lock file.
func TestKilledHolderRecovered(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	child := exec.Command(os.Args[0], "-test.run=^TestHelperHoldDir$")
	child.Env = append(os.Environ(), holderEnv+"="+dir)
	stdin, err := child.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "held\n" {
		child.Process.Kill()
		t.Fatalf("child said %q (%v), want held", line, err)
	}
	pid := strconv.Itoa(child.Process.Pid)

	_, err = Open(dir, Options{})
	var le *LockedError
	if !errors.As(err, &le) || le.PID != pid {
		t.Errorf("second writer while the child holds the lock: %v, want a LockedError with pid %s", err, pid)
	}
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	child.Wait()
	if b, err := os.ReadFile(filepath.Join(dir, LockName)); err != nil || strings.TrimSpace(string(b)) != pid {
		t.Fatalf("after the kill the lock file holds %q (%v), want the child's pid %s", b, err, pid)
	}

	var notes bytes.Buffer
	d, err := Open(dir, Options{Notes: &notes, Program: "ptbatch"})
	if err != nil {
		t.Fatalf("open after the holder was killed: %v", err)
	}
	if n := notes.String(); strings.Count(n, "\n") != 1 || !strings.HasPrefix(n, "ptbatch: ") || !strings.Contains(n, "process "+pid) || !strings.Contains(n, "recovered") {
		t.Errorf("note %q, want one line from ptbatch naming process %s as recovered", n, pid)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, LockName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after Close: lock file %v, want none", err)
	}
}

// TestLockInProcess checks the lock within one process: a second Open is
// refused naming this pid, Close removes the lock file, a clean Open
// writes no note, and Close is idempotent and nil-safe.
func TestLockInProcess(t *testing.T) {
	dir := t.TempDir()
	var notes bytes.Buffer
	d, err := Open(dir, Options{Notes: &notes})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(dir, Options{})
	var le *LockedError
	if !errors.As(err, &le) || le.PID != strconv.Itoa(os.Getpid()) {
		t.Fatalf("second Open: %v, want LockedError naming pid %d", err, os.Getpid())
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	var nilDir *Dir
	if err := nilDir.Close(); err != nil {
		t.Errorf("nil Close: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, LockName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after Close: lock file %v, want none", err)
	}
	if notes.Len() != 0 {
		t.Errorf("a fresh directory gave the note %q", notes.String())
	}
	again, err := Open(dir, Options{Notes: &notes})
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	again.Close()
	if notes.Len() != 0 {
		t.Errorf("Open after a clean Close gave the note %q", notes.String())
	}
}

// TestLockSymlinkRefused checks that a .lock that is a symbolic link is
// refused and its target left as it was.
func TestLockSymlinkRefused(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(target, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, LockName)); err != nil {
		t.Fatal(err)
	}
	if d, err := Open(dir, Options{}); !errors.Is(err, ErrSymlink) {
		d.Close()
		t.Fatalf("Open with a symlinked lock: %v, want ErrSymlink", err)
	}
	if _, err := ReadLock(dir); !errors.Is(err, ErrSymlink) {
		t.Errorf("ReadLock with a symlinked lock: %v, want ErrSymlink", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me\n" {
		t.Errorf("the link's target holds %q", b)
	}
}
