package rundir

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// LockName is the lock file of an output directory.
const LockName = ".lock"

// Dir is an output directory this process holds: its lock, and the
// length and checksum of every file written into it since Open.
type Dir struct {
	path string // as given
	abs  string // absolute, the key of the registry
	lock *os.File

	mu   sync.Mutex
	sums map[string]FileSum
}

// Options are Open's options; the zero value is valid.
type Options struct {
	// Notes receives a one-line note when Open recovers a lock file that
	// a killed process left behind (nil: none).
	Notes io.Writer
	// Program names the writer of notes ("rundir" when empty).
	Program string
}

// Open creates the directory path if needed and takes its lock: it
// returns a *LockedError while another process holds it, and an error
// wrapping ErrSymlink when path/.lock is a symbolic link. A lock file
// left by a process that ended without Close (a kill) is taken over,
// with a note to opts.Notes. Open removes the temporary files of
// interrupted atomic writes under path.
func Open(path string, opts Options) (*Dir, error) {
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	fh, left, err := takeLock(filepath.Join(path, LockName))
	if err != nil {
		return nil, err
	}
	if left != "" && opts.Notes != nil {
		prog := opts.Program
		if prog == "" {
			prog = "rundir"
		}
		fmt.Fprintf(opts.Notes, "%s: %s was left by process %s, which ended without releasing it (killed?); recovered it\n",
			prog, filepath.Join(path, LockName), left)
	}
	d := &Dir{path: path, abs: abs, lock: fh, sums: map[string]FileSum{}}
	if err := removeTemps(path); err != nil {
		d.Close()
		return nil, err
	}
	register(d)
	return d, nil
}

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

// isSymlink reports whether path is a symbolic link.
func isSymlink(path string) bool {
	st, err := os.Lstat(path)
	return err == nil && st.Mode()&os.ModeSymlink != 0
}

// Path returns the directory as given to Open.
func (d *Dir) Path() string { return d.path }

// File returns the path of name inside the directory.
func (d *Dir) File(name string) string { return filepath.Join(d.path, name) }

// Close removes the lock file, while still holding it and only if it is
// still the file this Dir locked, then releases the lock. Later calls do
// nothing; Close is nil-safe.
func (d *Dir) Close() error {
	if d == nil || d.lock == nil {
		return nil
	}
	unregister(d)
	path := filepath.Join(d.path, LockName)
	var err error
	if sameFile(d.lock, path) {
		err = os.Remove(path)
	}
	if cerr := d.lock.Close(); err == nil {
		err = cerr
	}
	d.lock = nil
	return err
}

// Files returns the length and checksum of every file written into the
// directory since Open, by name relative to it (slash-separated).
func (d *Dir) Files() map[string]FileSum {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make(map[string]FileSum, len(d.sums))
	for k, v := range d.sums {
		out[k] = v
	}
	return out
}

// Forget drops name's record (a file removed or no longer the Dir's).
func (d *Dir) Forget(name string) {
	d.mu.Lock()
	delete(d.sums, name)
	d.mu.Unlock()
}

// put records the sum of the file name.
func (d *Dir) put(name string, s FileSum) {
	d.mu.Lock()
	d.sums[name] = s
	d.mu.Unlock()
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
