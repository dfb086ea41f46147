//go:build !unix

package rundir

import "os"

// noFollow is 0 where O_NOFOLLOW does not exist; the writers check the
// path with Lstat instead.
const noFollow = 0

// isLoop reports false: without O_NOFOLLOW no open fails for a link.
func isLoop(error) bool { return false }

// lockExclusive does nothing where flock is not available: the output
// directory is not protected against a second writer there.
func lockExclusive(*os.File) error { return nil }

// lockShared does nothing where flock is not available.
func lockShared(*os.File) error { return nil }
