package rundir

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCanonicalPathLinks: a file named through a symbolic link to its
// directory, and a file not yet created below it, canonicalise to the
// names through the real directory, so Within sees them inside it.
func TestCanonicalPathLinks(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	out := CanonicalPath(real)
	for _, p := range []string{filepath.Join(link, "ck.bin"), filepath.Join(link, "new", "deeper", "ck.bin")} {
		c := CanonicalPath(p)
		if !Within(c, out) {
			t.Errorf("%s canonicalised to %s, not inside %s", p, c, out)
		}
	}
	if CanonicalPath(link) != out {
		t.Errorf("the link canonicalised to %s, the directory to %s", CanonicalPath(link), out)
	}
}

// TestWithin: strictly inside only; a sibling whose name starts with the
// directory's is not inside it.
func TestWithin(t *testing.T) {
	for _, c := range []struct {
		path, dir string
		want      bool
	}{
		{"/a/b/c", "/a/b", true}, {"/a/b", "/a/b", false}, {"/a", "/a/b", false},
		{"/a/bc", "/a/b", false}, {"/a/b/../c", "/a/b", false}, {"/a/b/..c", "/a/b", true},
	} {
		if got := Within(filepath.Clean(c.path), c.dir); got != c.want {
			t.Errorf("Within(%q, %q) = %v, want %v", c.path, c.dir, got, c.want)
		}
	}
}
