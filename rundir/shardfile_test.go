package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShardReadFile checks Shard.ReadFile: the bytes of a file its
// manifest records as written, and a *ShardError naming the shard for a
// file it does not record and for one changed after it was written.
func TestShardReadFile(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []byte("a,b\n1,2\n") // any bytes
	if err := WriteBytes(d.File("cells.csv"), want); err != nil {
		t.Fatal(err)
	}
	m := &Manifest{Format: ManifestFormat}
	if err := d.WriteManifest(m); err != nil {
		t.Fatal(err)
	}
	d.Close()
	s := Shard{Dir: dir, Manifest: m}
	if got, err := s.ReadFile("cells.csv"); err != nil || string(got) != string(want) {
		t.Fatalf("ReadFile = %q, %v; want %q", got, err, want)
	}
	var se *ShardError
	if _, err := s.ReadFile("other.csv"); !errors.As(err, &se) || !strings.Contains(err.Error(), "records no other.csv") {
		t.Errorf("an unrecorded file: %v, want a ShardError naming it", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cells.csv"), []byte("a,b\n1,3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadFile("cells.csv"); !errors.As(err, &se) || !strings.Contains(err.Error(), "is damaged") || !strings.Contains(err.Error(), dir) {
		t.Errorf("a changed file: %v, want a ShardError naming the shard as damaged", err)
	}
}
