//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// checkpointRun are the flags of the runs the checkpoint tests stop and
// resume: a tuned spline path, every streamed file (samples.csv thinned,
// index.csv) and every statistic of --json, long enough (about 1.5 s alone
// on one core) that a signal lands within it.
var checkpointRun = []string{"run", "--dim", "2", "--sigma0", "0.3", "--sigma1", "0.3", "--chains", "8",
	"--replicates", "12", "--iterations", "300000", "--scans", "40", "--path", "spline", "--knots", "3",
	"--seed", "17", "--json", "--quiet", "--thin", "25", "--record", "index", "--index-window", "0", "--index-thin", "1000"}

// outputFiles are the files of --out whose bytes must not depend on an
// interruption; the figures are compared too.
var outputFiles = []string{"samples.csv", "index.csv", "scans.csv", "knots.csv", "schedules.csv", "logz.csv",
	"lambda.csv", "index.png", "lambda.png"}

// withoutTimings returns the JSON of stdout with the timing fields and
// the settings that differ between the runs compared (--out, --workers)
// removed, re-encoded canonically.
func withoutTimings(t *testing.T, stdout []byte) []byte {
	t.Helper()
	var obj map[string]any
	if err := json.Unmarshal(stdout, &obj); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
	}
	for _, k := range timingFields {
		delete(obj, k)
	}
	cfg := obj["config"].(map[string]any)
	delete(cfg, "out")
	delete(cfg, "workers")
	b, err := json.MarshalIndent(obj, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// execute runs bin with args to its end and returns its exit status,
// stdout and stderr.
func execute(t *testing.T, bin string, args ...string) (int, []byte, []byte) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, out.Bytes(), errb.Bytes()
	case errors.As(err, &ee):
		return ee.ExitCode(), out.Bytes(), errb.Bytes()
	}
	t.Fatal(err)
	return 0, nil, nil
}

// stopAfter runs bin with args, sends sig after wait, and returns the
// exit status and stderr once the program has written its output.
func stopAfter(t *testing.T, bin string, sig syscall.Signal, wait time.Duration, args ...string) (int, []byte) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(wait)
	cmd.Process.Signal(sig) // an error if the run has ended: then it exits 0
	err := cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, errb.Bytes()
	case errors.As(err, &ee):
		return ee.ExitCode(), errb.Bytes()
	}
	t.Fatal(err)
	return 0, nil
}

