package studydir

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/registry"
	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/study"
)

// testPlan is a small plan (as package study's tests): the Gaussian with
// d = 1 and σ = 0.1, the linear path with the paper's tuning against the
// default tuner, two seeds, 5 replicates (cut into pieces by 3 shards),
// 400 iterations: 4 runs, 20 units.
func testPlan() *study.Plan {
	specs := []study.ModelSpec{{Name: registry.Gaussian, Values: registry.Values{"sigma0": 0.1, "sigma1": 0.1}}}
	methods := []study.Method{
		{Label: "NRPT+Linear", Tuning: "paper", Chains: 10, Scans: 10},
		{Label: "auto", Chains: 10},
	}
	p := study.NewPlan("test", specs, methods, []uint64{1, 2}, 400, 5)
	return &p
}

// wholeFiles are the files a whole study writes without figures.
var wholeFiles = []string{"cells.csv", "summary.csv", "summary.json", "results.md", "plan.json", "shard.json"}

// sameFiles fails the test when a file of wholeFiles differs between the
// directories a and b, or is missing from either.
func sameFiles(t *testing.T, a, b string) {
	t.Helper()
	read := func(dir, name string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Error(err)
		}
		return data
	}
	for _, f := range wholeFiles {
		if !bytes.Equal(read(a, f), read(b, f)) {
			t.Errorf("%s differs between %s and %s", f, a, b)
		}
	}
}

