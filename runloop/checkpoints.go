package runloop

import (
	"fmt"
	"io"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/rundir"
)

// Checkpoints keeps the checkpoints of a run in a file and resumes a run
// from one, for a run that streams files into an output directory as it
// goes (such as samples.csv): the checkpoint life cycle of `ptbatch run
// --checkpoint FILE --resume FILE`, for any Go program. Its Options
// write the checkpoints atomically (rundir.WriteBytes: a temporary file,
// synced, renamed over Path, so that a kill leaves one whole checkpoint);
// a resumed run's streamed files are set aside first (SetAside), and its
// Start takes back the rows the checkpoint counted before the first step.
type Checkpoints struct {
	// Path is the checkpoint file, written every Every, when the context
	// ends the run and at its end; "" for none.
	Path  string
	Every Cadence
	// Resume is the checkpoint to resume from (ReadCheckpoint), read from
	// ResumePath; nil for a new run.
	Resume     []byte
	ResumePath string
	// Notes receives a line, prefixed with Program ("runloop" when
	// empty), when a run is resumed and, unless Quiet, for each
	// checkpoint of the cadence; nil: none.
	Notes   io.Writer
	Program string
	Quiet   bool

	aside *rundir.Aside
}

// SetAside sets the streamed files names of the output directory dir
// aside for a resume (rundir.SetAside), so that the resumed run creates
// them anew and takes back the rows its checkpoint counted; it does
// nothing for a new run. Call it once dir is held and before the files
// are created.
func (k *Checkpoints) SetAside(dir string, names ...string) error {
	if k.Resume == nil {
		return nil
	}
	a, err := rundir.SetAside(dir, names...)
	k.aside = a
	return err
}

// Restore puts the files set aside back in place, for a resume that was
// refused (Run's *RestoreError) before their rows were taken back.
func (k *Checkpoints) Restore() { k.aside.Restore() }

// Options returns o with k's checkpoints and resume: Save, Every and
// AtEnd when Path is set, Resume, and a Start that, for a resumed run,
// calls takeBack with the files set aside (to copy the rows the
// checkpoint counted into the new files, rundir.Aside.CopyRows), removes
// the copies, notes the resume, and then calls o.Start. A failed
// take-back puts the files set aside back. o.Sync should make the
// streamed files durable: a checkpoint never counts a row a crash could
// lose.
func (k *Checkpoints) Options(o Options, takeBack func(a *rundir.Aside) error) Options {
	start := o.Start
	o.Resume = k.Resume
	o.Start = func(e *batch.Engine, resumed bool) error {
		if resumed {
			if err := takeBack(k.aside); err != nil {
				k.aside.Restore()
				return err
			}
			k.aside.Remove()
		}
		if start != nil {
			if err := start(e, resumed); err != nil {
				return err
			}
		}
		if resumed {
			k.note("resuming %s after %s\n", k.ResumePath, Place(e))
		}
		return nil
	}
	if k.Path != "" {
		o.Save, o.Every, o.AtEnd = k.save, k.Every, true
	}
	return o
}

// save writes a checkpoint to Path, with a note for those of the cadence.
func (k *Checkpoints) save(data []byte, e *batch.Engine, why Why) error {
	if err := rundir.WriteBytes(k.Path, data); err != nil {
		return fmt.Errorf("the checkpoint: %w", err)
	}
	if why == OnCadence && !k.Quiet {
		k.note("checkpoint %s written after %s\n", k.Path, Place(e))
	}
	return nil
}

// note writes a line to Notes, if any.
func (k *Checkpoints) note(format string, args ...any) {
	if k.Notes == nil {
		return
	}
	prog := k.Program
	if prog == "" {
		prog = "runloop"
	}
	fmt.Fprintf(k.Notes, prog+": "+format, args...)
}

// Place says how far an engine got: "12 of 150 scans".
func Place(e *batch.Engine) string {
	return fmt.Sprintf("%d of %d scans", e.Scans(), e.Config().Scans)
}
