//go:build unix

package rundir

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// noFollow is the open flag that makes opening a symbolic link fail.
const noFollow = unix.O_NOFOLLOW

// isLoop reports whether err is the error of opening a symbolic link
// with noFollow.
func isLoop(err error) bool { return errors.Is(err, unix.ELOOP) }

// lockExclusive takes an exclusive flock on fh without waiting: errBusy
// when another open file description holds it. The kernel releases it
// when the descriptor is closed or the process ends, a kill included.
func lockExclusive(fh *os.File) error { return flock(fh, unix.LOCK_EX) }

// lockShared takes a shared flock on fh without waiting: errBusy when a
// writer holds the exclusive one. It needs only read access.
func lockShared(fh *os.File) error { return flock(fh, unix.LOCK_SH) }

func flock(fh *os.File, how int) error {
	for {
		err := unix.Flock(int(fh.Fd()), how|unix.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EWOULDBLOCK):
			return errBusy
		}
		return err
	}
}
