package rundir

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
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
