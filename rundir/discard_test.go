package rundir

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDiscard: Discard removes the files written since Open and the
// directories they leave empty, and the lock, and keeps what was there
// before; with removeDir, a directory left empty goes too.
func TestDiscard(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.csv", "sub/b.csv"} {
		if err := WriteBytes(d.File(name), []byte("x\n")); err != nil {
			t.Fatal(err)
		}
	}
	d.Discard(true)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "keep.txt" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("after Discard the directory holds %v, want [keep.txt]", names)
	}

	empty := filepath.Join(t.TempDir(), "made")
	d, err = Open(empty, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(d.File("a.csv"), []byte("x\n")); err != nil {
		t.Fatal(err)
	}
	d.Discard(true)
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Errorf("the directory Open made and Discard emptied remains: %v", err)
	}
}
