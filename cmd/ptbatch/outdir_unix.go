//go:build unix

package main

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes an exclusive flock on fh without waiting: errLocked when
// another open file description holds it. The kernel releases it when
// the descriptor is closed or the process ends, a kill included.
func lockFile(fh *os.File) error { return flock(fh, unix.LOCK_EX) }

// lockFileShared takes a shared flock on fh without waiting: errLocked
// when a writer holds the exclusive one. It needs only read access.
func lockFileShared(fh *os.File) error { return flock(fh, unix.LOCK_SH) }

func flock(fh *os.File, how int) error {
	for {
		err := unix.Flock(int(fh.Fd()), how|unix.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EWOULDBLOCK):
			return errLocked
		}
		return err
	}
}
