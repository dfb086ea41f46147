package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/study"
)

// manifestOf returns the manifest of shard i of n of the sweep s, as the
// command makes it: its settings as the configuration, nothing done.
func manifestOf(t *testing.T, s *Spec, i, n int) *rundir.Manifest {
	t.Helper()
	units := len(s.Cells()) * s.Replicates
	m := &rundir.Manifest{Format: rundir.ManifestFormat, Command: "sweep", Version: "test", Shard: i, Shards: n,
		Unit: "cell × replicate", Units: units, Settings: s.Settings()}
	m.First, m.End = rundir.Share(i, n, units)
	m.Done = m.First
	if err := m.SetConfig(s.Settings()); err != nil {
		t.Fatal(err)
	}
	return m
}

// runOut runs the units [m.Done, hi) of the sweep s into dir through Out
// (Spec.Execute), as ptbatch sweep does, with r from Prepare (or the zero Resume), and
// finishes it, interrupted when hi stops short of m.End.
func runOut(t *testing.T, s *Spec, dir string, m *rundir.Manifest, r Resume, hi int) {
	t.Helper()
	d, err := rundir.Open(dir, rundir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	job := rundir.NewJob(d, m, r.Prior())
	if err := job.WriteManifest(); err != nil {
		t.Fatal(err)
	}
	out, err := OpenOut(job, s, r)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cells := s.Cells()
	if _, err := s.Execute(context.Background(), cells, m.Done, hi, out, study.Options{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := out.Finish(len(cells), hi < m.End, 0, dir); err != nil {
		t.Fatal(err)
	}
}

// read returns the file name of dir.
func read(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestOutShardsMergeToOneProcess runs the small sweep (8 cells × 3
// replicates) into a directory in one process and as 3 shards, merges
// the shards with Merge, and checks that cells.csv and summary.csv are
// the one process's bytes, that summary.json counts all 8 cells complete,
// and that the one process's manifest is complete with all 24 units.
func TestOutShardsMergeToOneProcess(t *testing.T) {
	root, s := t.TempDir(), small()
	one := filepath.Join(root, "one")
	m := manifestOf(t, s, 1, 1)
	runOut(t, s, one, m, Resume{}, m.End)
	if got, err := rundir.ReadManifest(one); err != nil || !got.Complete || got.Done != 24 {
		t.Fatalf("manifest %+v (%v), want complete with 24 units done", got, err)
	}
	var shards []rundir.Shard
	for i := 1; i <= 3; i++ {
		dir := filepath.Join(root, string(rune('0'+i)))
		sm := manifestOf(t, s, i, 3)
		runOut(t, s, dir, sm, Resume{}, sm.End)
		got, err := rundir.ReadManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		shards = append(shards, rundir.Shard{Dir: dir, Manifest: got})
	}
	dst := filepath.Join(root, "merged")
	if err := os.Mkdir(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Merge(dst, shards, m); err != nil {
		t.Fatal(err)
	}
	for _, name := range Files {
		if !bytes.Equal(read(t, dst, name), read(t, one, name)) {
			t.Errorf("merged %s differs from one process's", name)
		}
	}
	var js struct {
		Cells     int `json:"cells"`
		Completed int `json:"cells_completed"`
	}
	if err := json.Unmarshal(read(t, dst, "summary.json"), &js); err != nil || js.Cells != 8 || js.Completed != 8 {
		t.Errorf("merged summary.json: %+v (%v), want 8 cells, 8 completed", js, err)
	}
	bad := *m
	bad.Config = []byte(`{"dims":"x"}`)
	var me *MergeError
	if err := Merge(dst, shards, &bad); !errors.As(err, &me) {
		t.Errorf("Merge of a configuration that is no sweep's: %v, want a *MergeError", err)
	}
}

// TestPrepareResumes interrupts the small sweep after 9 of its 24 units
// (3 whole cells: an interrupted sweep keeps its finished pieces, which
// are whole cells in one process), and checks that Prepare finds it and
// takes its state (9 units done),
// and that the resumed sweep's files are those of one uninterrupted run.
func TestPrepareResumes(t *testing.T) {
	root, s := t.TempDir(), small()
	one, dir := filepath.Join(root, "one"), filepath.Join(root, "resumed")
	m := manifestOf(t, s, 1, 1)
	runOut(t, s, one, m, Resume{}, m.End)
	m = manifestOf(t, s, 1, 1)
	runOut(t, s, dir, m, Resume{}, 9)
	m = manifestOf(t, s, 1, 1)
	r, err := Prepare(dir, m)
	if err != nil || !r.Found || r.Fresh() || m.Done != 9 {
		t.Fatalf("Prepare: %+v, %v, done %d; want found, not fresh, 9 units done", r, err, m.Done)
	}
	runOut(t, s, dir, m, r, m.End)
	for _, name := range Files {
		if !bytes.Equal(read(t, dir, name), read(t, one, name)) {
			t.Errorf("resumed %s differs from one process's", name)
		}
	}
	if r, err := Prepare(filepath.Join(root, "none"), manifestOf(t, s, 1, 1)); err != nil || r.Found || !r.Fresh() {
		t.Errorf("Prepare of an empty directory: %+v, %v; want not found, fresh", r, err)
	}
}

// TestPrepareRefuses checks each refusal of Prepare on a directory an
// interrupted sweep left: cells.csv cut short, missing, a link, a
// directory; a manifest of another sweep; an unreadable manifest.
func TestPrepareRefuses(t *testing.T) {
	s := small()
	const cells = "cells.csv"
	for _, c := range []struct {
		name   string
		why    Why
		damage func(dir string) error
	}{
		{"short", Short, func(dir string) error { return os.Truncate(filepath.Join(dir, cells), 10) }},
		{"missing", Missing, func(dir string) error { return os.Remove(filepath.Join(dir, cells)) }},
		{"link", Link, func(dir string) error {
			p := filepath.Join(dir, cells)
			return errors.Join(os.Rename(p, p+".old"), os.Symlink(p+".old", p))
		}},
		{"directory", NotRegular, func(dir string) error {
			p := filepath.Join(dir, cells)
			return errors.Join(os.Remove(p), os.Mkdir(p, 0o755))
		}},
		{"unreadable manifest", Unreadable, func(dir string) error {
			return os.WriteFile(filepath.Join(dir, rundir.ManifestName), []byte("{"), 0o644)
		}},
	} {
		dir := t.TempDir()
		m := manifestOf(t, s, 1, 1)
		runOut(t, s, dir, m, Resume{}, 8)
		if err := c.damage(dir); err != nil {
			t.Fatal(err)
		}
		var re *ResumeError
		if _, err := Prepare(dir, manifestOf(t, s, 1, 1)); !errors.As(err, &re) || re.Why != c.why {
			t.Errorf("%s: %v, want a *ResumeError with Why %d", c.name, err, c.why)
		}
	}
	dir := t.TempDir()
	runOut(t, s, dir, manifestOf(t, s, 1, 1), Resume{}, 8)
	other := small()
	other.Seeds, other.Given.Seeds = []uint64{1, 3}, "1,3"
	var re *ResumeError
	if _, err := Prepare(dir, manifestOf(t, other, 1, 1)); !errors.As(err, &re) || re.Why != OtherJob || !errors.Is(err, rundir.ErrNotResumable) {
		t.Errorf("another sweep's directory: %v, want a *ResumeError OtherJob matching rundir.ErrNotResumable", err)
	}
}

// TestOpenOutRefusesChangedFile changes one byte of the cells.csv an
// interrupted sweep left (its length kept, so Prepare accepts it), and
// checks that OpenOut refuses it by its checksum, matching
// ErrResumeChanged and rundir.ErrChecksum.
func TestOpenOutRefusesChangedFile(t *testing.T) {
	dir, s := t.TempDir(), small()
	runOut(t, s, dir, manifestOf(t, s, 1, 1), Resume{}, 9)
	b := read(t, dir, "cells.csv")
	b[len(b)-2] ^= 1 // the last digit of the last row
	if err := os.WriteFile(filepath.Join(dir, "cells.csv"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	m := manifestOf(t, s, 1, 1)
	r, err := Prepare(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	d, err := rundir.Open(dir, rundir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := OpenOut(rundir.NewJob(d, m, r.Prior()), s, r); !errors.Is(err, ErrResumeChanged) || !errors.Is(err, rundir.ErrChecksum) {
		t.Errorf("OpenOut of a changed cells.csv: %v, want ErrResumeChanged and rundir.ErrChecksum", err)
	}
}

// TestExecuteInterrupted ends the context in the callback of the first
// finished piece (cell 0 of the small sweep, whole in one process) and
// checks that Execute reports the interruption in cell 1, the next,
// having passed done exactly one piece with the summary Out.Piece gives.
func TestExecuteInterrupted(t *testing.T) {
	s := small()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got []Cell
	cell, err := s.Execute(ctx, s.Cells(), 0, 24, nil, study.Options{}, func(c Cell, res *batch.Result, m Summary) error {
		got = append(got, c)
		if want, _ := (*Out)(nil).Piece(s, c, study.Piece{Replicates: res.Config.Replicates}, res); m != want {
			t.Errorf("summary %+v, want %+v", m, want)
		}
		cancel()
		return nil
	})
	if !errors.Is(err, study.ErrInterrupted) || cell != 1 || len(got) != 1 || got[0] != s.Cells()[0] {
		t.Errorf("Execute: cell %d, %v, pieces %v; want cell 1, study.ErrInterrupted, one piece of cell 0", cell, err, got)
	}
}