// runShards runs p as shards 1..n under root/shard-i and returns their
// directories.
func runShards(t *testing.T, p *study.Plan, root string, n int) []string {
	t.Helper()
	var dirs []string
	for i := 1; i <= n; i++ {
		d := filepath.Join(root, fmt.Sprintf("shard-%d", i))
		if err := Run(context.Background(), d, p, Shard{i, n}, Options{}, study.Options{}); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	return dirs
}

// TestShardsMergeToOneProcess runs the plan in one process and as 3
// shards, merges the shards (given out of order), and checks that every
// file is the one process's bytes, that the merged manifest is complete
// with the plan's fingerprint and every unit (4 runs × 5 replicates), and
// that no lock file is left.
func TestShardsMergeToOneProcess(t *testing.T) {
	root, p := t.TempDir(), testPlan()
	one := filepath.Join(root, "one")
	if err := Run(context.Background(), one, p, Whole, Options{}, study.Options{}); err != nil {
		t.Fatal(err)
	}
	dirs := runShards(t, p, root, 3)
	merged := filepath.Join(root, "merged")
	r, err := Merge(merged, []string{dirs[2], dirs[0], dirs[1]}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sameFiles(t, one, merged)
	m, err := rundir.ReadManifest(merged)
	if err != nil {
		t.Fatal(err)
	}
	fp, _ := p.Fingerprint()
	if !m.Complete || m.Done != 20 || m.Units != 20 || m.Fingerprint != fp || r.Cells != 20 || r.Shards != 3 {
		t.Errorf("merged manifest: complete %v, done %d of %d, fingerprint %.12s (plan %.12s), %d cells of %d shards; want complete, 20 of 20, the plan's, 20 of 3",
			m.Complete, m.Done, m.Units, m.Fingerprint, fp, r.Cells, r.Shards)
	}
	for _, d := range append(dirs, one, merged) {
		if _, err := os.Lstat(filepath.Join(d, rundir.LockName)); err == nil {
			t.Errorf("%s: a lock file was left", d)
		}
	}
}

// editManifest rewrites the manifest of dir through edit, holding the
// directory as a writer would (rundir.Open, Dir.WriteManifest).
func editManifest(t *testing.T, dir string, edit func(*rundir.Manifest)) {
	t.Helper()
	d, err := rundir.Open(dir, rundir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	m, err := rundir.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	edit(m)
	if err := d.WriteManifest(m); err != nil {
		t.Fatal(err)
	}
}

// TestMergeIgnoresRecordedArguments edits the argument list and settings
// every shard's manifest records (as a user could, to another study's) and
// checks that merge still writes the bytes of the unedited merge: the
// merge reads the plan and cells as data, never the arguments. An edit of
// the fingerprint, which describes the plan, is refused.
func TestMergeIgnoresRecordedArguments(t *testing.T) {
	root, p := t.TempDir(), testPlan()
	dirs := runShards(t, p, root, 2)
	want := filepath.Join(root, "want")
	if _, err := Merge(want, dirs, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		editManifest(t, d, func(m *rundir.Manifest) {
			m.Args = []string{"--iterations=5", "--replicates=1"}
			m.Settings = map[string]string{"study": "another", "iterations": "5"}
		})
	}
	got := filepath.Join(root, "got")
	if _, err := Merge(got, dirs, Options{}); err != nil {
		t.Fatalf("merge with edited arguments: %v", err)
	}
	sameFiles(t, want, got)
	editManifest(t, dirs[1], func(m *rundir.Manifest) { m.Fingerprint = strings.Repeat("0", 64) })
	_, err := Merge(filepath.Join(root, "refused"), dirs, Options{})
	var me *rundir.ShardError
	if !errors.As(err, &me) || !strings.Contains(me.Msg, "does not describe its plan.json") {
		t.Errorf("merge with an edited fingerprint: %v; want a *rundir.ShardError that the manifest does not describe the plan", err)
	}
}

// TestMergeRefuses checks the refusals that need no editing of a
// manifest: a shard given twice (and so one missing), a shard whose
// cells.csv has one byte changed (same length: only the SHA-256 tells),
// shards of two plans, and the destination being a shard. Each is a
// *rundir.ShardError, and the destination is not created.
func TestMergeRefuses(t *testing.T) {
	root, p := t.TempDir(), testPlan()
	dirs := runShards(t, p, root, 2)
	q := testPlan()
	q.Runs[3].Seed++ // another plan: run 3 with another seed
	other := runShards(t, q, filepath.Join(root, "other"), 2)
	damaged := filepath.Join(root, "damaged")
	if err := os.CopyFS(damaged, os.DirFS(dirs[1])); err != nil {
		t.Fatal(err)
	}
	cells := filepath.Join(damaged, "cells.csv")
	b, _ := os.ReadFile(cells)
	b[len(b)-2] ^= 1 // a digit of the last row's last field
	os.WriteFile(cells, b, 0o644)
	for _, c := range []struct {
		name string
		dirs []string
		want string
	}{
		{"twice", []string{dirs[0], dirs[0]}, "is also"},
		{"damaged", []string{dirs[0], damaged}, "is damaged"},
		{"two plans", []string{dirs[0], other[1]}, "different studies"},
		{"dst is a shard", []string{dirs[0], dirs[1]}, "also one of the shards"},
	} {
		dst := filepath.Join(root, "merged-"+strings.ReplaceAll(c.name, " ", "-"))
		if c.name == "dst is a shard" {
			dst = dirs[1]
		}
		_, err := Merge(dst, c.dirs, Options{})
		var me *rundir.ShardError
		if !errors.As(err, &me) || !strings.Contains(me.Msg, c.want) {
			t.Errorf("%s: %v; want a *rundir.ShardError with %q", c.name, err, c.want)
		}
		if _, err := os.Lstat(dst); err == nil && c.name != "dst is a shard" {
			t.Errorf("%s: a refused merge created %s", c.name, dst)
		}
	}
}

// interruptAfterFirstPiece runs p whole into out with a checkpoint every
// scan and ends the context when the first piece's last scan is done,
// and checks that Run reports study.ErrInterrupted; it returns out.
func interruptAfterFirstPiece(t *testing.T, out string, p *study.Plan) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	so := study.Options{CheckpointEvery: 1, Progress: func(pr study.Progress) {
		if pr.Scan == pr.Scans {
			cancel()
		}
	}}
	if err := Run(ctx, out, p, Whole, Options{}, so); !errors.Is(err, study.ErrInterrupted) {
		t.Fatalf("interrupted study: %v, want study.ErrInterrupted", err)
	}
	return out
}

// TestInterruptAndResume ends the context when the first piece of a
// shard 1/1 is done (its last scan's progress), checks that Run reports
// study.ErrInterrupted with the manifest marked interrupted and no
// cells.csv, resumes, and checks the files are those of an uninterrupted
// study; a resume of the complete study leaves it as it is, with a note;
// a resume as another shard is a *ResumeError.
func TestInterruptAndResume(t *testing.T) {
	root, p := t.TempDir(), testPlan()
	one := filepath.Join(root, "one")
	if err := Run(context.Background(), one, p, Whole, Options{}, study.Options{}); err != nil {
		t.Fatal(err)
	}
	out := interruptAfterFirstPiece(t, filepath.Join(root, "resumed"), p)
	if m, err := rundir.ReadManifest(out); err != nil || !m.Interrupted || m.Complete {
		t.Fatalf("interrupted manifest: %+v, %v; want interrupted, not complete", m, err)
	}
	if _, err := os.Stat(filepath.Join(out, "cells.csv")); err == nil {
		t.Fatal("an interrupted study wrote cells.csv")
	}
	if err := Run(context.Background(), out, p, Whole, Options{Resume: true}, study.Options{}); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, one, out)
	var notes bytes.Buffer
	if err := Run(context.Background(), out, p, Whole, Options{Resume: true, Notes: &notes}, study.Options{}); err != nil || !strings.Contains(notes.String(), "complete") {
		t.Errorf("resume of a complete study: %v, notes %q; want nil and a note that it is complete", err, notes.String())
	}
	var re *ResumeError
	if err := Run(context.Background(), out, p, Shard{1, 2}, Options{Resume: true}, study.Options{}); !errors.As(err, &re) {
		t.Errorf("resume as shard 1/2 of a whole study: %v, want a *ResumeError", err)
	}
}
