package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/internal/cliflag"
	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/runloop"
	"github.com/ptbatch/ptbatch/runout"
)

// Checkpoint and resume of `ptbatch run` (README, "Checkpoint and resume").
//
// --checkpoint FILE writes the engine's complete state (batch
// Engine.MarshalBinary: versioned, with the configuration's description
// and a SHA-256 checksum) to FILE every --checkpoint-every (scans or wall
// time), when SIGINT or SIGTERM stops the run (the state within the scan
// under way), and at the end; each write goes to a temporary file in FILE's
// directory, synced, then renamed over FILE, so FILE always holds a whole
// checkpoint. --resume FILE restores it (batch.Restore) into a run of the
// same flags (--workers and --pin may differ) and goes on; the files that
// grow as the run goes (samples.csv, index.csv) are cut back to the rows
// the checkpoint counted, so the output is the uninterrupted run's, byte
// for byte, timings aside.

// checkpointFlags are --checkpoint, --checkpoint-every and --resume.
type checkpointFlags struct {
	path, every, resume string

	cadence runloop.Cadence // of --checkpoint-every
	data    []byte          // the checkpoint of --resume
}

// defaultCheckpointEvery is the default of --checkpoint-every: often
// enough that a preempted job loses little, rarely enough that writing the
// state costs nothing noticeable.
const defaultCheckpointEvery = "10m"

// addCheckpointFlags declares the flags.
func addCheckpointFlags(c *cmdFlags, f *checkpointFlags) {
	c.String(&f.path, "checkpoint", "", "write the run's complete state to FILE every --checkpoint-every, when SIGINT or SIGTERM stops the run, and at its end (atomically: a temporary file, then a rename); continue it with --resume FILE")
	c.String(&f.every, "checkpoint-every", defaultCheckpointEvery, "--checkpoint: how often, as a number of scans (such as 20) or a wall-clock time (such as 90s, 10m or 1h)")
	c.String(&f.resume, "resume", "", "continue the run whose checkpoint is FILE, with the same flags as the run that wrote it (--workers may differ); the output is that of the run never stopped, timings aside")
}

// check checks the flags' values and that FILE's directory can be
// written; readResume reads the checkpoint of --resume later, once the
// paths are checked (paths.go).
func (f *checkpointFlags) check(c *cmdFlags) error {
	if c.IsSet("checkpoint-every") && f.path == "" {
		return c.bad("checkpoint-every", "applies only with --checkpoint FILE")
	}
	var err error
	switch f.cadence, err = runloop.ParseCadence(f.every); {
	case errors.Is(err, runloop.ErrNoScans):
		return c.bad("checkpoint-every", "need at least 1 scan")
	case err != nil:
		return c.bad("checkpoint-every", "want a number of scans (such as 20) or a positive duration (such as 10m)")
	case f.path == "":
		return nil
	}
	switch err := runloop.CheckPath(f.path); {
	case errors.Is(err, runloop.ErrIsDir):
		return c.bad("checkpoint", "is a directory; want a file")
	case err != nil:
		return c.bad("checkpoint", "cannot write in its directory: %v", unwrapPath(err))
	}
	return nil
}

// readResume reads the checkpoint of --resume (runloop.ReadCheckpoint):
// a regular file (not a FIFO, which would block, nor a device such as
// /dev/zero, which never ends) of at most limit bytes, the memory the run
// may use (issue 26, cause 6).
func (f *checkpointFlags) readResume(c *cmdFlags, limit int64) error {
	if f.resume == "" {
		return nil
	}
	data, err := runloop.ReadCheckpoint(f.resume, limit)
	var nr *runloop.NotRegularError
	var large *runloop.TooLargeError
	switch {
	case errors.As(err, &nr):
		return c.bad("resume", "is not a regular file (%s); want the checkpoint file written by --checkpoint", runloop.FileKind(nr.Mode))
	case errors.As(err, &large):
		return c.bad("resume", "holds %s, more than the memory limit of %s: it is not a checkpoint this run can restore", cliflag.FormatBytes(large.Size), cliflag.FormatBytes(limit))
	case err != nil:
		return c.bad("resume", "cannot read the checkpoint: %v", unwrapPath(err))
	}
	f.data = data
	return nil
}

// streamed are the output files that grow as the run goes, which a resume
// cuts back to the checkpoint's rows (rundir.SetAside).
var streamed = []string{"samples.csv", "index.csv"}

// checkpointer holds the checkpoints of a run (runloop.Checkpoints) and
// the flags whose names its refusals give.
type checkpointer struct {
	runloop.Checkpoints
	f   *checkpointFlags
	c   *cmdFlags
	out string
}

