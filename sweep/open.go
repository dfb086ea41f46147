package sweep

import (
	"fmt"
	"io"

	"github.com/ptbatch/ptbatch/rundir"
)

// Opening says how Open takes a sweep's directory.
type Opening struct {
	// Resume goes on with the sweep the directory holds (Prepare); without
	// one there, the sweep starts afresh, with a note.
	Resume bool
	// Start holds the directory and writes the new job's manifest: the
	// caller's lock and rundir.StartJob, given the seconds spent before
	// (Resume.Prior) and whether the files start afresh (Resume.Fresh).
	Start func(prior float64, fresh bool) (*rundir.Job, error)
	// Notes receives one-line notes of a resumed or started sweep, each
	// prefixed by Program and ": " (nil: none).
	Notes io.Writer
	// Program names the notes' writer ("" is "ptbatch").
	Program string
}

// Open takes dir for the sweep s whose new job's manifest is m, as o
// says (Prepare when resuming, then o.Start), and opens its files
// (OpenOut). Prepare's refusal (a *ResumeError), o.Start's error and
// OpenOut's are returned as they are; on an error the job is closed.
func Open(dir string, s *Spec, m *rundir.Manifest, o Opening) (*rundir.Job, *Out, error) {
	note := func(format string, args ...any) {
		if o.Notes != nil {
			program := o.Program
			if program == "" {
				program = "ptbatch"
			}
			fmt.Fprintf(o.Notes, program+": "+format+"\n", args...)
		}
	}
	var r Resume
	if o.Resume {
		var err error
		if r, err = Prepare(dir, m); err != nil {
			return nil, nil, err
		} else if !r.Found {
			note("no sweep in %s to resume: starting it", dir)
		}
	}
	j, err := o.Start(r.Prior(), r.Fresh())
	if err != nil {
		return nil, nil, err
	}
	out, err := OpenOut(j, s, r)
	if err != nil {
		j.Close()
		return nil, nil, err
	}
	if old := r.Prev; old != nil && !old.Complete {
		note("resuming the sweep in %s after %d of its %d %s units", dir, old.Done-old.First, old.End-old.First, m.Unit)
	}
	return j, out, nil
}
