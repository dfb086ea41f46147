package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/study"
	"github.com/ptbatch/ptbatch/sweep"
)

// sweepUnits is the unit of a sweep's shards: cell-major, replicate b of
// cell i is unit i·replicates + b.
const sweepUnits = "cell × replicate"

// runSweep is `ptbatch sweep`: a grid over dimension, chains, knots and
// seeds of the high-dimensional Gaussian experiment (the paper's Figure 5),
// or of another model (package sweep). Every cell is checked, its memory
// included, before any runs. With --out, each cell's rows are appended to
// cells.csv and summary.csv as it ends, so a kill loses at most the cell
// under way, and --resume goes on from there. A shard (--shard i/n)
// computes its contiguous share of the cells × replicates: a cell may be
// split between shards (replicate b draws from the stream of (seed, b)
// whichever process computes it).
func runSweep(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := &sweepFlags{}
	c := newSweepFlagSet(f)
	if err := c.parse(args, stdout, sweepIntro); err != nil {
		return err
	}
	cells, s, warnings, err := sweepGrid(c, f)
	if err != nil {
		return err
	}
	units := len(cells) * f.replicates
	sh, err := resolveShard(c, &f.shard)
	switch {
	case err != nil:
		return err
	case sh != nil && f.out == "":
		return usagef("invalid shard %d/%d (%s): a shard writes its cells into --out DIR for ptbatch merge; give --out", sh.index, sh.count, sh.source)
	case f.resume && f.out == "":
		return c.bad("resume", "continues the sweep in --out DIR; give --out")
	}
	if err := sh.check(units, sweepUnits+" units"); err != nil {
		return err
	}
	lo, hi := sh.share(units)
	var out *sweep.Out
	var j *rundir.Job
	if f.out != "" {
		if j, out, err = openSweepOut(c, f, s, sh, units, stderr); err != nil {
			return err
		}
		defer j.Close()
		defer out.Close()
	}
	for _, w := range warnings { // once nothing can be refused: a refusal is one line
		fmt.Fprintf(stderr, "ptbatch: %s\n", w)
	}
	if j != nil {
		if j.Manifest.Complete {
			fmt.Fprintf(stderr, "ptbatch: the sweep in %s is complete; nothing to resume\n", f.out)
			return nil
		}
		lo = j.Manifest.Done
	}
	sh.note(stderr, lo, hi, units, sweepUnits+" units")
	return executeSweep(ctx, f, s, cells, lo, hi, out, stdout, stderr)
}

// executeSweep runs the units [lo, hi) of the sweep (sweep.Spec.Execute),
// printing a line per finished piece and appending its rows to out.
func executeSweep(ctx context.Context, f *sweepFlags, s *sweep.Spec, cells []sweep.Cell, lo, hi int, out *sweep.Out, stdout, stderr io.Writer) error {
	var interrupted error
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "d\tchains\tK\tseed\treplicates\trate, last scan (95% CI)\trate, whole run\tbarrier\tlinear bound\tseconds\t")
	o := study.Options{Workers: f.workers}
	if !f.quiet {
		o.Progress = sweep.ProgressPrinter(stderr, cells)
	}
	switch cell, err := s.Execute(ctx, cells, lo, hi, out, o, func(c sweep.Cell, res *batch.Result, m sweep.Summary) error {
		_, err := fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%.4f ± %.4f\t%.4f ± %.4f\t%.2f\t%.4f\t%.1f\t\n", c.Dim, c.Chains, c.Knots, c.Seed, res.Config.Replicates,
			m.Rate, m.RateCI, m.RunRate, m.RunRateCI, m.Barrier, s.Bound(c), res.Elapsed.Seconds())
		return err
	}); {
	case errors.Is(err, study.ErrInterrupted):
		interrupted = interruptedf("interrupted in cell %d of %d; the output reports the cells completed before it", cell+1, len(cells))
	case err != nil:
		return err
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := out.Finish(len(cells), interrupted != nil, f.workers, f.out); err != nil {
		return err
	}
	return interrupted
}

// openSweepOut takes --out for the sweep (resumed with --resume) and opens
// its files (sweep.Open), refusals in one line.
func openSweepOut(c *cmdFlags, f *sweepFlags, s *sweep.Spec, sh *shard, units int, stderr io.Writer) (*rundir.Job, *sweep.Out, error) {
	m, err := newManifest("sweep", s.Settings(), c, nil, sh, sweepUnits, units)
	if err != nil {
		return nil, nil, err
	}
	var startErr error
	j, out, err := sweep.Open(f.out, s, m, sweep.Opening{Resume: f.resume, Notes: stderr, Start: func(prior float64, fresh bool) (*rundir.Job, error) {
		j, err := startJob(c, f.out, m, prior, fresh, stderr)
		startErr = err
		return j, err
	}})
	var re *sweep.ResumeError
	switch {
	case errors.As(err, &re):
		err = sweepResumeError(c, err)
	case err == startErr:
	case errors.Is(err, sweep.ErrResumeChanged):
		err = usagef("cannot resume: %v: the directory was changed; start again without --resume", err)
	case errors.Is(err, rundir.ErrSymlink):
		err = usagef("cannot write %v", err)
	}
	return j, out, err
}

// sweepResumeError is the one-line refusal of a sweep.ResumeError, naming
// --out or --resume (issue 26, cause 8).
func sweepResumeError(c *cmdFlags, err error) error {
	var e *sweep.ResumeError
	switch {
	case !errors.As(err, &e):
		return err
	case e.Why == sweep.Unreadable:
		return c.bad("out", "cannot resume: %v", e.Err)
	case e.Why == sweep.OtherJob:
		return c.bad("out", "%v", e.Err) // rundir's sentence
	case e.Why == sweep.Unstatable:
		return c.bad("resume", "cannot continue the sweep in --out %q: %v", e.Dir, unwrapPath(e.Err))
	}
	advice := "; start again without --resume, or give another --out"
	switch e.Why {
	case sweep.Link:
		advice = ": ptbatch writes no output through a link; remove it"
	case sweep.NotRegular:
		advice = ""
	}
	return c.bad("resume", "cannot continue the sweep in --out %q: its %s %s%s", e.Dir, e.File, e.Reason(), advice)
}

// mergeSweep writes the merged output of a sweep's shards from their data
// (sweep.Merge), for merge.go.
func mergeSweep(_ context.Context, out string, shards []rundir.Shard, m *rundir.Manifest) error {
	var me *sweep.MergeError
	switch err := sweep.Merge(out, shards, m); {
	case errors.As(err, &me) || errors.Is(err, sweep.ErrRows):
		return usagef("%v", err)
	default:
		return err
	}
}
