package runloop

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/rundir"
)

// TestCheckpointsFileLifeCycle runs testConfig with checkpoints every 4
// scans into a file and stops it after scan 6 (from Progress, so
// deterministic): the file then holds the interrupted run's state, and
// only the cadence's checkpoint is noted. Resumed from the file, with the
// output directory's streamed file rows.csv set aside, the run takes back
// the 2 rows asked (the set-aside copy removed after), notes the resume
// at 6 of 10 scans, and measures what the run never stopped does. A
// take-back that fails ends the run with its error and puts rows.csv
// back in place.
func TestCheckpointsFileLifeCycle(t *testing.T) {
	cfg := testConfig(t)
	want, err := Run(context.Background(), cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir, path := t.TempDir(), filepath.Join(t.TempDir(), "run.ckpt")
	const rows = "header\nrow 1\nrow 2\nrow 3\n" // a streamed file with a header line
	if err := os.WriteFile(filepath.Join(dir, "rows.csv"), []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var notes bytes.Buffer
	k := &Checkpoints{Path: path, Every: Cadence{Scans: 4}, Notes: &notes, Program: "test"}
	o := k.Options(Options{Progress: func(p batch.Progress) {
		if p.Scan == 6 {
			cancel()
		}
	}}, func(*rundir.Aside) error { t.Error("take-back of a new run"); return nil })
	res, err := Run(ctx, cfg, o)
	if err != nil || !res.Interrupted || res.Scans != 6 {
		t.Fatalf("interrupted run: %v, %v; want interrupted after 6 scans", res, err)
	}
	if got, want := notes.String(), "test: checkpoint "+path+" written after 4 of 10 scans\n"; got != want {
		t.Errorf("notes %q, want %q", got, want)
	}
	data, err := ReadCheckpoint(path, 1<<30)
	if err != nil {
		t.Fatal(err)
	}

	notes.Reset()
	k = &Checkpoints{Resume: data, ResumePath: path, Notes: &notes, Program: "test"}
	if err := k.SetAside(dir, "rows.csv"); err != nil {
		t.Fatal(err)
	}
	var took bytes.Buffer
	got, err := Run(context.Background(), cfg, k.Options(Options{}, func(a *rundir.Aside) error {
		return a.CopyRows("rows.csv", 2, func(line []byte) error { took.Write(line); return nil })
	}))
	if err != nil {
		t.Fatal(err)
	}
	sameRun(t, "resumed from the file", want, got)
	if took.String() != "row 1\nrow 2\n" {
		t.Errorf("rows taken back %q, want the first 2", took.String())
	}
	if _, err := os.Stat(filepath.Join(dir, rundir.AsideName("rows.csv"))); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the copy set aside is left: %v", err)
	}
	if want := "test: resuming " + path + " after 6 of 10 scans\n"; notes.String() != want {
		t.Errorf("notes %q, want %q", notes.String(), want)
	}

	if err := os.WriteFile(filepath.Join(dir, "rows.csv"), []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	k = &Checkpoints{Resume: data}
	if err := k.SetAside(dir, "rows.csv"); err != nil {
		t.Fatal(err)
	}
	refused := errors.New("not the run's file")
	if _, err := Run(context.Background(), cfg, k.Options(Options{}, func(*rundir.Aside) error { return refused })); err != refused {
		t.Errorf("failed take-back: %v, want its error", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "rows.csv")); err != nil || string(b) != rows {
		t.Errorf("after a failed take-back rows.csv is %q (%v), want it put back", b, err)
	}
}
