package rundir

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Aside holds the streamed files of a directory (files that grow as a run
// goes, such as samples.csv) set aside for a resume: renamed, never
// copied, to AsideName(name), so that the resumed run can create them
// anew and take back from the copies the rows its checkpoint counted
// (CopyRows), byte for byte what the run never stopped writes.
type Aside struct {
	dir   string
	files map[string]string // name → its copy set aside
}

// AsideName is the name under which SetAside keeps the file name.
func AsideName(name string) string { return "." + name + ".resume" }

// ErrNotAside is CopyRows' error (a *NotAsideError) when asked for rows
// of a file that was not in the directory.
var ErrNotAside = errors.New("rundir: the file was not set aside")

// NotAsideError is CopyRows' error when asked for Rows rows of the file
// Name, which was not in the directory; it is ErrNotAside (errors.Is).
type NotAsideError struct {
	Name string
	Rows int
}

// Error names the file.
func (e *NotAsideError) Error() string { return fmt.Sprintf("%s: %v", e.Name, ErrNotAside) }

// Is reports whether target is ErrNotAside.
func (e *NotAsideError) Is(target error) bool { return target == ErrNotAside }

// ShortError is CopyRows' error when the copy set aside holds fewer rows
// than asked: it is not the file of the run that wrote the checkpoint.
type ShortError struct {
	Name       string
	Have, Want int
}

// Error says how many rows the file holds and how many were asked.
func (e *ShortError) Error() string {
	return fmt.Sprintf("rundir: %s holds %d rows, want %d", e.Name, e.Have, e.Want)
}

// SetAside renames each of names in dir that exists to its AsideName. A
// copy set aside by an earlier attempt that did not finish is kept (the
// file in its place, if any, is the unfinished attempt's): it holds the
// rows of the run that wrote the checkpoint.
func SetAside(dir string, names ...string) (*Aside, error) {
	a := &Aside{dir: dir, files: map[string]string{}}
	for _, name := range names {
		path, aside := filepath.Join(dir, name), filepath.Join(dir, AsideName(name))
		if _, err := os.Stat(aside); err == nil {
			a.files[name] = aside
			continue
		}
		switch err := os.Rename(path, aside); {
		case err == nil:
			a.files[name] = aside
		case !errors.Is(err, os.ErrNotExist):
			a.Restore()
			return nil, fmt.Errorf("setting %s aside for the resume: %w", path, err)
		}
	}
	return a, nil
}

// Restore puts the files set aside back in place, for a resume that
// failed before it copied them; later calls do nothing. It is nil-safe.
func (a *Aside) Restore() {
	if a == nil {
		return
	}
	for name, aside := range a.files {
		os.Rename(aside, filepath.Join(a.dir, name))
	}
	a.files = nil
}

// Remove deletes the copies set aside, once their rows are taken back;
// later calls do nothing. It is nil-safe.
func (a *Aside) Remove() {
	if a == nil {
		return
	}
	for _, aside := range a.files {
		os.Remove(aside)
	}
	a.files = nil
}

// CopyRows gives emit, in order, the first rows lines (each with its
// '\n') after the header line of the copy of name set aside. It returns
// a *NotAsideError when there is no such copy (and rows > 0), a *ShortError when the copy holds fewer rows, or emit's error.
func (a *Aside) CopyRows(name string, rows int, emit func(line []byte) error) error {
	if rows == 0 {
		return nil
	}
	aside, ok := "", false
	if a != nil {
		aside, ok = a.files[name]
	}
	if !ok {
		return &NotAsideError{Name: name, Rows: rows}
	}
	fh, err := os.Open(aside)
	if err != nil {
		return err
	}
	defer fh.Close()
	r := bufio.NewReaderSize(fh, 1<<16)
	for i := -1; i < rows; i++ {
		line, err := readLine(r)
		if err != nil {
			return &ShortError{Name: name, Have: max(i, 0), Want: rows}
		}
		if i >= 0 {
			if err := emit(line); err != nil {
				return err
			}
		}
	}
	return nil
}

// readLine returns the next line of r with its '\n', however long; the
// slice is valid until the next read.
func readLine(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return line, err
	}
	long := append([]byte(nil), line...)
	for err == bufio.ErrBufferFull {
		line, err = r.ReadSlice('\n')
		long = append(long, line...)
	}
	return long, err
}
