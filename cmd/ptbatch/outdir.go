package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// An output directory (--out DIR) is held by one process at a time: the
// command takes an exclusive lock on DIR/.lock (flock, released when the
// process ends however it ends) before it computes anything, so a second
// ptbatch writing to the same directory is refused at once, with status 2,
// and the first one's files stay as it writes them. Every file the
// commands write whole is written atomically: into a temporary file in
// the same directory, synced, then renamed over the old one, so a reader
// or a kill never sees half a file. The files that grow as results arrive
// (samples.csv, and a sweep's cells.csv and summary.csv) are appended to
// in whole rows, and manifest.json records how far they are complete.

// lockName is the lock file of an output directory.
const lockName = ".lock"

// outDir is an output directory this process holds.
type outDir struct {
	path string
	lock *os.File
}

// errLocked is returned by lockDir when another process holds the lock.
var errLocked = errors.New("locked")

// holdOut creates the directory of flag name (already checked writable
// by checkOut) and takes its lock; it returns a usage error naming the
// flag when another process holds it.
func holdOut(c *cmdFlags, name, dir string) (*outDir, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, c.bad(name, "cannot create the directory: %v", unwrapPath(err))
	}
	fh, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, c.bad(name, "cannot create its lock file: %v", unwrapPath(err))
	}
	if err := lockFile(fh); err != nil {
		pid, _ := io.ReadAll(io.LimitReader(fh, 32))
		fh.Close()
		if errors.Is(err, errLocked) {
			who := "another ptbatch"
			if p := strings.TrimSpace(string(pid)); p != "" {
				who += " (pid " + p + ")"
			}
			return nil, c.bad(name, "%s is writing to this directory; wait for it to finish or choose another directory", who)
		}
		return nil, c.bad(name, "cannot lock the directory: %v", err)
	}
	// The holder's pid, for the message of a second writer.
	if err := fh.Truncate(0); err == nil {
		fh.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &outDir{path: dir, lock: fh}, nil
}

// readShard takes a shared lock on the output directory dir of another
// command, to read it: it fails with errLocked while a process writes
// there. A directory without a lock file was never locked (nothing to
// wait for). release gives the lock up.
func readShard(dir string) (release func(), err error) {
	fh, err := os.Open(filepath.Join(dir, lockName))
	if errors.Is(err, os.ErrNotExist) {
		return func() {}, nil
	}
	if err != nil {
		return nil, err
	}
	if err := lockFileShared(fh); err != nil {
		fh.Close()
		return nil, err
	}
	return func() { fh.Close() }, nil
}

// release gives up the lock; later calls do nothing.
func (d *outDir) release() {
	if d == nil || d.lock == nil {
		return
	}
	d.lock.Close() // closing the descriptor releases the flock
	d.lock = nil
}

// file returns the path of name inside the directory.
func (d *outDir) file(name string) string { return filepath.Join(d.path, name) }

// writeFileAtomic writes the file path with the bytes write produces:
// into a temporary file in the same directory, synced, then renamed over
// path, so path holds either its old content or all of the new one.
func writeFileAtomic(path string, write func(w io.Writer) error) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	fh, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	tmp := fh.Name()
	bw := bufio.NewWriterSize(fh, 1<<16)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = fh.Chmod(0o644)
	}
	if err == nil {
		err = fh.Sync()
	}
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // the rename itself; not every file system can sync a directory
		d.Close()
	}
	return nil
}

// writeBytesAtomic writes data to path atomically.
func writeBytesAtomic(path string, data []byte) error {
	return writeFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// csvBytes returns rows as CSV text.
func csvBytes(rows [][]string) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.WriteAll(rows); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// appender appends whole rows to a file that grows as results arrive,
// one write per call, and reports the file's length after each, which
// manifest.json records so that a resumed command can cut off what a
// kill left after the last complete record.
type appender struct {
	fh   *os.File
	size int64
}

// openAppender opens path for appending: created with header when new
// (fresh), or cut to size bytes when continuing (an error if it is
// shorter).
func openAppender(path string, header []string, fresh bool, size int64) (*appender, error) {
	if fresh {
		hdr, err := csvBytes([][]string{header})
		if err != nil {
			return nil, err
		}
		if err := writeBytesAtomic(path, hdr); err != nil {
			return nil, err
		}
		size = int64(len(hdr))
	}
	fh, err := os.OpenFile(path, os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	st, err := fh.Stat()
	if err == nil && st.Size() < size {
		err = fmt.Errorf("%s has %d bytes, fewer than the %d its manifest records: the directory was changed; start again without --resume", path, st.Size(), size)
	}
	if err == nil {
		err = fh.Truncate(size)
	}
	if err == nil {
		_, err = fh.Seek(size, io.SeekStart)
	}
	if err != nil {
		fh.Close()
		return nil, err
	}
	return &appender{fh: fh, size: size}, nil
}

// add appends rows in one write and syncs the file.
func (a *appender) add(rows [][]string) error {
	b, err := csvBytes(rows)
	if err != nil {
		return err
	}
	n, err := a.fh.Write(b)
	a.size += int64(n)
	if err == nil {
		err = a.fh.Sync()
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", a.fh.Name(), err)
	}
	return nil
}

// close closes the file.
func (a *appender) close() error {
	if a == nil || a.fh == nil {
		return nil
	}
	err := a.fh.Close()
	a.fh = nil
	return err
}
