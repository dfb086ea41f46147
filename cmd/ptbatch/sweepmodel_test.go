package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSweepOtherModelShardsMerge runs a sweep of the Beta-binomial with
// the automatic tuner in one process and as 3 shards, merges them, and
// checks that cells.csv and summary.csv are the one process's bytes, with
// a row per cell × replicate (2 knots × 3 replicates, and the header) and
// the Gaussian's linear bound left out (NaN).
func TestSweepOtherModelShardsMerge(t *testing.T) {
	args := []string{"sweep", "--model", "betabinomial", "--tuning", "auto", "--chains", "6", "--knots", "1,2",
		"--replicates", "3", "--iterations", "200", "--quiet"}
	root := t.TempDir()
	one := filepath.Join(root, "one")
	mustRun(t, withArgs(args, "--out", one)...)
	dirs := runShards(t, filepath.Join(root, "shards"), 3, args)
	merged := filepath.Join(root, "merged")
	mustRun(t, append([]string{"merge", "--out", merged, "--quiet"}, dirs...)...)
	for _, name := range []string{"cells.csv", "summary.csv"} {
		a, err1 := os.ReadFile(filepath.Join(one, name))
		b, err2 := os.ReadFile(filepath.Join(merged, name))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: merged shards differ from one process (%v, %v)", name, err1, err2)
		}
	}
	cells, _ := os.ReadFile(filepath.Join(one, "cells.csv"))
	if n := strings.Count(string(cells), "\n"); n != 7 || !strings.Contains(string(cells), ",NaN\n") {
		t.Errorf("cells.csv: %d lines, want 7 ending in the NaN bound:\n%s", n, cells)
	}
}

// TestSweepModelRefusals checks the flags that do not apply to --model or
// --tuning: one line naming the flag, status 2.
func TestSweepModelRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--model", "galaxy", "--dims", "3", "--chains", "8"}, `--dims "3"`},
		{[]string{"sweep", "--model", "mixture", "--sigma", "0.2", "--chains", "8"}, "--sigma 0.2"},
		{[]string{"sweep", "--model", "mixture"}, "--chains"},
		{[]string{"sweep", "--model", "nope"}, `--model "nope"`},
		{[]string{"sweep", "--tuning", "auto", "--scans", "10"}, "--scans 10"},
		{[]string{"sweep", "--tuning", "auto", "--lr", "0.1"}, "--lr 0.1"},
		{[]string{"sweep", "--tuning", "fast"}, `--tuning "fast"`},
	} {
		out, errs, code := runCLI(c.args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line with %q", c.args, code, errs, c.want)
		}
	}
}
