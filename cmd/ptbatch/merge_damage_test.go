package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/runout"
)

// refusedMerge runs a merge of dirs into a new directory and fails
// unless it exits 2 with one line on stderr containing every string of
// want, nothing on stdout, and no output directory left behind.
func refusedMerge(t *testing.T, dirs []string, want ...string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "merged")
	o, e, code := runCLI(append([]string{"merge", "--out", out}, dirs...)...)
	if code != 2 || o != "" || strings.Count(e, "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 and one line", code, o, e)
	}
	for _, w := range want {
		if !strings.Contains(e, w) {
			t.Errorf("stderr %q does not name %q", e, w)
		}
	}
	if _, err := os.Lstat(out); err == nil {
		entries, _ := os.ReadDir(out)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the refused merge left %s with %q", out, names)
	}
}

// TestMergeRefusesDamagedShards checks the three damaged shards of issue
// 26 (cause 2), each refused by the checksums recorded when the shard was
// written, naming the shard and the file, with nothing written: a run
// shard's samples.csv truncated (to half its length), a sweep shard's
// cells.csv cut by 10 bytes, and one flipped byte in the middle of a run
// shard's result.gob (same length).
func TestMergeRefusesDamagedShards(t *testing.T) {
	root := t.TempDir()
	runs := runShards(t, filepath.Join(root, "run"), 3, shardRunArgs)
	sweeps := runShards(t, filepath.Join(root, "sweep"), 3, shardSweepArgs)
	for _, c := range []struct {
		name   string
		dirs   []string
		file   string
		damage func([]byte) []byte
	}{
		{"samples.csv truncated", runs, "samples.csv", func(b []byte) []byte { return b[:len(b)/2] }},
		{"cells.csv cut by 10 bytes", sweeps, "cells.csv", func(b []byte) []byte { return b[:len(b)-10] }},
		{"result.gob with a flipped byte", runs, runout.RecordName, func(b []byte) []byte { b[len(b)/2] ^= 0x01; return b }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dirs := slices.Clone(c.dirs)
			dirs[1] = filepath.Join(t.TempDir(), "shard2")
			copyDir(t, c.dirs[1], dirs[1])
			path := filepath.Join(dirs[1], c.file)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, c.damage(b), 0o644); err != nil {
				t.Fatal(err)
			}
			refusedMerge(t, dirs, "shard "+dirs[1], c.file)
		})
	}
}

// TestMergeRefusesEditedArgs checks that changing the argument list a
// shard's manifest records cannot change what merge writes: an edit of
// one shard (--chains=6 to 7) is refused as arguments that differ from
// those its result.gob was written with, and so is the same edit of every
// shard, naming the argument edited.
func TestMergeRefusesEditedArgs(t *testing.T) {
	root := t.TempDir()
	orig := runShards(t, filepath.Join(root, "run"), 3, shardRunArgs)
	edit := func(m *rundir.Manifest) {
		i := slices.Index(m.Args, "--chains=6") // shardRunArgs' "--chains", "6"
		if i < 0 {
			t.Fatalf("args %q have no --chains=6", m.Args)
		}
		m.Args[i] = "--chains=7"
	}
	var dirs []string
	for i, d := range orig {
		dirs = append(dirs, filepath.Join(root, "edited", filepath.Base(d)))
		copyDir(t, d, dirs[i])
	}
	editManifest(t, dirs[0], edit)
	t.Run("one shard", func(t *testing.T) {
		refusedMerge(t, []string{dirs[0], orig[1], orig[2]}, "different arguments")
	})
	editManifest(t, dirs[1], edit)
	editManifest(t, dirs[2], edit)
	t.Run("every shard", func(t *testing.T) {
		refusedMerge(t, dirs, "--chains (6 and 7)", "edited")
	})
}
