package rundir

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// tempMark is in the name of every temporary file of an atomic write:
// "." + base + tempMark + random.
const tempMark = ".tmp-"

// WriteFile writes the file path with the bytes write produces,
// atomically: into a temporary file in the same directory, synced, then
// renamed over path, so path holds either its old content or all of the
// new one. A path that is a symbolic link is refused (ErrSymlink) and
// its target left untouched. The file's length and SHA-256 are recorded
// in the held Dir containing path, if any.
func WriteFile(path string, write func(w io.Writer) error) error {
	s, err := writeAtomic(path, write)
	if err == nil {
		recordSum(path, s)
	}
	return err
}

// writeAtomic is WriteFile without the record: it returns the sum.
func writeAtomic(path string, write func(w io.Writer) error) (FileSum, error) {
	if isSymlink(path) {
		return FileSum{}, pathError(path, ErrSymlink)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	fh, err := os.CreateTemp(dir, "."+base+tempMark+"*")
	if err != nil {
		return FileSum{}, err
	}
	tmp := fh.Name()
	sum := newSummer()
	bw := bufio.NewWriterSize(io.MultiWriter(fh, sum), 1<<16)
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
	if err == nil && isSymlink(path) {
		err = ErrSymlink
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return FileSum{}, fmt.Errorf("writing %s: %w", path, err)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // the rename itself; not every file system can sync a directory
		d.Close()
	}
	return sum.sum(), nil
}

// WriteBytes writes data to path atomically, as WriteFile.
func WriteBytes(path string, data []byte) error {
	return WriteFile(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// File is a file written from its start as results arrive (such as a
// run's samples.csv): created by Create without following a link, its
// bytes hashed as they are written. Close records its length and SHA-256
// in the held Dir containing it.
type File struct {
	fh   *os.File
	sum  *summer
	path string
}

// Create creates (or truncates) path for writing, refusing a symbolic
// link (ErrSymlink) without touching its target.
func Create(path string) (*File, error) {
	if isSymlink(path) {
		return nil, pathError(path, ErrSymlink)
	}
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|noFollow, 0o644)
	if err != nil {
		if isLoop(err) {
			return nil, pathError(path, ErrSymlink)
		}
		return nil, err
	}
	return &File{fh: fh, sum: newSummer(), path: path}, nil
}

// Write writes p to the file and hashes what was written.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.fh.Write(p)
	f.sum.Write(p[:n])
	return n, err
}

// Sync commits the file to stable storage.
func (f *File) Sync() error { return f.fh.Sync() }

// Name returns the file's path.
func (f *File) Name() string { return f.path }

// Close closes the file and records its length and checksum.
func (f *File) Close() error {
	err := f.fh.Close()
	if err == nil {
		recordSum(f.path, f.sum.sum())
	}
	return err
}
