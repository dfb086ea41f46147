package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/runout"
)

// shardRunArgs is a small run that exercises every output a run merges:
// the CSVs, samples.csv, the log Z and λ-profile files and the index
// process (whose rows, like samples.csv's, are written scan by scan).
var shardRunArgs = []string{"run", "--sigma0", "0.3", "--sigma1", "0.3", "--chains", "6", "--iterations", "120",
	"--scans", "3", "--replicates", "11", "--path", "spline", "--knots", "2", "--record", "index", "--quiet"}

// shardSweepArgs is a small sweep of 4 cells × 3 replicates, so that most
// splits cut a cell between shards.
var shardSweepArgs = []string{"sweep", "--dims", "1,2", "--chains", "4", "--knots", "1,2", "--replicates", "3",
	"--iterations", "60", "--scans", "2", "--quiet"}

// mustRun runs the command in process and fails unless it exits 0.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errs, code := runCLI(args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	return out
}

// withArgs returns base followed by more, in a new slice.
func withArgs(base []string, more ...string) []string {
	return append(slices.Clone(base), more...)
}

// runShards runs shards 1..n of args, each into its own directory under
// root, and returns the directories.
func runShards(t *testing.T, root string, n int, args []string) []string {
	t.Helper()
	var dirs []string
	for i := 1; i <= n; i++ {
		d := filepath.Join(root, "shard"+strconv.Itoa(i))
		mustRun(t, withArgs(args, "--shard", strconv.Itoa(i)+"/"+strconv.Itoa(n), "--out", d)...)
		dirs = append(dirs, d)
	}
	return dirs
}

