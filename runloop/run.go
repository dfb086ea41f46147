package runloop

import (
	"context"
	"time"

	"github.com/ptbatch/ptbatch/batch"
)

// Cadence says how often Run writes a checkpoint while the run goes on:
// after every Scans scans since the last checkpoint (or the start), or
// once Wall has passed since then, whichever comes first. The zero
// Cadence writes none but those of an interruption and of the end.
type Cadence struct {
	Scans int           // scans between checkpoints; 0: not by scans
	Wall  time.Duration // wall time between checkpoints; 0: not by time
}

// Why says which checkpoint Options.Save receives.
type Why int

const (
	// OnCadence is a checkpoint of Options.Every, after a whole scan.
	OnCadence Why = iota
	// OnInterrupt is the checkpoint of a run the context ended: its state
	// within the scan under way, from which Restore goes on.
	OnInterrupt
	// AtEnd is the checkpoint of the finished run (Options.AtEnd).
	AtEnd
)

// Options are the settings of Run; the zero Options runs the engine to
// its end as batch.Run does.
type Options struct {
	// Resume, when not nil, is a checkpoint (batch.Engine.MarshalBinary)
	// that Run restores (batch.Restore) instead of starting a new engine.
	Resume []byte
	// Start, when not nil, is called once the engine is built or restored
	// and before its first step; resumed is true for a restored one. An
	// error ends Run with it.
	Start func(e *batch.Engine, resumed bool) error
	// Progress, when not nil, is called after every scan.
	Progress func(batch.Progress)
	// Save, when not nil, stores a checkpoint: every Every, when the
	// context ends the run, and at its end when AtEnd is set. Nil: no
	// checkpoints.
	Save func(data []byte, e *batch.Engine, why Why) error
	// Every is the cadence of the checkpoints while the run goes on.
	Every Cadence
	// AtEnd asks for a checkpoint of the finished run too (unless the
	// last scan's cadence checkpoint is already it).
	AtEnd bool
	// Sync, when not nil, is called before every checkpoint is taken:
	// it flushes and syncs what the run streams, so that the rows the
	// checkpoint counts are on disk.
	Sync func() error
	// Now is the clock of Every.Wall and of Progress.Elapsed; nil is
	// time.Now. A test gives its own to decide when time has passed.
	Now func() time.Time
}

// RestoreError is Run's error when Options.Resume is refused by
// batch.Restore (Err: a *batch.CheckpointError, or a configuration or
// memory error of the restored run).
type RestoreError struct{ Err error }

// Error returns Err's text.
func (e *RestoreError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *RestoreError) Unwrap() error { return e.Err }

// Run builds the engine of cfg (new, or restored from o.Resume), steps it
// to its end or until ctx ends, with the progress and checkpoints of o,
// and returns its Result: when ctx ended the run, the result of the scans
// completed, with Interrupted set, and no error. An error of New is
// returned as is, one of Restore as a *RestoreError.
func Run(ctx context.Context, cfg batch.Config, o Options) (*batch.Result, error) {
	e, err := start(cfg, o.Resume)
	if err != nil {
		return nil, err
	}
	if o.Start != nil {
		if err := o.Start(e, o.Resume != nil); err != nil {
			return nil, err
		}
	}
	if err := Drive(ctx, e, o); err != nil {
		return nil, err
	}
	return e.Result(), nil
}

// start returns a new engine, or the one restored from resume.
func start(cfg batch.Config, resume []byte) (*batch.Engine, error) {
	if resume == nil {
		return batch.New(cfg)
	}
	e, err := batch.Restore(cfg, resume)
	if err != nil {
		return nil, &RestoreError{err}
	}
	return e, nil
}

// Drive steps e to its end or until ctx ends, with the progress and
// checkpoints of o (o.Resume and o.Start are Run's and ignored here). A
// Step's error other than ctx's ends it; ctx's is not an error: Drive
// then writes the checkpoint of the interrupted scan (unless the cadence
// has just written it) and returns nil, and e.Done() is false.
func Drive(ctx context.Context, e *batch.Engine, o Options) error {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	t0 := now()
	k := &saver{o: &o, e: e, scan: e.Scans(), at: t0}
	scans := e.Config().Scans
	for !e.Done() && ctx.Err() == nil {
		k.written = false
		if err := e.Step(ctx); err != nil {
			if ctx.Err() != nil {
				break
			}
			return err
		}
		if o.Progress != nil {
			o.Progress(batch.Progress{Scan: e.Scans(), Scans: scans, Elapsed: now().Sub(t0)})
		}
		if !e.Done() && k.due(now()) {
			if err := k.save(OnCadence, now()); err != nil {
				return err
			}
		}
	}
	switch {
	case k.written:
	case !e.Done():
		return k.save(OnInterrupt, now())
	case o.AtEnd:
		return k.save(AtEnd, now())
	}
	return nil
}

// saver writes Drive's checkpoints and keeps when it wrote the last.
type saver struct {
	o       *Options
	e       *batch.Engine
	scan    int       // the engine's scans at the last checkpoint
	at      time.Time // and the clock's time
	written bool      // a checkpoint of the engine's present state exists
}

// due reports whether the cadence asks for a checkpoint at time t.
func (k *saver) due(t time.Time) bool {
	c := k.o.Every
	return k.o.Save != nil && ((c.Scans > 0 && k.e.Scans()-k.scan >= c.Scans) || (c.Wall > 0 && t.Sub(k.at) >= c.Wall))
}

// save syncs the streams and stores the engine's checkpoint.
func (k *saver) save(why Why, t time.Time) error {
	if k.o.Save == nil {
		return nil
	}
	data, err := k.e.MarshalBinary()
	if err != nil {
		return err
	}
	if k.o.Sync != nil {
		if err := k.o.Sync(); err != nil {
			return err
		}
	}
	if err := k.o.Save(data, k.e, why); err != nil {
		return err
	}
	k.written, k.scan, k.at = true, k.e.Scans(), t
	return nil
}
