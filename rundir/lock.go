package rundir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// takeLock opens the lock file without following a link, locks it and
// writes this process's pid into it. It returns the pid a previous holder
// left in it (a holder that did not Close). A lock file removed by its
// holder's Close between our open and our lock is opened again.
func takeLock(path string) (fh *os.File, left string, err error) {
	for attempt := 0; ; attempt++ {
		fh, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|noFollow, 0o644)
		if err != nil {
			if isLoop(err) || isSymlink(path) {
				return nil, "", pathError(path, ErrSymlink)
			}
			return nil, "", err
		}
		if isSymlink(path) { // where O_NOFOLLOW does not exist
			fh.Close()
			return nil, "", pathError(path, ErrSymlink)
		}
		if err := lockExclusive(fh); err != nil {
			pid := readPID(fh)
			fh.Close()
			if errors.Is(err, errBusy) {
				return nil, "", &LockedError{Dir: filepath.Dir(path), PID: pid}
			}
			return nil, "", err
		}
		if sameFile(fh, path) {
			break
		}
		fh.Close() // we locked a file its holder has just removed
		if attempt >= 100 {
			return nil, "", fmt.Errorf("%s keeps being replaced while it is locked", path)
		}
	}
	left = readPID(fh)
	if err := fh.Truncate(0); err == nil {
		fh.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return fh, left, nil
}

// readPID returns the pid written in a lock file ("" if none).
func readPID(fh *os.File) string {
	b := make([]byte, 32)
	n, _ := fh.ReadAt(b, 0)
	return strings.TrimSpace(string(b[:n]))
}

// sameFile reports whether path names the file open as fh.
func sameFile(fh *os.File, path string) bool {
	a, err1 := fh.Stat()
	b, err2 := os.Lstat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// ReadLock takes a shared lock on the output directory dir of another
// process, to read it: it returns a *LockedError while a process holds
// it to write. A directory without a lock file has no writer now.
// release gives the shared lock up. The lock file is opened without
// following a link.
func ReadLock(dir string) (release func(), err error) {
	path := filepath.Join(dir, LockName)
	fh, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0)
	if errors.Is(err, os.ErrNotExist) {
		return func() {}, nil
	}
	if err != nil {
		if isLoop(err) {
			return nil, pathError(path, ErrSymlink)
		}
		return nil, err
	}
	if err := lockShared(fh); err != nil {
		pid := readPID(fh)
		fh.Close()
		if errors.Is(err, errBusy) {
			return nil, &LockedError{Dir: dir, PID: pid}
		}
		return nil, err
	}
	return func() { fh.Close() }, nil
}
