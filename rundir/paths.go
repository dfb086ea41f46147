package rundir

import (
	"os"
	"path/filepath"
	"strings"
)

// CanonicalPath returns path absolute and clean, with the symbolic links
// of its longest existing prefix resolved, so that two names of one file
// compare equal whether or not the file exists yet: what a check that a
// checkpoint is not inside an output directory (Within) compares.
func CanonicalPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	rest := ""
	for dir := abs; ; dir = filepath.Dir(dir) {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest)
		}
		if _, err := os.Lstat(dir); err == nil || filepath.Dir(dir) == dir {
			return abs // a dangling link or an unreadable prefix: as given
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}

// Within reports whether path is strictly inside dir (both as returned
// by CanonicalPath).
func Within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
