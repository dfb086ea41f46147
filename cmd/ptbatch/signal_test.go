//go:build unix

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// built is the command the tests run, built once per test binary (go
// test -count=20 runs the tests twenty times, not the build) into a
// temporary directory that TestMain removes.
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

// buildCommand returns the command built with the build tags of the test
// binary (buildTags).
func buildCommand(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the command")
	}
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "ptbatch-test-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "ptbatch")
		args := append(append([]string{"build"}, buildTags...), "-o", built.bin, ".")
		if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go %v: %v\n%s", args, err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// TestMain removes the command built for the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// hangGuard bounds the wait for a line or an exit, so that a command that
// hangs fails the test instead of stalling it; it decides nothing else.
const hangGuard = 2 * time.Minute

// watched is a running command whose stderr the test reads line by line,
// so that it signals the command after a line it has seen (the start line,
// a checkpoint written), never after a delay.
type watched struct {
	t      *testing.T
	cmd    *exec.Cmd
	lines  chan string   // every line of stderr, as written
	eof    chan struct{} // closed when stderr has been read to its end
	mu     sync.Mutex
	stderr bytes.Buffer // all of stderr
	stdout bytes.Buffer
}

// startWatched starts bin with args.
func startWatched(t *testing.T, bin string, args ...string) *watched {
	t.Helper()
	w := &watched{t: t, cmd: exec.Command(bin, args...), lines: make(chan string, 1<<16), eof: make(chan struct{})}
	w.cmd.Stdout = &w.stdout
	pipe, err := w.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(w.eof)
		defer close(w.lines)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			w.mu.Lock()
			w.stderr.WriteString(sc.Text() + "\n")
			w.mu.Unlock()
			select {
			case w.lines <- sc.Text():
			default: // never block the command; the tests read few lines
			}
		}
	}()
	return w
}

// waitLine returns the first line not read yet that contains marker; it
// fails the test when the command ends without writing one.
func (w *watched) waitLine(marker string) string {
	w.t.Helper()
	guard := time.After(hangGuard)
	for {
		select {
		case line, ok := <-w.lines:
			if !ok {
				code, _, stderr := w.wait()
				w.t.Fatalf("%v ended (exit %d) without a line containing %q: %s", w.cmd.Args, code, marker, stderr)
			}
			if strings.Contains(line, marker) {
				return line
			}
		case <-guard:
			w.cmd.Process.Kill()
			w.wait()
			w.t.Fatalf("%v: no line containing %q after %v", w.cmd.Args, marker, hangGuard)
		}
	}
}

// signal sends sig to the command.
func (w *watched) signal(sig os.Signal) {
	w.t.Helper()
	if err := w.cmd.Process.Signal(sig); err != nil {
		w.t.Fatalf("%v: %v", sig, err)
	}
}

