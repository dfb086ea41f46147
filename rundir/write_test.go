package rundir

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// sumOf is the FileSum of the file at path, computed independently of
// the package (crypto/sha256 over the whole file).
func sumOf(t *testing.T, path string) FileSum {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(b)
	return FileSum{Size: int64(len(b)), SHA256: hex.EncodeToString(h[:])}
}

// TestWritersRecordSums writes through every writer into a held
// directory (a whole file, a streamed file, an appended one and a file
// in a subdirectory) and checks that the manifest records each file's
// true length and SHA-256, that VerifyFiles accepts them, and that a
// write outside any held directory records nothing.
func TestWritersRecordSums(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := WriteBytes(d.File("a.csv"), []byte("x,y\n1,2\n")); err != nil {
		t.Fatal(err)
	}
	f, err := Create(d.File("samples.csv"))
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "replicate,iteration\n")
	io.WriteString(f, "0,1\n")
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	a, err := OpenAppender(d.File("cells.csv"), []byte("h\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	a.Add([]byte("r1\n"))
	a.Add([]byte("r2\n"))
	a.Close()
	os.Mkdir(d.File("runs"), 0o755)
	if err := WriteRecord(d.File("runs/000.gob"), []float64{1, 2}); err != nil {
		t.Fatal(err)
	}
	if err := WriteBytes(filepath.Join(t.TempDir(), "elsewhere"), []byte("z")); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteManifest(&Manifest{Format: ManifestFormat}); err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"a.csv", "cells.csv", "runs/000.gob", "samples.csv"}
	if len(m.Files) != len(names) {
		t.Errorf("manifest records %v, want exactly %v", m.Files, names)
	}
	for _, name := range names {
		if got, want := m.Files[name], sumOf(t, filepath.Join(dir, name)); got != want {
			t.Errorf("%s: recorded %+v, the file is %+v", name, got, want)
		}
	}
	if err := VerifyFiles(dir, m); err != nil {
		t.Errorf("VerifyFiles of untouched files: %v", err)
	}
	var back []float64
	if err := ReadRecord(d.File("runs/000.gob"), &back); err != nil || len(back) != 2 || back[1] != 2 {
		t.Errorf("ReadRecord: %v, %v; want [1 2]", back, err)
	}
}

// TestVerifyRefusesDamage checks that Verify refuses a file truncated, a
// file cut by 10 bytes, one with a flipped byte (same length), and one
// with bytes appended, each with ErrChecksum.
func TestVerifyRefusesDamage(t *testing.T) {
	content := []byte("replicate,iteration,x0\n0,1,0.5\n0,2,0.25\n1,1,0.125\n")
	want := SumBytes(content)
	for _, c := range []struct {
		name   string
		damage func([]byte) []byte
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)/2] }},
		{"cut by 10 bytes", func(b []byte) []byte { return b[:len(b)-10] }},
		{"a flipped byte", func(b []byte) []byte { b[7] ^= 1; return b }},
		{"bytes appended", func(b []byte) []byte { return append(b, "2,1,9\n"...) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "f.csv"), content, 0o644)
			if err := Verify(dir, "f.csv", want); err != nil {
				t.Fatalf("undamaged: %v", err)
			}
			os.WriteFile(filepath.Join(dir, "f.csv"), c.damage(append([]byte(nil), content...)), 0o644)
			if err := Verify(dir, "f.csv", want); !errors.Is(err, ErrChecksum) {
				t.Errorf("Verify: %v, want ErrChecksum", err)
			}
		})
	}
}

