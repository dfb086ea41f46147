package rundir

import (
	"errors"
	"fmt"
)

// ErrSymlink is returned when a file the directory would write or lock
// is a symbolic link: it is refused, and its target left untouched.
var ErrSymlink = errors.New("is a symbolic link; refusing to follow it")

// ErrChecksum is returned by Verify for a file whose length or SHA-256
// differs from what its manifest recorded when it was written.
var ErrChecksum = errors.New("the file changed after it was written")

// errBusy is the lock functions' answer when another holder has the lock.
var errBusy = errors.New("lock held")

// LockedError is returned by Open when another process holds the
// directory; PID is the holder's process id as its lock file says ("" if
// unknown).
type LockedError struct {
	Dir string
	PID string
}

// Error names the directory and, when known, the holder's pid.
func (e *LockedError) Error() string {
	if e.PID == "" {
		return fmt.Sprintf("%s is held by another process", e.Dir)
	}
	return fmt.Sprintf("%s is held by another process (pid %s)", e.Dir, e.PID)
}

// pathError names path in err.
func pathError(path string, err error) error { return fmt.Errorf("%s %w", path, err) }
