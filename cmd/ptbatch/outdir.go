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

// holdOut takes the directory of flag name (already checked writable by
// checkOut), created if needed, with a note on notes when it recovers a
// lock left by a killed process (rundir.Open; Close removes the lock and
// gives it up). It returns a usage error naming the flag when another
// process holds it or its lock file is a link.
func holdOut(c *cmdFlags, name, dir string, notes io.Writer) (*rundir.Dir, error) {
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
	return d, nil
}