// sameOutputs compares the JSON and summary.json (timings aside) and the
// files of two runs.
func sameOutputs(t *testing.T, what string, wantJSON, gotJSON []byte, wantDir, gotDir string) {
	t.Helper()
	if w, g := withoutTimings(t, wantJSON), withoutTimings(t, gotJSON); !bytes.Equal(w, g) {
		t.Errorf("%s: JSON differs from the uninterrupted run's:\n%s\nwant\n%s", what, g, w)
	}
	w, err := os.ReadFile(filepath.Join(wantDir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if g, err := os.ReadFile(filepath.Join(gotDir, "summary.json")); err != nil || !bytes.Equal(withoutTimings(t, w), withoutTimings(t, g)) {
		t.Errorf("%s: summary.json differs from the uninterrupted run's (%v)", what, err)
	}
	for _, name := range outputFiles {
		w, err := os.ReadFile(filepath.Join(wantDir, name))
		if err != nil {
			t.Fatal(err)
		}
		g, err := os.ReadFile(filepath.Join(gotDir, name))
		if err != nil {
			t.Errorf("%s: %v", what, err)
			continue
		}
		if !bytes.Equal(w, g) {
			t.Errorf("%s: %s differs from the uninterrupted run's (%d bytes, want %d)", what, name, len(g), len(w))
		}
	}
	if left, _ := filepath.Glob(filepath.Join(gotDir, ".*.resume")); len(left) > 0 {
		t.Errorf("%s: files set aside for the resume are left: %v", what, left)
	}
}

// TestCheckpointSurvivesKills runs checkpointRun uninterrupted, then stops
// it with SIGTERM at a random time (a checkpoint of the scan under way is
// written on the signal) and, separately, with SIGKILL at a random time
// after a first checkpoint was written (every scan: the kill lands between
// checkpoints, with rows of samples.csv and index.csv written after the
// last one), and resumes each with --resume on another number of workers:
// the JSON, timings aside, and every CSV and figure must equal the
// uninterrupted run's byte for byte. The random times are logged.
func TestCheckpointSurvivesKills(t *testing.T) {
	bin := buildCommand(t)
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	code, wantJSON, stderr := execute(t, bin, append(checkpointRun, "--out", full, "--workers", "2")...)
	if code != 0 {
		t.Fatalf("uninterrupted run: exit %d: %s", code, stderr)
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("random seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))

	t.Run("SIGTERM", func(t *testing.T) {
		out, ck := filepath.Join(dir, "term"), filepath.Join(dir, "term.ckpt")
		wait := time.Duration(150+rng.IntN(300)) * time.Millisecond
		code, stderr := stopAfter(t, bin, syscall.SIGTERM, wait, append(checkpointRun, "--out", out, "--workers", "2", "--checkpoint", ck)...)
		t.Logf("SIGTERM after %v: exit %d, %s", wait, code, bytes.TrimSpace(stderr))
		if code != 143 {
			t.Fatalf("exit %d, want 143 (if the run ended before the signal, make checkpointRun longer): %s", code, stderr)
		}
		if !bytes.Contains(stderr, []byte("--resume "+ck)) {
			t.Errorf("stderr %q does not say how to resume", stderr)
		}
		code, gotJSON, stderr := execute(t, bin, append(checkpointRun, "--out", out, "--workers", "1", "--checkpoint", ck, "--resume", ck)...)
		if code != 0 {
			t.Fatalf("resume: exit %d: %s", code, stderr)
		}
		sameOutputs(t, "resumed after SIGTERM", wantJSON, gotJSON, full, out)
	})

	t.Run("SIGKILL", func(t *testing.T) {
		out, ck := filepath.Join(dir, "kill"), filepath.Join(dir, "kill.ckpt")
		cmd := exec.Command(bin, append(checkpointRun, "--out", out, "--workers", "1", "--checkpoint", ck, "--checkpoint-every", "1")...)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			if _, err := os.Stat(ck); err == nil {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("no checkpoint after 30 s: %s", errb.String())
			}
			time.Sleep(5 * time.Millisecond)
		}
		wait := time.Duration(rng.IntN(900)) * time.Millisecond
		time.Sleep(wait)
		cmd.Process.Kill()
		err := cmd.Wait()
		t.Logf("SIGKILL %v after the first checkpoint: %v", wait, err)
		if err == nil {
			t.Fatalf("the run ended before the kill: make checkpointRun longer")
		}
		code, gotJSON, stderr := execute(t, bin, append(checkpointRun, "--out", out, "--workers", "2", "--checkpoint", ck, "--resume", ck)...)
		if code != 0 {
			t.Fatalf("resume: exit %d: %s", code, stderr)
		}
		t.Logf("%s", bytes.TrimSpace(stderr))
		sameOutputs(t, "resumed after SIGKILL", wantJSON, gotJSON, full, out)

		// The checkpoint of the finished run resumes to the same output
		// without computing anything: a job script run once more is
		// harmless.
		code, again, stderr := execute(t, bin, append(checkpointRun, "--out", out, "--checkpoint", ck, "--resume", ck)...)
		if code != 0 || !bytes.Contains(stderr, []byte("after 40 of 40 scans")) {
			t.Fatalf("resume of the finished run: exit %d: %s", code, stderr)
		}
		sameOutputs(t, "resumed when finished", wantJSON, again, full, out)
	})
}
