package rundir

import (
	"fmt"
	"time"
)

// Job is a command's work in a directory it holds: the Dir, and its
// Manifest kept up to date as the units of its share are written, so that
// the manifest says at every moment how far the work got (what a resume
// goes on from, and what a merge refuses when it is not complete).
type Job struct {
	Dir      *Dir
	Manifest *Manifest
	start    time.Time
	prior    float64 // seconds spent by earlier processes (a resume)
}

// NewJob returns the job of the held directory d whose manifest is m
// (nothing done yet, or, for a resume, the state it goes on from); prior
// is the seconds spent on it before. It writes nothing.
func NewJob(d *Dir, m *Manifest, prior float64) *Job {
	return &Job{Dir: d, Manifest: m, start: time.Now(), prior: prior}
}

// Elapsed returns the seconds spent on the job so far, earlier processes
// included.
func (j *Job) Elapsed() float64 { return j.prior + time.Since(j.start).Seconds() }

// WriteManifest writes the manifest, with every file written so far
// (Dir.WriteManifest).
func (j *Job) WriteManifest() error { return j.Dir.WriteManifest(j.Manifest) }

// Progress records that the units before done are written, and the time
// spent, in the manifest.
func (j *Job) Progress(done int) error {
	j.Manifest.Done, j.Manifest.ElapsedSeconds = done, j.Elapsed()
	return j.WriteManifest()
}

// Finish records the end of the work: complete when every unit of the
// share [First, End) is done and the work was not interrupted.
func (j *Job) Finish(done int, interrupted bool) error {
	j.Manifest.Interrupted = interrupted
	j.Manifest.Complete = !interrupted && done == j.Manifest.End
	return j.Progress(done)
}

// StartJob returns the job of the held directory d whose manifest is m
// (NewJob), with prior seconds spent before. It refuses a directory with
// a symbolic link under it (a *LinkError). A fresh job (not a resume)
// first removes what a previous command left in d, so that it holds only
// this job's files: those d's manifest records and the names in stale
// (Dir.RemoveStale). It writes no manifest; on an error d stays held.
func StartJob(d *Dir, m *Manifest, prior float64, fresh bool, stale ...string) (*Job, error) {
	if err := checkLinks(d.path); err != nil {
		return nil, err
	}
	if fresh {
		prev, _ := ReadManifest(d.path) // none, or unreadable: nothing recorded to remove
		if err := d.RemoveStale(prev, stale...); err != nil {
			return nil, fmt.Errorf("removing the previous output of %s: %w", d.path, err)
		}
	}
	return NewJob(d, m, prior), nil
}
