package rundir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAsideTakesBackRows sets samples.csv aside (index.csv is absent),
// copies its first 2 rows after the header back, checks a third that
// asks for more rows than the file holds (*ShortError with the count it
// has) and a file never set aside (ErrNotAside), then removes the copy.
func TestAsideTakesBackRows(t *testing.T) {
	dir := t.TempDir()
	const text = "a,b\n1,2\n3,4\n5,6\n" // a header and 3 rows
	if err := os.WriteFile(filepath.Join(dir, "samples.csv"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := SetAside(dir, "samples.csv", "index.csv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "samples.csv")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("samples.csv still in place after SetAside: %v", err)
	}
	var got strings.Builder
	if err := a.CopyRows("samples.csv", 2, func(l []byte) error { got.Write(l); return nil }); err != nil {
		t.Fatal(err)
	}
	if got.String() != "1,2\n3,4\n" {
		t.Errorf("CopyRows gave %q, want the first 2 rows", got.String())
	}
	var short *ShortError
	if err := a.CopyRows("samples.csv", 5, func([]byte) error { return nil }); !errors.As(err, &short) || short.Have != 3 || short.Want != 5 {
		t.Errorf("5 rows of 3: %v; want a ShortError with 3 of 5", err)
	}
	if err := a.CopyRows("index.csv", 1, func([]byte) error { return nil }); !errors.Is(err, ErrNotAside) {
		t.Errorf("a file never set aside: %v; want ErrNotAside", err)
	}
	if err := a.CopyRows("index.csv", 0, nil); err != nil {
		t.Errorf("0 rows of a file never set aside: %v; want nothing to do", err)
	}
	a.Remove()
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.resume")); len(left) != 0 {
		t.Errorf("copies left after Remove: %v", left)
	}
}

// TestAsideRestoreAndEarlierCopy checks that Restore puts a file back,
// and that SetAside keeps a copy an earlier, unfinished resume set aside
// (the file in its place is that attempt's, not the checkpoint's run's).
func TestAsideRestoreAndEarlierCopy(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("samples.csv", "h\nfirst\n")
	a, err := SetAside(dir, "samples.csv")
	if err != nil {
		t.Fatal(err)
	}
	a.Restore()
	if b, err := os.ReadFile(filepath.Join(dir, "samples.csv")); err != nil || string(b) != "h\nfirst\n" {
		t.Fatalf("after Restore: %q, %v; want the file back", b, err)
	}
	write(AsideName("samples.csv"), "h\nkept\n") // an earlier attempt's copy
	a, err = SetAside(dir, "samples.csv")
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := a.CopyRows("samples.csv", 1, func(l []byte) error { got = string(l); return nil }); err != nil || got != "kept\n" {
		t.Errorf("CopyRows = %q, %v; want the earlier copy's row", got, err)
	}
}

// TestAsideLongRow checks a row longer than CopyRows' 64 KiB buffer
// (100,000 bytes, ReadSlice's ErrBufferFull path) comes back whole.
func TestAsideLongRow(t *testing.T) {
	dir := t.TempDir()
	row := strings.Repeat("x", 100000) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "samples.csv"), []byte("h\n"+row), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := SetAside(dir, "samples.csv")
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := a.CopyRows("samples.csv", 1, func(l []byte) error { got = string(l); return nil }); err != nil || got != row {
		t.Errorf("CopyRows gave %d bytes, %v; want the row's %d", len(got), err, len(row))
	}
}
