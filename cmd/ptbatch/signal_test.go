//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// buildCommand builds the command into a temporary directory.
func buildCommand(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := filepath.Join(t.TempDir(), "ptbatch")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// signalled runs bin with args, sends sig after wait, and returns the exit
// status, stdout and stderr; it fails unless the process ends within a
// second of the signal.
func signalled(t *testing.T, bin string, sig syscall.Signal, wait time.Duration, args ...string) (code int, stdout, stderr []byte) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(wait)
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v: still running 5 s after %v: not stopped within the work under way (stderr %q)", args, sig, errb.String())
	}
	if took := time.Since(sent); took > time.Second {
		t.Errorf("%v: exited %v after %v, want under a second", args, took, sig)
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		code = 0
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatal(err)
	}
	return code, out.Bytes(), errb.Bytes()
}

// TestSignalStopsALongScan starts a run of one scan far too long to
// finish, signals it after 300 ms, and checks that it exits within a
// second with status 130 (SIGINT) or 143 (SIGTERM) and prints its JSON
// with "interrupted": true.
func TestSignalStopsALongScan(t *testing.T) {
	bin := buildCommand(t)
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			code, stdout, stderr := signalled(t, bin, c.sig, 300*time.Millisecond, "run", "--iterations", "2000000000",
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
// and between repeats, when it reports the repeats completed) and
// reproduce (in its runs or its closed-form comparison, whichever is under
// way after two seconds) stop within a second of SIGINT with status 130.
func TestSignalStopsBenchAndReproduce(t *testing.T) {
	bin := buildCommand(t)
	code, stdout, stderr := signalled(t, bin, syscall.SIGINT, 300*time.Millisecond, "bench", "--dim", "16", "--chains", "20",
		"--replicates", "8", "--iterations", "100000000", "--repeats", "3")
	if code != 130 || len(stdout) != 0 || !bytes.Contains(stderr, []byte("interrupted before the first repeat")) {
		t.Errorf("bench in its first repeat: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = signalled(t, bin, syscall.SIGTERM, time.Second, "bench", "--dim", "4", "--chains", "4",
		"--replicates", "8", "--iterations", "20", "--repeats", "100000000", "--json")
	var obj map[string]any
	if err := json.Unmarshal(stdout, &obj); code != 143 || err != nil || obj["interrupted"] != true || !(obj["repeats_completed"].(float64) > 0) {
		t.Errorf("bench between repeats: exit %d, JSON %v (%v), stderr %q", code, obj, err, stderr)
	}
	out := t.TempDir()
	code, _, stderr = signalled(t, bin, syscall.SIGINT, 2*time.Second, "reproduce", "gaussian", "--scale", "0.001",
		"--replicates", "1", "--quiet", "--out", out)
	if code != 130 || !bytes.Contains(stderr, []byte("interrupted during gaussian")) {
		t.Errorf("reproduce: exit %d, stderr %q", code, stderr)
	}
	t.Logf("reproduce: %s", bytes.TrimSpace(stderr))
}
