package rundir

import (
	"path/filepath"
	"sync"
)

// held are the directories this process holds, by absolute path: a write
// through this package records its checksum in the Dir that holds it.
var held struct {
	sync.Mutex
	dirs map[string]*Dir
}

// register adds d to the held directories.
func register(d *Dir) {
	held.Lock()
	defer held.Unlock()
	if held.dirs == nil {
		held.dirs = map[string]*Dir{}
	}
	held.dirs[d.abs] = d
}

// unregister removes d from the held directories.
func unregister(d *Dir) {
	held.Lock()
	defer held.Unlock()
	if held.dirs[d.abs] == d {
		delete(held.dirs, d.abs)
	}
}

// holder returns the held Dir whose directory contains path, innermost
// first, and path's name relative to it (slash-separated); nil when none.
func holder(path string) (*Dir, string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, ""
	}
	held.Lock()
	defer held.Unlock()
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if d, ok := held.dirs[dir]; ok {
			rel, err := filepath.Rel(dir, abs)
			if err != nil {
				return nil, ""
			}
			return d, filepath.ToSlash(rel)
		}
		if parent := filepath.Dir(dir); parent == dir {
			return nil, ""
		}
	}
}

// recordSum records s for path in the Dir holding it, if any.
func recordSum(path string, s FileSum) {
	if d, name := holder(path); d != nil {
		d.put(name, s)
	}
}
