package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// untilFile is a context that is cancelled from the moment the file path
// exists: a run given it stops at its loop's first check after writing
// its first checkpoint there, whatever the machine's speed. Its Done
// channel is closed when Err is not nil, and never closes before.
type untilFile struct {
	context.Context
	path string
}

var closedDone = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (c untilFile) Err() error {
	if _, err := os.Stat(c.path); err == nil {
		return context.Canceled
	}
	return nil
}

func (c untilFile) Done() <-chan struct{} {
	if c.Err() != nil {
		return closedDone
	}
	return nil
}

// cfgVaries are the settings that differ between the runs compared.
var cfgVaries = []string{"workers", "checkpoint", "checkpoint_every", "resume"}

// TestFunnelCheckpointResume checks checkpoint and resume of the funnel
// with autoMALA (per-chain step sizes, preconditioner windows and
// proposal counts in the checkpoint) through the command line
// (checkResumeIsWhole).
func TestFunnelCheckpointResume(t *testing.T) {
	checkResumeIsWhole(t, []string{"run", "--model", "funnel", "--dim", "3", "--scale", "2", "--explorer", "automala", "--chains", "5",
		"--replicates", "9", "--iterations", "600", "--scans", "6", "--tuning", "paper", "--seed", "8", "--json", "--quiet"})
}

// checkResumeIsWhole runs args (a run of 6 scans with --json) on 2
// workers; then on one worker with --checkpoint-every 2, stopped right
// after its first checkpoint (scan 2 of 6, untilFile); then resumes that
// on 2 workers. The resumed run's JSON, timings and cfgVaries aside, must
// equal the uninterrupted run's byte for byte; it returns that JSON.
func checkResumeIsWhole(t *testing.T, args []string) string {
	t.Helper()
	whole, errs, code := runCLI(append(args, "--workers", "2")...)
	if code != 0 {
		t.Fatalf("uninterrupted run: exit %d: %s", code, errs)
	}
	ck := filepath.Join(t.TempDir(), "run.ckpt")
	var out, errb bytes.Buffer
	err := run(untilFile{context.Background(), ck}, append(args, "--workers", "1", "--checkpoint", ck, "--checkpoint-every", "2"), &out, &errb)
	if code := exitCode(err, &errb); code == 0 || code == 2 {
		t.Fatalf("interrupted run: exit %d (%v), want the interruption's: %s", code, err, errb.String())
	}
	var part map[string]any
	if err := json.Unmarshal(out.Bytes(), &part); err != nil || part["scans_completed"] != 2.0 {
		t.Fatalf("interrupted run: %v, scans completed %v; want 2, at the first checkpoint", err, part["scans_completed"])
	}
	resumed, errs, code := runCLI(append(args, "--workers", "2", "--resume", ck)...)
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	if got, want := jsonWithout(t, []byte(resumed), cfgVaries...), jsonWithout(t, []byte(whole), cfgVaries...); !bytes.Equal(got, want) {
		t.Errorf("the resumed run's JSON differs from the uninterrupted run's:\n%s\nwant\n%s", got, want)
	}
	return whole
}
