package rundir

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Discard removes every file written into the directory since it was
// opened and the directories left empty under it, then closes it (the
// lock removed and released) and, when removeDir is set (the caller
// created the directory), removes the directory too if it is empty: what
// a refused command leaves is what was there before. Removal is best
// effort: a file that cannot be removed stays.
func (d *Dir) Discard(removeDir bool) {
	for name := range d.Files() {
		os.Remove(filepath.Join(d.path, filepath.FromSlash(name)))
	}
	var dirs []string
	filepath.WalkDir(d.path, func(path string, e fs.DirEntry, err error) error {
		if err == nil && e.IsDir() && path != d.path {
			dirs = append(dirs, path)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		os.Remove(dirs[i]) // fails unless empty
	}
	d.Close()
	if removeDir {
		os.Remove(d.path) // fails unless empty
	}
}
