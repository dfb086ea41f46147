package main

import (
	"errors"
	"io"

	"github.com/ptbatch/ptbatch/rundir"
)

// An output directory (--out DIR) is a rundir.Dir: held by one process
// at a time (DIR/.lock, removed at a clean exit), every file written
// atomically or appended in whole rows without following a symbolic
// link, and the length and SHA-256 of each recorded in manifest.json,
// which ptbatch merge checks before it uses a shard.

// lockName and manifestName are the lock and the manifest of every
// output directory.
const (
	lockName     = rundir.LockName
	manifestName = rundir.ManifestName
)

// The writers of package rundir, under the names the commands use.
var (
	writeFileAtomic  = rundir.WriteFile
	writeBytesAtomic = rundir.WriteBytes
)

// outDir is an output directory this process holds (or, in a merge's
// reproduce, one the merge holds for it: dir nil).
type outDir struct {
	path string
	dir  *rundir.Dir
}

// holdOut takes the directory of flag name (already checked writable by
// checkOut), created if needed, with a note on notes when it recovers a
// lock left by a killed process. It returns a usage error naming the
// flag when another process holds it or its lock file is a link.
func holdOut(c *cmdFlags, name, dir string, notes io.Writer) (*outDir, error) {
	d, err := rundir.Open(dir, rundir.Options{Notes: notes, Program: "ptbatch"})
	var le *rundir.LockedError
	switch {
	case errors.As(err, &le):
		who := "another ptbatch"
		if le.PID != "" {
			who += " (pid " + le.PID + ")"
		}
		return nil, c.bad(name, "%s is writing to this directory; wait for it to finish or choose another directory", who)
	case errors.Is(err, rundir.ErrSymlink):
		return nil, c.bad(name, "cannot lock the directory: %v", err)
	case err != nil:
		return nil, c.bad(name, "cannot lock the directory: %v", unwrapPath(err))
	}
	return &outDir{path: dir, dir: d}, nil
}

// release removes the lock file and gives the lock up; later calls do
// nothing.
func (d *outDir) release() {
	if d != nil {
		d.dir.Close()
		d.dir = nil
	}
}
