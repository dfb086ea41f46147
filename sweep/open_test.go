package sweep

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/study"
)

// opening returns the Opening of a test: resume as given, notes to w
// under the program "test", and a Start that locks dir with rundir and
// starts the job of m (rundir.StartJob), recording its arguments.
func opening(t *testing.T, dir string, m *rundir.Manifest, resume bool, w *bytes.Buffer, called *[]bool) Opening {
	return Opening{Resume: resume, Notes: w, Program: "test", Start: func(prior float64, fresh bool) (*rundir.Job, error) {
		*called = append(*called, fresh)
		d, err := rundir.Open(dir, rundir.Options{})
		if err != nil {
			return nil, err
		}
		return rundir.StartJob(d, m, prior, fresh)
	}}
}

// TestOpenResumes opens a sweep with --resume semantics three times: in
// an empty directory (a note, a fresh start), after 5 of the small
// sweep's 24 units (a note naming them, a start that keeps the files,
// which then run to the end), and after cells.csv was cut short (Prepare's
// *ResumeError, with Start never called).
func TestOpenResumes(t *testing.T) {
	dir, s := t.TempDir(), small()
	var notes bytes.Buffer
	var fresh []bool
	m := manifestOf(t, s, 1, 1)
	j, out, err := Open(dir, s, m, opening(t, dir, m, true, &notes, &fresh))
	if err != nil {
		t.Fatal(err)
	}
	cells := s.Cells()
	run := func(lo, hi int) { // the units [lo, hi) of the sweep, then its end
		t.Helper()
		if _, err := s.Execute(context.Background(), cells, lo, hi, out, study.Options{}, nil); err != nil {
			t.Fatal(err)
		}
		if err := out.Finish(len(cells), hi < m.End, 0, dir); err != nil {
			t.Fatal(err)
		}
		out.Close()
		j.Close()
	}
	run(0, 5)
	m = manifestOf(t, s, 1, 1)
	if j, out, err = Open(dir, s, m, opening(t, dir, m, true, &notes, &fresh)); err != nil {
		t.Fatal(err)
	}
	if m.Done != 5 {
		t.Fatalf("resumed at unit %d, want 5 (the first run's end)", m.Done)
	}
	run(m.Done, m.End)
	want := "test: no sweep in " + dir + " to resume: starting it\n" +
		"test: resuming the sweep in " + dir + " after 5 of its 24 cell × replicate units\n"
	if notes.String() != want || len(fresh) != 2 || !fresh[0] || fresh[1] {
		t.Errorf("notes %q, starts fresh %v; want %q and [true false]", notes.String(), fresh, want)
	}
	if err := os.Truncate(filepath.Join(dir, "cells.csv"), 10); err != nil {
		t.Fatal(err)
	}
	m = manifestOf(t, s, 1, 1)
	var re *ResumeError
	if _, _, err := Open(dir, s, m, opening(t, dir, m, true, &notes, &fresh)); !errors.As(err, &re) || len(fresh) != 2 {
		t.Errorf("Open of a cut cells.csv: %v after %d starts; want a *ResumeError and no start", err, len(fresh))
	}
}

// TestFinishNil checks that a sweep without a directory (a nil Out)
// finishes without writing or failing.
func TestFinishNil(t *testing.T) {
	var o *Out
	if err := o.Finish(8, false, 0, ""); err != nil {
		t.Errorf("nil Out's Finish: %v, want nil", err)
	}
}
