package rundir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// removeTemps removes, anywhere under dir (links not followed), the
// temporary files of atomic writes that a kill interrupted: the names
// "."+base+".tmp-"+random of WriteFile.
func removeTemps(dir string) error {
	return filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		name := e.Name()
		if !e.IsDir() && strings.HasPrefix(name, ".") && strings.Contains(name, tempMark) {
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		return nil
	})
}

// RemoveStale removes what a previous command left in the directory, so
// that it holds only the new command's files: every file the previous
// manifest prev records (nil: none) and the files named in extra, all
// relative to the directory. Names outside the directory, the lock and
// the manifest are skipped; a link is removed, never its target.
func (d *Dir) RemoveStale(prev *Manifest, extra ...string) error {
	names := slices.Clone(extra)
	if prev != nil {
		names = append(names, sortedNames(prev.Files)...)
	}
	for _, name := range names {
		local := filepath.FromSlash(name)
		if !filepath.IsLocal(local) || local == LockName || local == ManifestName {
			continue
		}
		if err := os.Remove(filepath.Join(d.path, local)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		d.Forget(name)
	}
	return nil
}

// sortedNames returns the keys of files in order.
func sortedNames(files map[string]FileSum) []string {
	names := make([]string, 0, len(files))
	for k := range files {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// FindSymlink returns the first symbolic link under dir (links not
// followed), relative to dir, or "" when there is none: a command that
// refuses one before it starts never fails on it after its work.
func FindSymlink(dir string) (string, error) {
	var found string
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.Type()&fs.ModeSymlink != 0 && path != dir {
			found, _ = filepath.Rel(dir, path)
			return filepath.SkipAll
		}
		return nil
	})
	return found, err
}

// RemoveAll removes name (relative to the directory: a file, or a
// subdirectory and everything under it, links not followed) and forgets
// the records of every file under it, as for a command's scratch files
// (a study's pieces and checkpoints) once its results are written. A
// name outside the directory, the lock or the manifest is refused.
func (d *Dir) RemoveAll(name string) error {
	local := filepath.FromSlash(name)
	if !filepath.IsLocal(local) || local == LockName || local == ManifestName {
		return fmt.Errorf("rundir: RemoveAll(%q): not a file of the directory", name)
	}
	if err := os.RemoveAll(filepath.Join(d.path, local)); err != nil {
		return err
	}
	prefix := filepath.ToSlash(local) + "/"
	d.mu.Lock()
	defer d.mu.Unlock()
	for k := range d.sums {
		if k == filepath.ToSlash(local) || strings.HasPrefix(k, prefix) {
			delete(d.sums, k)
		}
	}
	return nil
}