// TestWritersRefuseSymlinks checks that WriteFile, Create and
// OpenAppender (fresh and resumed) refuse a path that is a symbolic link
// and leave its target as it was, and that FindSymlink finds the link.
func TestWritersRefuseSymlinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "precious")
	os.WriteFile(target, []byte("keep me\n"), 0o644)
	link := filepath.Join(dir, "cells.csv")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	sum := SumBytes([]byte("keep me\n"))
	for name, try := range map[string]func() error{
		"WriteFile": func() error { return WriteBytes(link, []byte("new\n")) },
		"Create":    func() error { _, err := Create(link); return err },
		"OpenAppender fresh": func() error {
			_, err := OpenAppender(link, []byte("h\n"), nil)
			return err
		},
		"OpenAppender resumed": func() error {
			_, err := OpenAppender(link, []byte("h\n"), &sum)
			return err
		},
	} {
		if err := try(); !errors.Is(err, ErrSymlink) {
			t.Errorf("%s: %v, want ErrSymlink", name, err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me\n" {
		t.Errorf("the link's target holds %q", b)
	}
	if got, err := FindSymlink(dir); got != "cells.csv" || err != nil {
		t.Errorf("FindSymlink: %q, %v; want cells.csv", got, err)
	}
	if got, err := FindSymlink(t.TempDir()); got != "" || err != nil {
		t.Errorf("FindSymlink of an empty directory: %q, %v; want none", got, err)
	}
}

// TestAppenderResume checks that a resumed appender keeps the recorded
// bytes, cuts off what a kill left after them, and refuses a file whose
// recorded bytes were changed.
func TestAppenderResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cells.csv")
	a, err := OpenAppender(path, []byte("h\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	a.Add([]byte("r1\n"))
	rec := a.Sum()
	a.Add([]byte("r2 half"))
	a.Close()
	if a, err = OpenAppender(path, []byte("h\n"), &rec); err != nil {
		t.Fatal(err)
	}
	a.Add([]byte("r2\n"))
	a.Close()
	if b, _ := os.ReadFile(path); string(b) != "h\nr1\nr2\n" {
		t.Errorf("resumed file %q, want the recorded rows and the new one", b)
	}
	os.WriteFile(path, []byte("h\nr9\nr2\n"), 0o644)
	if _, err := OpenAppender(path, []byte("h\n"), &rec); !errors.Is(err, ErrChecksum) {
		t.Errorf("resume over changed rows: %v, want ErrChecksum", err)
	}
}

// TestOpenRemovesTemps checks that Open removes the temporary files of
// atomic writes a kill left (at the top and in a subdirectory) and
// nothing else, and that RemoveStale removes the files a previous
// manifest records, but never a name outside the directory.
func TestOpenRemovesTemps(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	os.MkdirAll(filepath.Join(dir, "runs"), 0o755)
	for _, name := range []string{".scans.csv.tmp-123", "runs/.000.gob.tmp-9", "keep.csv", "old.png"} {
		os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644)
	}
	os.WriteFile(filepath.Join(root, "outside"), []byte("x"), 0o644)
	d, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	prev := &Manifest{Files: map[string]FileSum{"old.png": {}, "../outside": {}, LockName: {}}}
	if err := d.RemoveStale(prev, "index.csv"); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{".scans.csv.tmp-123": false, "runs/.000.gob.tmp-9": false, "old.png": false,
		"keep.csv": true, LockName: true, "../outside": true} {
		_, err := os.Lstat(filepath.Join(dir, name))
		if got := err == nil; got != want {
			t.Errorf("%s exists %v, want %v", name, got, want)
		}
	}
}

// TestRemoveAll checks that RemoveAll removes a subdirectory and forgets
// the records of the files written under it (but not of a file whose
// name only starts the same), and refuses a name outside the directory.
func TestRemoveAll(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	os.Mkdir(d.File("pieces"), 0o755)
	for _, name := range []string{"pieces/a.csv", "pieces/b.csv", "pieces.csv"} {
		if err := WriteBytes(d.File(name), []byte(name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.RemoveAll("pieces"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(d.File("pieces")); err == nil {
		t.Error("pieces/ still exists")
	}
	if files := d.Files(); len(files) != 1 || files["pieces.csv"].Size != int64(len("pieces.csv")) {
		t.Errorf("records after RemoveAll: %v, want pieces.csv's only", files)
	}
	if err := d.RemoveAll("../elsewhere"); err == nil {
		t.Error("RemoveAll of a name outside the directory: no error")
	}
}