// startCheckpoints prepares the checkpoints of a run; it must be called
// once --out is held and before the streamed files are created. For a
// resume, it sets the streamed files of --out aside, so that the run's
// new files can take back the rows the checkpoint counted.
func startCheckpoints(f *runFlags, stderr io.Writer) (*checkpointer, error) {
	k := &checkpointer{f: &f.ck, c: f.flags, out: f.out, Checkpoints: runloop.Checkpoints{Path: f.ck.path, Resume: f.ck.data,
		ResumePath: f.ck.resume, Every: f.ck.cadence,
		Notes: stderr, Program: "ptbatch", Quiet: f.quiet}}
	if f.ck.resume == "" || f.out == "" {
		return k, nil
	}
	return k, k.SetAside(f.out, streamed...)
}

// options are the runloop.Options of the run (runloop.Checkpoints.Options):
// its progress, its checkpoints (after syncing the streamed files), and
// its resume, which takes the streamed files' rows back (runout.TakeBack)
// before begun (which writes the manifest).
func (k *checkpointer) options(cfg batch.Config, prog func(batch.Progress), samples *runout.SampleWriter, stats *runStats, begun func() error) runloop.Options {
	o := runloop.Options{Progress: prog, Sync: func() error { return runout.SyncStreamed(samples, stats.Index) },
		Start: func(*batch.Engine, bool) error { return begun() }}
	return k.Options(o, func(a *rundir.Aside) error {
		return k.resumeRows(runout.TakeBack(a.CopyRows, cfg, samples, stats.Index))
	})
}

// finish turns runloop.Run's answer into the run's: a refused checkpoint
// as a usage error naming --resume (the streamed files put back), and an
// interrupted run with a checkpoint says how to continue it.
func (k *checkpointer) finish(res *batch.Result, err error) (*batch.Result, error) {
	var re *runloop.RestoreError
	if errors.As(err, &re) {
		k.Restore()
		return nil, k.resumeError(re.Err)
	}
	if err != nil {
		return nil, err
	}
	if k.f.path != "" && res.Interrupted {
		// Also when the signal came just after a checkpoint of the
		// cadence, which is then the state to resume from.
		fmt.Fprintf(k.Notes, "ptbatch: checkpoint %s written after %d of %d scans; continue with --resume %s\n", k.f.path, res.Scans, res.Config.Scans, k.f.path)
	}
	return res, nil
}

// resumeRows words the refusals of the take-back as usage errors naming
// --resume and --out.
func (k *checkpointer) resumeRows(err error) error {
	var short *rundir.ShortError
	var none *rundir.NotAsideError
	switch {
	case errors.As(err, &none):
		return usagef("invalid --resume %q: the checkpoint counts %d rows of %s, which is not in --out %q", k.f.resume, none.Rows, none.Name, k.out)
	case errors.As(err, &short):
		return usagef("invalid --resume %q: %s in --out %q holds %d rows, the checkpoint counts %d: it is not the file of the run that wrote the checkpoint", k.f.resume, short.Name, k.out, short.Have, short.Want)
	}
	return err
}

// resumeFlags names the flags of the Config fields that configFlags does
// not map.
var resumeFlags = map[string]string{"TuneSchedule": "tune-schedule", "TunePath": "path", "Replicates": "replicates"}

// resumeError turns a refused checkpoint into a usage error naming
// --resume and, for another configuration, the flag that differs.
func (k *checkpointer) resumeError(err error) error {
	var ce *batch.CheckpointError
	if !errors.As(err, &ce) {
		return configUsage(k.c, err)
	}
	bad := func(format string, args ...any) error { return k.c.bad("resume", format, args...) }
	switch ce.Problem {
	case batch.NotCheckpoint:
		return bad("not a ptbatch checkpoint")
	case batch.Truncated:
		return bad("the checkpoint is truncated (%s): was it copied whole?", ce.Detail)
	case batch.Corrupted:
		return bad("the checkpoint is corrupted (%s)", ce.Detail)
	case batch.OtherFormat:
		return bad("the checkpoint is in format %s; this ptbatch reads format %s", ce.Checkpoint, ce.Current)
	case batch.OtherVersion:
		return bad("the checkpoint was written by %s; this is %s: resume with the program that wrote it", ce.Checkpoint, ce.Current)
	}
	switch ce.Field {
	case "Statistics":
		return bad("the run that wrote the checkpoint had other outputs; give the same --json, --out, --thin and --record flags")
	case "Model":
		return bad("the run that wrote the checkpoint had the model %s; this one has %s", ce.Checkpoint, ce.Current)
	case "FirstReplicate":
		return bad("the run that wrote the checkpoint began at replicate %s; this one at %s (another shard?)", ce.Checkpoint, ce.Current)
	}
	name := ce.Field
	if flag, ok := configFlags[ce.Field]; ok {
		name = "--" + flag
	} else if flag, ok := resumeFlags[ce.Field]; ok {
		name = "--" + flag
	}
	return bad("the run that wrote the checkpoint had %s %s; this one has %s %s", name, ce.Checkpoint, name, ce.Current)
}
