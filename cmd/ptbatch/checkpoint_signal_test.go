//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/ptbatch/ptbatch/rundir"
)

// checkpointRun are the flags of the runs the checkpoint tests stop and
// resume: a tuned spline path, every streamed file (samples.csv thinned,
// index.csv) and every statistic of --json. They print their lines on
// stderr (no --quiet): the tests signal after the line of a checkpoint.
var checkpointRun = []string{"run", "--dim", "2", "--sigma0", "0.3", "--sigma1", "0.3", "--chains", "8",
	"--replicates", "12", "--iterations", "300000", "--scans", "40", "--path", "spline", "--knots", "3",
	"--seed", "17", "--json", "--thin", "25", "--record", "index", "--index-window", "0", "--index-thin", "1000"}

// outputFiles are the files of --out whose bytes must not depend on an
// interruption; the figures are compared too.
var outputFiles = []string{"samples.csv", "index.csv", "scans.csv", "knots.csv", "schedules.csv", "logz.csv",
	"lambda.csv", "index.png", "lambda.png"}

// withoutTimings returns the JSON of stdout with the timing fields and
// the settings that differ between the runs compared (--out, --workers)
// removed, re-encoded canonically.
func withoutTimings(t *testing.T, stdout []byte) []byte {
	t.Helper()
	return jsonWithout(t, stdout, "out", "workers")
}

// jsonWithout returns the JSON of stdout without its timing fields and
// without the config settings named, re-encoded canonically.
func jsonWithout(t *testing.T, stdout []byte, settings ...string) []byte {
	t.Helper()
	var obj map[string]any
	if err := json.Unmarshal(stdout, &obj); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
	}
	for _, k := range timingFields {
		delete(obj, k)
	}
	cfg := obj["config"].(map[string]any)
	for _, k := range settings {
		delete(cfg, k)
	}
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

// stopAfterCheckpoint runs bin with args (which write a checkpoint ck
// after every scan), sends sig once the command says it has written the
// checkpoint of its first scan (the test decides when, never a delay:
// issue 26, cause 10), and returns the exit status and stderr.
func stopAfterCheckpoint(t *testing.T, bin string, sig syscall.Signal, ck string, args ...string) (int, []byte) {
	t.Helper()
	w := startWatched(t, bin, append(args, "--checkpoint", ck, "--checkpoint-every", "1")...)
	line := w.waitLine("checkpoint " + ck + " written after 1 of")
	w.signal(sig)
	code, _, stderr := w.wait()
	t.Logf("%v after %q: exit %d", sig, line, code)
	return code, stderr
}

// TestCheckpointSurvivesKills runs checkpointRun uninterrupted, then stops
// it with SIGTERM, SIGHUP (which behaves as SIGTERM) and SIGKILL once it
// has written the checkpoint of its first scan of 40 (SIGTERM and SIGHUP
// write one more, of the scan under way; SIGKILL lands between
// checkpoints), and resumes each with --resume on another number of
// workers: the JSON, timings aside, and every CSV and figure must equal
// the uninterrupted run's byte for byte.
func TestCheckpointSurvivesKills(t *testing.T) {
	bin := buildCommand(t)
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	code, wantJSON, stderr := execute(t, bin, append(checkpointRun, "--out", full, "--workers", "2")...)
	if code != 0 {
		t.Fatalf("uninterrupted run: exit %d: %s", code, stderr)
	}
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			out, ck := filepath.Join(dir, "stop"+c.sig.String()), filepath.Join(dir, "stop"+c.sig.String()+".ckpt")
			code, stderr := stopAfterCheckpoint(t, bin, c.sig, ck, append(checkpointRun, "--out", out, "--workers", "2")...)
			if code != c.code {
				t.Fatalf("exit %d, want %d: %s", code, c.code, stderr)
			}
			if !bytes.Contains(stderr, []byte("--resume "+ck)) {
				t.Errorf("stderr %q does not say how to resume", stderr)
			}
			m, err := rundir.ReadManifest(out)
			if err != nil || !m.Interrupted || m.Complete {
				t.Errorf("manifest after %v: %+v (%v), want interrupted", c.sig, m, err)
			}
			code, gotJSON, stderr := execute(t, bin, append(checkpointRun, "--out", out, "--workers", "1", "--checkpoint", ck, "--resume", ck)...)
			if code != 0 {
				t.Fatalf("resume: exit %d: %s", code, stderr)
			}
			sameOutputs(t, "resumed after "+c.sig.String(), wantJSON, gotJSON, full, out)
		})
	}

	t.Run("SIGKILL", func(t *testing.T) {
		out, ck := filepath.Join(dir, "kill"), filepath.Join(dir, "kill.ckpt")
		code, stderr := stopAfterCheckpoint(t, bin, syscall.SIGKILL, ck, append(checkpointRun, "--out", out, "--workers", "1")...)
		if code != -1 {
			t.Fatalf("exit %d, want the kill's -1: %s", code, stderr)
		}
		code, gotJSON, stderr := execute(t, bin, append(checkpointRun, "--out", out, "--workers", "2", "--checkpoint", ck, "--resume", ck)...)
		if code != 0 {
			t.Fatalf("resume: exit %d: %s", code, stderr)
		}
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
