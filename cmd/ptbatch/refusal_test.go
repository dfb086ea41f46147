package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/runloop"
)

// refused runs the command in process and checks the contract of every
// refusal: exit 2, nothing on stdout, exactly one line on stderr holding
// each of want. It returns the line.
func refused(t *testing.T, args []string, want ...string) string {
	t.Helper()
	out, errs, code := runCLIRecover(t, args...)
	if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "\n") {
		t.Errorf("%q: exit %d, stdout %.100q, stderr %q; want exit 2, no stdout and one line", args, code, out, errs)
	}
	for _, w := range want {
		if !strings.Contains(errs, w) {
			t.Errorf("%q: stderr %q lacks %q", args, errs, w)
		}
	}
	return errs
}

// TestIntegersAreDecimal checks issue 26's cause 7: a leading zero is
// decimal in every integer flag, as in sweep's lists (strconv.Atoi), not
// octal (010 was read as 8), and hexadecimal is refused.
func TestIntegersAreDecimal(t *testing.T) {
	f, err := parseRunFlags([]string{"--seed", "010", "--replicates", "010", "--iterations", "0100", "--chains", "010"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 10 and 100: the decimal readings of the text given.
	if f.seed != 10 || f.replicates != 10 || f.iterations != 100 || f.chains != 10 {
		t.Errorf("seed %d, replicates %d, iterations %d, chains %d; want 10, 10, 100, 10", f.seed, f.replicates, f.iterations, f.chains)
	}
	seeds, err := parseSweepSeeds(t, "010")
	if err != nil || len(seeds) != 1 || seeds[0] != 10 {
		t.Errorf("sweep --seeds 010: %v, %v; want [10], as --seed 010", seeds, err)
	}
	refused(t, []string{"run", "--seed", "0x10"}, "--seed 0x10", "whole number")
	refused(t, []string{"run", "--chains", "0x10"}, "--chains 0x10")
}

// parseSweepSeeds returns the seeds sweep reads from --seeds list.
func parseSweepSeeds(t *testing.T, list string) ([]uint64, error) {
	t.Helper()
	f := &sweepFlags{}
	c := newSweepFlagSet(f)
	if err := c.parse([]string{"--seeds", list, "--dims", "1", "--iterations", "10", "--scans", "1"}, nil, ""); err != nil {
		return nil, err
	}
	cells, _, _, err := sweepGrid(c, f)
	var seeds []uint64
	for _, cell := range cells {
		seeds = append(seeds, cell.Seed)
	}
	return seeds, err
}

// TestEmptyValuesRefused checks issue 26's cause 6: an empty value (a job
// script's unset variable) is refused, naming the flag, before anything
// is written; --resume "" used to start afresh and --out "" to write
// nothing.
func TestEmptyValuesRefused(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	for _, args := range [][]string{
		{"run", "--out", out, "--resume", ""},
		{"run", "--out", ""},
		{"run", "--out", out, "--checkpoint", ""},
		{"run", "--out", out, "--record", ""},
		{"run", "--out", out, "--shard", ""},
		{"sweep", "--out", ""},
		{"reproduce", "gaussian", "--out", ""},
		{"merge", "--out", "", dir},
	} {
		name := "--" + strings.TrimPrefix(args[len(args)-2], "--")
		if args[0] == "merge" {
			name = "--out"
		}
		refused(t, args, name+` ""`, "empty")
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refusal created --out %s (%v)", out, err)
	}
}

// TestJobCompletionIndexNeedsShards checks issue 26's cause 6: in a pod
// of a Kubernetes Indexed Job (JOB_COMPLETION_INDEX set) without
// --shards, the run is refused (it used to compute everything, in every
// pod) with one line, and writes nothing.
func TestJobCompletionIndexNeedsShards(t *testing.T) {
	withEnv(t, map[string]string{"JOB_COMPLETION_INDEX": "2"})
	out := filepath.Join(t.TempDir(), "out")
	refused(t, []string{"run", "--quiet", "--iterations", "100", "--replicates", "4", "--out", out}, "JOB_COMPLETION_INDEX", "--shards")
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the refusal created --out (%v)", err)
	}
	// --shard chooses the shard itself: the variable does not matter.
	if _, errs, code := runCLI("run", "--quiet", "--iterations", "100", "--replicates", "4", "--chains", "5", "--shard", "1/2", "--out", out); code != 0 {
		t.Errorf("--shard 1/2 with JOB_COMPLETION_INDEX set: exit %d, %s", code, errs)
	}
}

// small is a run of a fraction of a second that writes every file of
// --out (samples.csv included).
var small = []string{"run", "--quiet", "--chains", "5", "--replicates", "3", "--iterations", "200", "--dim", "2", "--sigma0", "0.3", "--sigma1", "0.3"}

// snapshot returns the names and bytes of the files in dir (nil when dir
// does not exist).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

// sameSnapshot fails when dir's files differ from before.
func sameSnapshot(t *testing.T, what, dir string, before map[string]string) {
	t.Helper()
	after := snapshot(t, dir)
	if len(after) != len(before) {
		t.Errorf("%s: %s holds %d files, %d before", what, dir, len(after), len(before))
	}
	for name, b := range before {
		if after[name] != b {
			t.Errorf("%s: %s/%s changed (%d bytes, %d before)", what, dir, name, len(after[name]), len(b))
		}
	}
}

// TestPathCollisionsRefused checks issue 26's cause 4: a checkpoint
// inside --out (where the run's samples.csv replaced it, or the reverse),
// a checkpoint that is --out (the results were lost at the end, on the
// rename) and a --resume inside --out (an input the run writes) are
// refused before any work, with one line, writing nothing, whether --out
// exists or not.
func TestPathCollisionsRefused(t *testing.T) {
	dir := t.TempDir()
	fresh := filepath.Join(dir, "fresh")
	done := filepath.Join(dir, "done")
	if _, errs, code := runCLI(append(small, "--out", done)...); code != 0 {
		t.Fatalf("the run into %s: exit %d: %s", done, code, errs)
	}
	inside := filepath.Join(done, "a.ckpt")
	if err := os.WriteFile(inside, []byte("not a checkpoint"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, done)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--out", fresh, "--checkpoint", filepath.Join(fresh, "samples.csv")}, "inside --out"},
		{[]string{"--out", done, "--checkpoint", filepath.Join(done, "samples.csv")}, "inside --out"},
		{[]string{"--out", done, "--checkpoint", filepath.Join(done, "sub", "..", "run.ckpt")}, "inside --out"},
		{[]string{"--out", fresh, "--checkpoint", fresh}, "is --out"},
		{[]string{"--out", filepath.Join(fresh, "sub"), "--checkpoint", fresh}, "holds --out"},
		{[]string{"--out", done, "--checkpoint", filepath.Join(dir, "ok.ckpt"), "--resume", inside}, "inside --out"},
		{[]string{"--out", done, "--resume", filepath.Join(done, "samples.csv")}, "inside --out"},
	} {
		refused(t, append(small, c.args...), c.want)
	}
	sameSnapshot(t, "refused collisions", done, before)
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("a refusal created %s (%v)", fresh, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ok.ckpt")); !os.IsNotExist(err) {
		t.Errorf("a refusal wrote the checkpoint (%v)", err)
	}
}

// TestRefusedResumeWritesNothing checks issue 26's cause 4: a --resume
// refused because its flags differ from the checkpoint's (here --seed) or
// because --out's samples.csv lacks the checkpoint's rows leaves a
// finished run's directory as it was; its manifest.json used to be
// rewritten with the refused run's settings and "complete": false, so that
// merge rejected the good shard.
func TestRefusedResumeWritesNothing(t *testing.T) {
	dir := t.TempDir()
	out, ck := filepath.Join(dir, "shard-1"), filepath.Join(dir, "shard-1.ckpt")
	args := append(small, "--out", out, "--checkpoint", ck, "--shard", "1/2")
	if _, errs, code := runCLI(args...); code != 0 {
		t.Fatalf("the shard: exit %d: %s", code, errs)
	}
	before := snapshot(t, out)
	if !strings.Contains(before["manifest.json"], `"complete": true`) {
		t.Fatalf("the shard's manifest is not complete:\n%s", before["manifest.json"])
	}
	refused(t, append(args, "--resume", ck, "--seed", "2"), "--resume", "--seed")
	sameSnapshot(t, "refused --resume of another seed", out, before)
	// Without --quiet (small[1]), with a warning (--lr 1e-300 cannot move
	// the knots), neither the start line, the warning nor the shard's note
	// comes before the refusal.
	loud := append(append(slices.Clone(small[:1]), small[2:]...), "--out", out, "--checkpoint", ck, "--shard", "1/2")
	refused(t, append(loud, "--resume", ck, "--tuning", "paper", "--path", "spline", "--scans", "2", "--lr", "1e-300"), "--resume")
	sameSnapshot(t, "refused --resume without --quiet", out, before)

	// samples.csv cut to its header: the checkpoint counts rows it lacks.
	if err := os.WriteFile(filepath.Join(out, "samples.csv"), []byte(strings.SplitAfter(before["samples.csv"], "\n")[0]), 0o644); err != nil {
		t.Fatal(err)
	}
	cut := snapshot(t, out)
	refused(t, append(args, "--resume", ck), "--resume", "samples.csv")
	sameSnapshot(t, "refused --resume without the samples", out, cut)
}

// TestShardMemoryIsTheShards checks issue 19's bug: the memory check
// runs on the shard's replicates, not the whole run's. A run whose whole
// estimate exceeds --max-memory runs as --shard 1/1000, and a shard that
// does not fit is refused with its own estimate, which is smaller than
// the whole run's.
func TestShardMemoryIsTheShards(t *testing.T) {
	// 100,000 replicates of a small run need more than 64 MiB (the
	// refusal below says how much); a thousandth of them far less.
	run := []string{"run", "--quiet", "--chains", "4", "--replicates", "100000", "--iterations", "100", "--tuning", "paper", "--scans", "10", "--max-memory", "64MiB"}
	out := filepath.Join(t.TempDir(), "shard")
	whole := refused(t, append(run, "--out", out), "the run needs an estimated", "64.0 MiB")
	if _, errs, code := runCLI(append(run, "--shard", "1/1000", "--out", out)...); code != 0 {
		t.Fatalf("--shard 1/1000: exit %d: %s", code, errs)
	}
	half := refused(t, append(run, "--shard", "1/2", "--out", filepath.Join(t.TempDir(), "half")), "shard 1/2 (replicates 0 to 49999) needs an estimated")
	if w, h := estimateIn(t, whole), estimateIn(t, half); !(h < w) {
		t.Errorf("the shard's estimate %q is not below the whole run's %q", half, whole)
	}
}

// estimateIn returns the bytes of "needs an estimated X of memory" in a
// refusal, from the units formatBytes writes.
func estimateIn(t *testing.T, line string) float64 {
	t.Helper()
	_, rest, ok := strings.Cut(line, "needs an estimated ")
	var x float64
	var unit string
	if _, err := fmt.Sscanf(rest, "%g %s", &x, &unit); !ok || err != nil {
		t.Fatalf("no estimate in %q (%v)", line, err)
	}
	mult := map[string]float64{"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}[unit]
	if mult == 0 {
		t.Fatalf("unit %q in %q", unit, line)
	}
	return x * mult
}

// TestSweepResumeRefusals checks issue 26's cause 8: sweep --resume in a
// directory whose cells.csv or summary.csv was deleted or truncated is
// refused with exit 2 and one line (it exited 1, after a "resuming" line),
// and writes nothing.
func TestSweepResumeRefusals(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sweep")
	args := []string{"sweep", "--quiet", "--dims", "1,2", "--chains", "4", "--knots", "1", "--replicates", "2", "--iterations", "100", "--scans", "1", "--out", dir}
	if _, errs, code := runCLI(args...); code != 0 {
		t.Fatalf("the sweep: exit %d: %s", code, errs)
	}
	good := snapshot(t, dir)
	for _, c := range []struct {
		name, file, content, want string
	}{
		{"summary.csv deleted", "summary.csv", "", "summary.csv is missing"},
		{"cells.csv deleted", "cells.csv", "", "cells.csv is missing"},
		{"cells.csv truncated", "cells.csv", good["cells.csv"][:len(good["cells.csv"])-10], "fewer than the"},
		{"summary.csv truncated", "summary.csv", good["summary.csv"][:len(good["summary.csv"])-1], "fewer than the"},
	} {
		path := filepath.Join(dir, c.file)
		var err error
		if c.content == "" {
			err = os.Remove(path)
		} else {
			err = os.WriteFile(path, []byte(c.content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		changed := snapshot(t, dir)
		refused(t, append(args, "--resume"), "--resume", c.want)
		sameSnapshot(t, c.name, dir, changed)
		if err := os.WriteFile(path, []byte(good[c.file]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMergeOfEditedManifestRefused checks issue 26's cause 8: merging
// shards whose first manifest's args were edited (so that they no longer
// rebuild the run the shards computed) is refused with one line and exit
// 2; an args list without --replicates made merge panic (index out of
// range), and one that did not parse exited 1.
func TestMergeOfEditedManifestRefused(t *testing.T) {
	dir := t.TempDir()
	var shards []string
	for i := 1; i <= 2; i++ {
		s := filepath.Join(dir, fmt.Sprintf("s%d", i))
		if _, errs, code := runCLI(append(small, "--shard", fmt.Sprintf("%d/2", i), "--out", s)...); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, errs)
		}
		shards = append(shards, s)
	}
	path := filepath.Join(shards[0], rundir.ManifestName)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for k, args := range [][]string{{"--seed=5"}, {"--chains=zz"}, {"--chains=3"}} {
		editManifest(t, shards[0], func(m *rundir.Manifest) { m.Args = args })
		refused(t, []string{"merge", "--out", filepath.Join(dir, fmt.Sprintf("merged%d", k)), shards[0], shards[1]}, "manifest.json", "edited")
		if err := os.WriteFile(path, good, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestShardRefusalIsOneLine checks issue 26's cause 8: a shard refused
// because another process holds its --out prints the refusal alone, not
// the note of the shard it would have computed before it.
func TestShardRefusalIsOneLine(t *testing.T) {
	out := t.TempDir()
	held, err := holdOut(newCmdFlags("test"), "out", out, io.Discard) // as another ptbatch writing there
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	refused(t, append(small, "--shard", "1/2", "--out", out), "--out", "writing to this directory")
	refused(t, []string{"reproduce", "gaussian", "--scale", "0.001", "--replicates", "2", "--quiet", "--shard", "1/2", "--out", out}, "--out", "writing to this directory")
}

// cancelOnLine is a stderr that cancels a context when a line containing
// marker is written, as a signal arriving right after that line would.
type cancelOnLine struct {
	strings.Builder
	marker string
	cancel func()
}

func (w *cancelOnLine) Write(p []byte) (int, error) {
	if strings.Contains(string(p), w.marker) {
		w.cancel()
	}
	return w.Builder.Write(p)
}

// TestInterruptAfterCheckpointSaysResume checks that a run stopped just
// after a checkpoint of its cadence (the state it stops in, so none is
// written again) still says how to resume: it did not, and
// TestCheckpointSurvivesKills, which signals right after that line,
// failed half the time.
func TestInterruptAfterCheckpointSaysResume(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "run.ckpt")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &cancelOnLine{marker: "written after 1 of", cancel: cancel}
	args := []string{"run", "--chains", "5", "--replicates", "3", "--iterations", "400", "--scans", "4", "--tuning", "paper",
		"--checkpoint", ck, "--checkpoint-every", "1", "--out", filepath.Join(dir, "out")}
	err := run(ctx, args, io.Discard, stderr)
	var ie *interruptedError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v, want interrupted; stderr %q", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "after 1 of 4 scans; continue with --resume "+ck) {
		t.Errorf("stderr %q does not say how to resume from the checkpoint of scan 1", stderr.String())
	}
}

// TestEveryRunSaysWhatItStarted checks issue 26's cause 7: a run of
// 9999999999999 iterations (whose first scan never ends) prints its size
// and estimated memory before it computes; it used to be silent. The test
// stops the run on that line (cancelOnLine); the timer only ends a run
// that never prints it, failing the test.
func TestEveryRunSaysWhatItStarted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	guard := time.AfterFunc(time.Minute, cancel)
	stderr := &cancelOnLine{marker: "run: ", cancel: cancel}
	err := run(ctx, []string{"run", "--iterations", "9999999999999", "--replicates", "2", "--chains", "5"}, io.Discard, stderr)
	byLine := guard.Stop()
	var ie *interruptedError
	if !errors.As(err, &ie) || !byLine {
		t.Errorf("error %v (stopped by the line: %v), want interrupted by the line", err, byLine)
	}
	// 9999999999999 as given; the estimate and the limit in formatBytes's units.
	for _, want := range []string{"run: 5 chains × 2 replicates, 9999999999999 iterations in ", "an estimated ", "iB of memory (limit "} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr %q lacks %q", stderr.String(), want)
		}
	}
}

// TestProgressFromTheFirstSecond checks that progress lines start after
// one second of a run (they started after two), at most once a second.
func TestProgressFromTheFirstSecond(t *testing.T) {
	var w strings.Builder
	p := runloop.ProgressPrinter(&w, "run")
	// Elapsed times chosen around the thresholds: before 1 s nothing; at
	// 1.2 s a line; 0.5 s later none; at 2.3 s the next.
	for _, e := range []time.Duration{500 * time.Millisecond, 1200 * time.Millisecond, 1700 * time.Millisecond, 2300 * time.Millisecond} {
		p(batch.Progress{Scan: int(e / (100 * time.Millisecond)), Scans: 100, Elapsed: e})
	}
	lines := strings.Split(strings.TrimSpace(w.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "run: scan 12/100") || !strings.HasPrefix(lines[1], "run: scan 23/100") {
		t.Errorf("progress %q, want the lines of scans 12 and 23", w.String())
	}
}