// wait waits for the command to end and returns its exit status (-1 when
// a signal ended it), stdout and stderr.
func (w *watched) wait() (int, []byte, []byte) {
	w.t.Helper()
	select {
	case <-w.eof:
	case <-time.After(hangGuard):
		w.cmd.Process.Kill()
		<-w.eof
		w.t.Errorf("%v still running after %v", w.cmd.Args, hangGuard)
	}
	err := w.cmd.Wait()
	var ee *exec.ExitError
	code := 0
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		w.t.Fatal(err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return code, w.stdout.Bytes(), w.stderr.Bytes()
}

// signalled runs bin with args, sends sig once the run has printed its
// start line (the signal handlers are installed before it), and returns
// the exit status, stdout and stderr.
func signalled(t *testing.T, bin string, sig syscall.Signal, args ...string) (code int, stdout, stderr []byte) {
	t.Helper()
	w := startWatched(t, bin, args...)
	w.waitLine("run: ")
	sent := time.Now()
	w.signal(sig)
	code, stdout, stderr = w.wait()
	t.Logf("%v: exited %v after %v", args, time.Since(sent), sig)
	return code, stdout, stderr
}

// signalledOnLine runs bin with args, sends sig once it has written a
// line of stderr containing marker, and returns the exit status, stdout
// and stderr.
func signalledOnLine(t *testing.T, bin string, sig syscall.Signal, marker string, args ...string) (code int, stdout, stderr []byte) {
	t.Helper()
	w := startWatched(t, bin, args...)
	w.waitLine(marker)
	w.signal(sig)
	return w.wait()
}

// signalledOnFile runs bin with args, sends sig once path exists (the
// command writes it after installing its signal handlers), and returns the
// exit status, stdout and stderr. It looks for path after every line of
// stderr and every few milliseconds; when it sends the signal depends on
// what the command has done, not on how long it took.
func signalledOnFile(t *testing.T, bin string, sig syscall.Signal, path string, args ...string) (code int, stdout, stderr []byte) {
	t.Helper()
	w := startWatched(t, bin, args...)
	guard := time.After(hangGuard)
	for {
		if _, err := os.Stat(path); err == nil {
			break
		}
		select {
		case <-w.eof:
			code, _, stderr := w.wait()
			t.Fatalf("%v ended (exit %d) before writing %s: %s", args, code, path, stderr)
		case <-guard:
			w.cmd.Process.Kill()
			w.wait()
			t.Fatalf("%v: no %s after %v", args, path, hangGuard)
		case <-w.lines:
		case <-time.After(5 * time.Millisecond):
		}
	}
	w.signal(sig)
	return w.wait()
}

// TestSignalStopsALongScan starts a run of one scan far too long to
// finish, signals it once it has printed its start line, and checks that
// it exits with status 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP, which
// stops a run as SIGTERM does) and prints its JSON with "interrupted":
// true.
func TestSignalStopsALongScan(t *testing.T) {
	bin := buildCommand(t)
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			code, stdout, stderr := signalled(t, bin, c.sig, "run", "--iterations", "2000000000",
				"--scans", "1", "--chains", "4", "--replicates", "8", "--sigma0", "0.3", "--sigma1", "0.3", "--json")
			if code != c.code {
				t.Fatalf("exit %d, want %d (stderr %q)", code, c.code, stderr)
			}
			var obj map[string]any
			if err := json.Unmarshal(stdout, &obj); err != nil {
				t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
			}
			if obj["interrupted"] != true {
				t.Errorf("interrupted = %v, want true", obj["interrupted"])
			}
			if !bytes.Contains(stderr, []byte("interrupted")) {
				t.Errorf("stderr %q does not say the run was interrupted", stderr)
			}
		})
	}
}

// TestSignalStopsBenchAndReproduce checks that bench (in its first repeat,
// signalled once it says the timing started, and between repeats,
// signalled once it says a repeat is done) and reproduce (signalled once
// its manifest exists, in its runs or its closed-form comparison) stop
// with status 130 or 143 and report what they completed.
func TestSignalStopsBenchAndReproduce(t *testing.T) {
	bin := buildCommand(t)
	code, stdout, stderr := signalledOnLine(t, bin, syscall.SIGINT, "bench: timing", "bench", "--dim", "16", "--chains", "20",
		"--replicates", "8", "--iterations", "100000000", "--repeats", "3")
	if code != 130 || len(stdout) != 0 || !bytes.Contains(stderr, []byte("interrupted before the first repeat")) {
		t.Errorf("bench in its first repeat: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = signalledOnLine(t, bin, syscall.SIGTERM, "bench: repeat 1 of", "bench", "--dim", "4", "--chains", "4",
		"--replicates", "8", "--iterations", "20", "--repeats", "100000000", "--json",
		"--max-memory", "8GiB") // the repeats' record needs 4.5 GiB: a limit of its own, not the machine's available memory
	var obj map[string]any
	if err := json.Unmarshal(stdout, &obj); code != 143 || err != nil || obj["interrupted"] != true || !(obj["repeats_completed"].(float64) > 0) {
		t.Errorf("bench between repeats: exit %d, JSON %v (%v), stderr %q", code, obj, err, stderr)
	}
	out := t.TempDir()
	code, _, stderr = signalledOnFile(t, bin, syscall.SIGINT, filepath.Join(out, "manifest.json"), "reproduce", "gaussian", "--scale", "0.001",
		"--replicates", "1", "--quiet", "--out", out)
	if code != 130 || !bytes.Contains(stderr, []byte("interrupted during gaussian")) {
		t.Errorf("reproduce: exit %d, stderr %q", code, stderr)
	}
	t.Logf("reproduce: %s", bytes.TrimSpace(stderr))
}
