package rundir

import (
	"errors"
	"os"
	"testing"
)

// TestJobRecordsProgress checks that a Job's manifest, as ReadManifest
// reads it back, says how far the work got: Done after Progress, the
// seconds of earlier processes counted in, and Complete only when the
// whole share [First, End) is done without an interruption.
func TestJobRecordsProgress(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	const prior = 7.5 // seconds of an earlier process, arbitrary
	m := &Manifest{Format: ManifestFormat, Command: "test", Units: 10, First: 2, End: 6, Done: 2}
	j := NewJob(d, m, prior)
	read := func() *Manifest {
		t.Helper()
		got, err := ReadManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if err := j.Progress(4); err != nil {
		t.Fatal(err)
	}
	if got := read(); got.Done != 4 || got.Complete || got.ElapsedSeconds < prior {
		t.Errorf("after Progress(4): done %d, complete %v, elapsed %g; want 4, false, ≥ %g", got.Done, got.Complete, got.ElapsedSeconds, float64(prior))
	}
	for _, c := range []struct {
		done        int
		interrupted bool
		complete    bool
	}{{5, false, false}, {6, true, false}, {6, false, true}} {
		if err := j.Finish(c.done, c.interrupted); err != nil {
			t.Fatal(err)
		}
		if got := read(); got.Done != c.done || got.Interrupted != c.interrupted || got.Complete != c.complete {
			t.Errorf("Finish(%d, %v): done %d, interrupted %v, complete %v; want complete %v", c.done, c.interrupted, got.Done, got.Interrupted, got.Complete, c.complete)
		}
	}
}

// TestStartJob checks that a fresh job removes the files the previous
// manifest records and the stale names given, that a resumed one keeps
// them, and that a symbolic link in the directory is refused with a
// *LinkError naming it.
func TestStartJob(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, name := range []string{"old.csv", "index.csv"} {
		if err := WriteBytes(d.File(name), []byte("x\n")); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.WriteManifest(&Manifest{Format: ManifestFormat, Command: "test"}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(d.File("unrecorded.csv"), []byte("y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &Manifest{Format: ManifestFormat, Command: "test", Units: 1, End: 1}
	if _, err := StartJob(d, m, 0, false, "unrecorded.csv"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(d.File("old.csv")); err != nil {
		t.Errorf("a resumed job removed old.csv: %v", err)
	}
	if _, err := StartJob(d, m, 0, true, "unrecorded.csv"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"old.csv", "index.csv", "unrecorded.csv"} {
		if _, err := os.Stat(d.File(name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a fresh job left %s: %v", name, err)
		}
	}
	if err := os.Symlink(dir, d.File("link")); err != nil {
		t.Fatal(err)
	}
	var le *LinkError
	if _, err := StartJob(d, m, 0, true); !errors.As(err, &le) || le.Link != "link" {
		t.Errorf("a link in the directory: %v, want a *LinkError naming it", err)
	}
}
