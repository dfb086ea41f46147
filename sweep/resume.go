package sweep

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/runloop"
)

// Files are the files a sweep appends to as its cells end.
var Files = []string{"cells.csv", "summary.csv"}

// Why says why ResumeError refuses to resume a sweep.
type Why int

// The reasons of a ResumeError.
const (
	// Unreadable: the directory's manifest cannot be read (Err).
	Unreadable Why = iota
	// OtherJob: the manifest is not this sweep's (Err matches
	// rundir.ErrNotResumable and says why).
	OtherJob
	// Missing: File does not exist; the manifest records Recorded bytes.
	Missing
	// Unstatable: File cannot be examined (Err).
	Unstatable
	// Link: File is a symbolic link.
	Link
	// NotRegular: File is not a regular file (Mode).
	NotRegular
	// Short: File holds Size bytes, fewer than the Recorded ones (it was
	// changed since).
	Short
)

// ResumeError is the refusal to resume the sweep in Dir, before anything
// in it is written: the reason (Why), the file concerned (File, "" for the
// manifest) and what was found.
type ResumeError struct {
	Dir            string
	File           string
	Why            Why
	Mode           os.FileMode
	Size, Recorded int64
	Err            error
}

// Error says why the sweep in Dir cannot be resumed.
func (e *ResumeError) Error() string {
	if e.File == "" || e.Why == Unstatable {
		return fmt.Sprintf("sweep: cannot resume the sweep in %s: %v", e.Dir, e.Err)
	}
	return fmt.Sprintf("sweep: cannot resume the sweep in %s: its %s %s", e.Dir, e.File, e.Reason())
}

// Reason says what is wrong with File, after its name ("is missing, and
// its manifest records 10 bytes of it"); "" for Unreadable, OtherJob and
// Unstatable, whose Err says it.
func (e *ResumeError) Reason() string {
	switch e.Why {
	case Missing:
		return fmt.Sprintf("is missing, and its manifest records %d bytes of it", e.Recorded)
	case Link:
		return "is a symbolic link"
	case NotRegular:
		return fmt.Sprintf("is not a regular file (%s)", runloop.FileKind(e.Mode))
	case Short:
		return fmt.Sprintf("holds %d bytes, fewer than the %d its manifest records (it was changed)", e.Size, e.Recorded)
	}
	return ""
}

// Unwrap returns the underlying error, if any.
func (e *ResumeError) Unwrap() error { return e.Err }

// Resume is what a sweep's directory holds for a resume (Prepare).
type Resume struct {
	// Found reports that the directory holds a manifest.
	Found bool
	// Prev is that manifest when the sweep goes on with its files, nil
	// when it starts them afresh.
	Prev *rundir.Manifest
}

// Fresh reports whether the sweep's files start afresh.
func (r Resume) Fresh() bool { return r.Prev == nil }

// Prior returns the seconds spent on the sweep before (rundir.NewJob).
func (r Resume) Prior() float64 {
	if r.Prev == nil {
		return 0
	}
	return r.Prev.ElapsedSeconds
}

// Prepare reads what the sweep in dir, whose manifest m is the new job's,
// would resume, before anything is written: the previous manifest must
// be one m resumes (rundir.Manifest.Resumes), and the files it records
// must be regular files at least as long as it records (a *ResumeError
// otherwise). A directory without a manifest starts afresh (Found
// false), as does one whose files are empty. When the sweep goes on, m
// takes the previous manifest's state (Done, Complete, Interrupted and
// Files): a kill before the files are cut back to it resumes from the
// same place.
func Prepare(dir string, m *rundir.Manifest) (Resume, error) {
	prev, err := rundir.ReadManifest(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return Resume{}, nil
	case err != nil:
		return Resume{}, &ResumeError{Dir: dir, Why: Unreadable, Err: err}
	}
	if err := m.Resumes(prev); err != nil {
		return Resume{}, &ResumeError{Dir: dir, Why: OtherJob, Err: err}
	}
	if prev.Files[Files[0]].Size == 0 || prev.Files[Files[1]].Size == 0 {
		return Resume{Found: true}, nil
	}
	for _, name := range Files {
		if err := checkFile(dir, name, prev.Files[name].Size); err != nil {
			return Resume{}, err
		}
	}
	m.Done, m.Complete, m.Interrupted, m.Files = prev.Done, prev.Complete, prev.Interrupted, prev.Files
	return Resume{Found: true, Prev: prev}, nil
}

// checkFile refuses a sweep's file name in dir that is missing, a link,
// not a regular file, or shorter than the recorded bytes.
func checkFile(dir, name string, recorded int64) error {
	e := &ResumeError{Dir: dir, File: name, Recorded: recorded}
	st, err := os.Lstat(filepath.Join(dir, name))
	switch {
	case errors.Is(err, os.ErrNotExist):
		e.Why = Missing
	case err != nil:
		e.Why, e.Err = Unstatable, err
	case st.Mode()&os.ModeSymlink != 0:
		e.Why = Link
	case !st.Mode().IsRegular():
		e.Why, e.Mode = NotRegular, st.Mode()
	case st.Size() < recorded:
		e.Why, e.Size = Short, st.Size()
	default:
		return nil
	}
	return e
}
