package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/rundir"
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

// TestSweepMergeIgnoresArgs checks that a sweep's merge works on data:
// with the argument list of every shard's manifest edited (--dims=1,2 to
// --dims=1, which would halve the grid if merge re-parsed it), the merge
// writes the same cells.csv and summary.csv as of the shards unedited,
// since it rebuilds the sweep from the fingerprinted settings; and with
// a setting edited in every shard, the fingerprint refuses the shards.
func TestSweepMergeIgnoresArgs(t *testing.T) {
	root := t.TempDir()
	orig := runShards(t, filepath.Join(root, "sweep"), 3, shardSweepArgs)
	want := filepath.Join(root, "want")
	mustRun(t, append([]string{"merge", "--out", want, "--quiet"}, orig...)...)
	var args, settings []string
	for _, d := range orig {
		a := filepath.Join(root, "args", filepath.Base(d))
		s := filepath.Join(root, "settings", filepath.Base(d))
		copyDir(t, d, a)
		copyDir(t, d, s)
		editManifest(t, a, func(m *rundir.Manifest) {
			for i, arg := range m.Args {
				if arg == "--dims=1,2" { // shardSweepArgs' "--dims", "1,2"
					m.Args[i] = "--dims=1"
				}
			}
		})
		editManifest(t, s, func(m *rundir.Manifest) { m.Settings["dims"] = "1" })
		args, settings = append(args, a), append(settings, s)
	}
	got := filepath.Join(root, "got")
	mustRun(t, append([]string{"merge", "--out", got, "--quiet"}, args...)...)
	for _, name := range []string{"cells.csv", "summary.csv"} {
		a, err1 := os.ReadFile(filepath.Join(want, name))
		b, err2 := os.ReadFile(filepath.Join(got, name))
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: merge of shards with edited arguments differs (%v, %v)", name, err1, err2)
		}
	}
	refusedMerge(t, settings, "edited")
}