// comparableSummary returns summary.json without its timing fields and
// config.out and config.workers (the machine's), re-encoded canonically.
func comparableSummary(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(b, &obj); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, k := range timingFields {
		delete(obj, k)
	}
	delete(obj, "seconds") // reproduce's seconds per run
	if cfg, ok := obj["config"].(map[string]any); ok {
		delete(cfg, "out")
		delete(cfg, "workers")
	}
	out, err := json.MarshalIndent(obj, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameOutput fails unless every file of want (but the lock, manifest.json,
// the exact records with their timings, and results.md, whose tables show
// seconds) is in got with the same bytes, and summary.json is equal apart
// from its timing fields.
func sameOutput(t *testing.T, want, got string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(want, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(want, path)
		switch {
		case rel == rundir.LockName, rel == rundir.ManifestName, rel == "results.md", strings.HasSuffix(rel, ".gob"):
			return nil
		case filepath.Base(rel) == "summary.json":
			if w, g := comparableSummary(t, path), comparableSummary(t, filepath.Join(got, rel)); !bytes.Equal(w, g) {
				t.Errorf("%s differs beyond its timing fields:\none process: %s\nmerged: %s", rel, w, g)
			}
			n++
			return nil
		}
		w, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		g, err := os.ReadFile(filepath.Join(got, rel))
		if err != nil {
			t.Errorf("merged output lacks %s", rel)
			return nil
		}
		if !bytes.Equal(w, g) {
			t.Errorf("%s: merged bytes differ from one process's (%d and %d bytes)", rel, len(g), len(w))
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 3 {
		t.Fatalf("compared only %d files in %s", n, want)
	}
}

// TestShardsMergeToOneProcess checks the claim of ptbatch merge: shards 1
// to n (n = 1 … 5) of a run and of a sweep, and of a run with the
// automatic tuner and one with the stabilized reference (n = 2, 5),
// merged, give the files of one process byte for byte (summary.json apart
// from its timing fields).
// Replicate b draws from the stream of (seed, b) alone, so a shard's
// replicates are those of the one process; the split points fall inside
// SIMD blocks of 8 and, for the sweep, inside cells.
func TestShardsMergeToOneProcess(t *testing.T) {
	all := []int{1, 2, 3, 4, 5}
	for _, c := range []struct {
		name   string
		args   []string
		splits []int
		short  int // the split under -short (the race detector's run), 0 for none
	}{
		{"run", shardRunArgs, all, 3},
		// The automatic tuner (run's default), whose Result has per-replicate
		// tuning rounds and iterations.
		{"run-auto", []string{"run", "--sigma0", "0.3", "--sigma1", "0.3", "--chains", "6", "--iterations", "3000",
			"--replicates", "11", "--knots", "2", "--quiet"}, []int{2, 5}, 0},
		// The stabilised two-leg PT, whose Result has each leg's figures per
		// replicate (summary.json's legs).
		{"run-stabilized", []string{"run", "--reference", "stabilized", "--sigma0", "0.3", "--sigma1", "0.3", "--chains", "9",
			"--iterations", "2000", "--replicates", "11", "--quiet"}, []int{2, 5}, 0},
		{"sweep", shardSweepArgs, all, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && c.short == 0 {
				t.Skip("-short runs one split of the others")
			}
			root := t.TempDir()
			one := filepath.Join(root, "one")
			mustRun(t, withArgs(c.args, "--out", one)...)
			for _, n := range c.splits {
				if testing.Short() && n != c.short {
					continue
				}
				dirs := runShards(t, filepath.Join(root, strconv.Itoa(n)), n, c.args)
				merged := filepath.Join(root, strconv.Itoa(n), "merged")
				mustRun(t, append([]string{"merge", "--quiet", "--out", merged}, dirs...)...)
				sameOutput(t, one, merged)
			}
		})
	}
}

// TestShardedReproduceMerges checks the same of reproduce, whose shards
// split runs × replicates and whose merge makes the report (CSVs and
// figures) from the joined runs: the Beta-binomial experiment (no
// closed-form comparison to wait for) at a thousandth of its iterations.
func TestShardedReproduceMerges(t *testing.T) {
	if testing.Short() {
		t.Skip("runs reproduce three times")
	}
	args := []string{"reproduce", "betabinomial", "--scale", "0.002", "--replicates", "3", "--quiet"}
	root := t.TempDir()
	one := filepath.Join(root, "one")
	mustRun(t, withArgs(args, "--out", one)...)
	dirs := runShards(t, root, 4, args)
	merged := filepath.Join(root, "merged")
	mustRun(t, append([]string{"merge", "--quiet", "--out", merged}, dirs...)...)
	sameOutput(t, one, merged)
	if _, err := os.Stat(filepath.Join(merged, "results.md")); err != nil {
		t.Errorf("merge wrote no results.md: %v", err)
	}
}

// TestMergeRefuses checks that merge refuses, with status 2 and a line
// that says why, every input that is not the shards of one complete
// computation, and writes nothing then.
func TestMergeRefuses(t *testing.T) {
	root := t.TempDir()
	dirs := runShards(t, filepath.Join(root, "a"), 3, shardSweepArgs)
	other := runShards(t, filepath.Join(root, "b"), 3, withArgs(shardSweepArgs, "--seeds", "2"))
	split4 := runShards(t, filepath.Join(root, "c"), 4, shardSweepArgs)
	runs := runShards(t, filepath.Join(root, "d"), 3, []string{"run", "--chains", "4", "--iterations", "20", "--scans", "1", "--replicates", "3", "--quiet"})

	// A shard interrupted before its first scan (a cancelled context is
	// SIGINT's): its manifest says it is partial.
	partial := filepath.Join(root, "partial")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	err := run(ctx, withArgs(shardSweepArgs, "--shard", "2/3", "--out", partial), &stdout, &stderr)
	if code := exitCode(err, &stderr); code != 130 {
		t.Fatalf("interrupted shard: exit %d, want 130 (%s)", code, stderr.String())
	}
	// A shard whose manifest names another build.
	otherBuild := filepath.Join(root, "otherbuild")
	copyDir(t, dirs[1], otherBuild)
	editManifest(t, otherBuild, func(m *rundir.Manifest) { m.Version = "ptbatch v0.0.1 go1.0" })
	// A directory that no ptbatch wrote.
	plain := t.TempDir()

	out := func(name string) string { return filepath.Join(root, "out-"+name) }
	cases := []struct {
		name string
		dirs []string
		want string
	}{
		{"different configurations", []string{dirs[0], other[1], dirs[2]}, "--seeds (1 and 2)"},
		{"different builds", []string{dirs[0], otherBuild, dirs[2]}, "different builds"},
		{"a missing shard", []string{dirs[0], dirs[2]}, "missing shards: [2/3]"},
		{"a duplicated shard", []string{dirs[0], dirs[1], dirs[1], dirs[2]}, "shard 2/3 given twice"},
		{"a partial shard", []string{dirs[0], partial, dirs[2]}, "is partial"},
		{"different splits", []string{dirs[0], split4[1], dirs[2]}, "different splits"},
		{"different commands", []string{dirs[0], runs[1], dirs[2]}, "different commands"},
		{"not an output directory", []string{dirs[0], plain, dirs[2]}, "no manifest.json"},
		{"no shards", nil, "needs the shard directories"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, e, code := runCLI(append([]string{"merge", "--out", out(c.name)}, c.dirs...)...)
			if code != 2 || o != "" || strings.Count(e, "\n") != 1 || !strings.Contains(e, c.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and one line containing %q", code, o, e, c.want)
			}
			if _, err := os.Stat(filepath.Join(out(c.name), rundir.ManifestName)); err == nil {
				t.Errorf("a refused merge wrote %s", rundir.ManifestName)
			}
		})
	}
	t.Run("a shard being written", func(t *testing.T) {
		c := newCmdFlags("sweep")
		var o string
		c.String(&o, "out", "", "")
		held, err := holdOut(c, "out", dirs[1], io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		defer held.Close()
		_, e, code := runCLI("merge", "--out", out("busy"), dirs[0], dirs[1], dirs[2])
		if code != 2 || !strings.Contains(e, "being written by another process") {
			t.Errorf("exit %d, stderr %q", code, e)
		}
	})
	t.Run("output is a shard", func(t *testing.T) {
		_, e, code := runCLI("merge", "--out", dirs[0], dirs[0], dirs[1], dirs[2])
		if code != 2 || !strings.Contains(e, "also one of the shards") {
			t.Errorf("exit %d, stderr %q", code, e)
		}
	})
}

// copyDir copies the files of src into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}

// editManifest rewrites dir's manifest.json after edit.
func editManifest(t *testing.T, dir string, edit func(*rundir.Manifest)) {
	t.Helper()
	m, err := rundir.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, rundir.ManifestName), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestJoinRefusesUnknownDifferences checks that joining records refuses a
// field of batch.Result that differs between the parts and is not known
// to be per replicate, rather than keep one part's value.
func TestJoinRefusesUnknownDifferences(t *testing.T) {
	part := func(first int, scans int) *runout.Record {
		return &runout.Record{Format: runout.RecordFormat, Result: batch.Result{Config: batch.Config{FirstReplicate: first, Replicates: 1},
			Scans: scans, RoundTrips: []int{first}}}
	}
	if _, err := runout.Merge([]*runout.Record{part(0, 4), part(1, 4)}); err != nil {
		t.Fatalf("equal parts: %v", err)
	}
	if _, err := runout.Merge([]*runout.Record{part(0, 4), part(1, 3)}); err == nil || !strings.Contains(err.Error(), "Result.Scans") {
		t.Errorf("parts of different Scans: %v, want an error naming Result.Scans", err)
	}
	if _, err := runout.Merge([]*runout.Record{part(0, 4), part(2, 4)}); err == nil || !strings.Contains(err.Error(), "replicates 1 and on missing") {
		t.Errorf("a gap between parts: %v, want an error", err)
	}
}

// TestInterruptedReproduceKeepsItsRuns interrupts reproduce once its first
// run is written: status 130, the finished runs kept in runs/, and
// summary.json and the manifest marked interrupted.
func TestInterruptedReproduceKeepsItsRuns(t *testing.T) {
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if _, err := os.Stat(filepath.Join(out, "runs", "000.gob")); err == nil {
				cancel()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	var stdout, stderr bytes.Buffer
	err := run(ctx, []string{"reproduce", "betabinomial", "--scale", "0.05", "--replicates", "2", "--quiet", "--out", out}, &stdout, &stderr)
	if code := exitCode(err, &stderr); code != 130 {
		t.Fatalf("exit %d, want 130 (%s)", code, stderr.String())
	}
	var sum map[string]any
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err == nil {
		err = json.Unmarshal(b, &sum)
	}
	if err != nil || sum["interrupted"] != true || !(sum["runs_completed"].(float64) >= 1) {
		t.Errorf("summary.json: %v (%v), want interrupted and at least one run completed", sum, err)
	}
	m, err := rundir.ReadManifest(out)
	if err != nil || !m.Interrupted || m.Complete || m.Done < 2 {
		t.Errorf("manifest %+v (%v), want interrupted, incomplete, at least the first run's 2 units done", m, err)
	}
}

// TestReproduceHighDimConcurrent checks reproduce highdim, whose linear
// and spline runs of each dimension run at the same time when their one
// block leaves a worker idle: with two workers (concurrent), with one
// (one after the other), and as three shards merged, the CSV and the
// figures are the same bytes. It runs three of the paper's dimensions
// (d = 256 alone would take seconds per run under -tags purego).
func TestReproduceHighDimConcurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs reproduce highdim five times")
	}
	defer func(dims []int) { highDimDims = dims }(highDimDims)
	highDimDims = []int{1, 2, 16}
	args := []string{"reproduce", "highdim", "--scale", "0.001", "--replicates", "2", "--quiet"}
	root := t.TempDir()
	one, two := filepath.Join(root, "one"), filepath.Join(root, "two")
	mustRun(t, withArgs(args, "--workers", "1", "--out", one)...)
	mustRun(t, withArgs(args, "--workers", "2", "--out", two)...)
	for _, f := range []string{"rates.csv", "rate_vs_dimension.svg", "rate_vs_dimension.png"} {
		w, err := os.ReadFile(filepath.Join(one, "highdim", f))
		if err != nil {
			t.Fatal(err)
		}
		g, err := os.ReadFile(filepath.Join(two, "highdim", f))
		if err != nil || !bytes.Equal(w, g) {
			t.Errorf("highdim/%s: two workers (concurrent runs) differ from one (%v)", f, err)
		}
	}
	dirs := runShards(t, root, 3, withArgs(args, "--workers", "2"))
	merged := filepath.Join(root, "merged")
	mustRun(t, append([]string{"merge", "--quiet", "--out", merged}, dirs...)...)
	sameOutput(t, two, merged)
}
