//go:build unix

package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/paper"
	"github.com/ptbatch/ptbatch/rundir"
)

// smallRun is a run of a few milliseconds that writes every file of
// --out; --record index adds index.csv, .png and .svg.
var smallRun = []string{"run", "--chains", "4", "--iterations", "40", "--scans", "2", "--replicates", "2", "--quiet"}

// TestReusedOutHoldsOnlyNewFiles checks issue 26's cause 9 and issue
// 19's lock: a run into an --out that holds a run with --record index,
// and the temporary files of a write a SIGKILL interrupted (planted
// here), leaves only its own files: no index.*, no .tmp-*, and no .lock
// after its clean exit; every file left is one its manifest records.
func TestReusedOutHoldsOnlyNewFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	mustRun(t, withArgs(smallRun, "--record", "index", "--out", dir)...)
	for _, name := range []string{"index.csv", "index.png", "index.svg"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Fatalf("the first run wrote no %s: %v", name, err)
		}
	}
	for _, name := range []string{".scans.csv.tmp-123456", ".samples.csv.tmp-9"} {
		os.WriteFile(filepath.Join(dir, name), []byte("half a fi"), 0o644)
	}
	mustRun(t, withArgs(smallRun, "--out", dir)...)
	m, err := rundir.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := m.Files[e.Name()]; !ok && e.Name() != rundir.ManifestName {
			t.Errorf("the reused --out holds %s, which this run did not write", e.Name())
		}
	}
	if len(m.Files) < 5 {
		t.Errorf("the manifest records %d files, want every file of the run (at least scans.csv, knots.csv, schedules.csv, samples.csv, summary.json)", len(m.Files))
	}
}

// TestOutputSymlinksRefused checks issue 26's cause 3: a --out whose
// .lock is a symbolic link, a run whose scans.csv is one, and a sweep
// --resume whose cells.csv is one, are refused with status 2 and one
// line, and the links' target is untouched.
func TestOutputSymlinksRefused(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "precious")
	const content = "keep me\n"
	os.WriteFile(target, []byte(content), 0o644)

	lockDir := filepath.Join(root, "lock")
	os.Mkdir(lockDir, 0o755)
	if err := os.Symlink(target, filepath.Join(lockDir, rundir.LockName)); err != nil {
		t.Fatal(err)
	}
	_, e, code := runCLI(withArgs(smallRun, "--out", lockDir)...)
	if code != 2 || strings.Count(e, "\n") != 1 || !strings.Contains(e, "symbolic link") {
		t.Errorf(".lock a link: exit %d, stderr %q; want 2 and one line saying it is a symbolic link", code, e)
	}

	// An output of the run (scans.csv) that is a link, refused before the run.
	runDir := filepath.Join(root, "run")
	os.Mkdir(runDir, 0o755)
	if err := os.Symlink(target, filepath.Join(runDir, "scans.csv")); err != nil {
		t.Fatal(err)
	}
	_, e, code = runCLI(withArgs(smallRun, "--out", runDir)...)
	if code != 2 || strings.Count(e, "\n") != 1 || !strings.Contains(e, "scans.csv is a symbolic link") {
		t.Errorf("scans.csv a link: exit %d, stderr %q; want 2 and one line naming it as a symbolic link", code, e)
	}
	if entries, _ := os.ReadDir(runDir); len(entries) != 1 {
		t.Errorf("the refused run left %d entries in --out, want the link alone", len(entries))
	}

	sweep := filepath.Join(root, "sweep")
	mustRun(t, withArgs(shardSweepArgs, "--out", sweep)...)
	cells := filepath.Join(sweep, "cells.csv")
	os.Remove(cells)
	if err := os.Symlink(target, cells); err != nil {
		t.Fatal(err)
	}
	_, e, code = runCLI(withArgs(shardSweepArgs, "--out", sweep, "--resume")...)
	if code != 2 || strings.Count(e, "\n") != 1 || !strings.Contains(e, "symbolic link") {
		t.Errorf("cells.csv a link at --resume: exit %d, stderr %q; want 2 and one line saying it is a symbolic link", code, e)
	}
	if b, _ := os.ReadFile(target); string(b) != content {
		t.Errorf("the links' target holds %q, want %q", b, content)
	}
}

// TestRefusedReproduceMergeWritesNothing checks issue 26's cause 4: a
// reproduce merge refused part-way (shard 2's last run missing, its
// manifest edited to match, so that the checks before the merge pass and
// the refusal comes after earlier runs were joined) leaves no directory,
// CSV or record behind.
func TestRefusedReproduceMergeWritesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs reproduce twice")
	}
	args := []string{"reproduce", "betabinomial", "--scale", "0.002", "--replicates", "2", "--quiet"}
	dirs := runShards(t, t.TempDir(), 2, args)
	last := paper.RunFile(len(reproduceMethods) - 1) // betabinomial's last method: the merge's last run
	if err := os.Remove(filepath.Join(dirs[1], last)); err != nil {
		t.Fatal(err)
	}
	editManifest(t, dirs[1], func(m *rundir.Manifest) { delete(m.Files, filepath.ToSlash(last)) })
	refusedMerge(t, dirs, "shard "+dirs[1], filepath.ToSlash(last))
}

// TestCleanRunLeavesNoLock checks that the lock file is gone after a
// clean run and after a refused second writer's exit.
func TestCleanRunLeavesNoLock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	mustRun(t, withArgs(smallRun, "--out", dir)...)
	if _, err := os.Lstat(filepath.Join(dir, rundir.LockName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after a clean run: %s %v, want none", rundir.LockName, err)
	}
}
