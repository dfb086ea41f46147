package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	var out *sweepOut
	if f.out != "" {
		if out, err = openSweepOut(c, f, s, sh, units, stderr); err != nil {
			return err
		}
		defer out.close()
	}
	for _, w := range warnings { // once nothing can be refused: a refusal is one line
		fmt.Fprintf(stderr, "ptbatch: %s\n", w)
	}
	if out != nil {
		if out.job.m.Complete {
			fmt.Fprintf(stderr, "ptbatch: the sweep in %s is complete; nothing to resume\n", f.out)
			return nil
		}
		lo = out.job.m.Done
	}
	sh.note(stderr, lo, hi, units, sweepUnits+" units")
	return executeSweep(ctx, f, s, cells, lo, hi, out, stdout, stderr)
}

// executeSweep runs the units [lo, hi) of the sweep with study.Execute,
// printing a line per finished piece and appending its rows to out.
func executeSweep(ctx context.Context, f *sweepFlags, s *sweep.Spec, cells []sweep.Cell, lo, hi int, out *sweepOut, stdout, stderr io.Writer) error {
	var interrupted error
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "d\tchains\tK\tseed\treplicates\trate, last scan (95% CI)\trate, whole run\tbarrier\tlinear bound\tseconds\t")
	plan := s.Plan(cells)
	pieces := plan.Range(lo, hi)
	finished := 0
	o := study.Options{Workers: f.workers, NoLogZ: true, Result: func(pc study.Piece, res *batch.Result) error {
		finished++
		return sweepCellDone(s, cells[pc.Run], pc, res, out, tw)
	}}
	if !f.quiet {
		o.Progress = sweepProgress(stderr, cells)
	}
	switch _, err := study.Execute(ctx, &plan, pieces, o); {
	case errors.Is(err, study.ErrInterrupted):
		interrupted = interruptedf("interrupted in cell %d of %d; the output reports the cells completed before it", pieces[finished].Run+1, len(cells))
	case err != nil:
		return err
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if out != nil {
		if err := out.finish(s, f, len(cells), interrupted != nil); err != nil {
			return err
		}
	}
	return interrupted
}

// sweepOut is a sweep's --out directory: the lock and manifest (job), and
// cells.csv and summary.csv, appended to as cells end.
type sweepOut struct {
	job            *job
	cells, summary *rundir.Appender
}

func openSweepOut(c *cmdFlags, f *sweepFlags, s *sweep.Spec, sh *shard, units int, stderr io.Writer) (*sweepOut, error) {
	m, err := newManifestOf("sweep", s.Settings(), c, nil, sh, sweepUnits, units)
	if err != nil {
		return nil, err
	}
	var old *manifest
	if f.resume {
		prev, err := readManifest(f.out)
		switch {
		case errors.Is(err, os.ErrNotExist):
			fmt.Fprintf(stderr, "ptbatch: no sweep in %s to resume: starting it\n", f.out)
		case err != nil:
			return nil, c.bad("out", "cannot resume: %v", err)
		case m.Resumes(prev) != nil:
			return nil, c.bad("out", "%v", m.Resumes(prev)) // rundir's sentence
		default:
			old = prev
		}
	}
	// A resumed sweep's manifest keeps the old state until the files are
	// cut back to it (a kill in between resumes from the same place).
	fresh, prior := old == nil || old.Files["cells.csv"].Size == 0 || old.Files["summary.csv"].Size == 0, 0.0
	if !fresh {
		if err := checkSweepFiles(c, f.out, old.Files); err != nil {
			return nil, err
		}
		m.Done, m.Complete, m.Interrupted, m.Files, prior = old.Done, old.Complete, old.Interrupted, old.Files, old.ElapsedSeconds
	}
	j, err := startJob(c, f.out, m, prior, fresh, stderr)
	if err != nil {
		return nil, err
	}
	o := &sweepOut{job: j}
	if o.cells, err = openSweepFile(j, "cells.csv", sweep.CellsHeader, fresh); err == nil {
		o.summary, err = openSweepFile(j, "summary.csv", sweep.SummaryHeader, fresh)
	}
	if err == nil {
		m.Interrupted = false
		err = j.WriteManifest()
	}
	if err != nil {
		o.close()
		return nil, err
	}
	if !fresh && !old.Complete {
		fmt.Fprintf(stderr, "ptbatch: resuming the sweep in %s after %d of its %d %s units\n", f.out, old.Done-old.First, old.End-old.First, sweepUnits)
	}
	return o, nil
}

// checkSweepFiles refuses to resume a sweep whose cells.csv or
// summary.csv is missing, not a regular file, or shorter than its
// manifest records (deleted or truncated since): one line, exit 2, before
// anything in the directory is written (issue 26, cause 8).
func checkSweepFiles(c *cmdFlags, dir string, files map[string]rundir.FileSum) error {
	for _, name := range []string{"cells.csv", "summary.csv"} {
		st, err := os.Lstat(filepath.Join(dir, name))
		switch {
		case errors.Is(err, os.ErrNotExist):
			return c.bad("resume", "cannot continue the sweep in --out %q: its %s is missing, and its manifest records %d bytes of it; start again without --resume, or give another --out", dir, name, files[name].Size)
		case err != nil:
			return c.bad("resume", "cannot continue the sweep in --out %q: %v", dir, unwrapPath(err))
		case st.Mode()&os.ModeSymlink != 0:
			return c.bad("resume", "cannot continue the sweep in --out %q: its %s is a symbolic link: ptbatch writes no output through a link; remove it", dir, name)
		case !st.Mode().IsRegular():
			return c.bad("resume", "cannot continue the sweep in --out %q: its %s is not a regular file (%s)", dir, name, fileKind(st.Mode()))
		case st.Size() < files[name].Size:
			return c.bad("resume", "cannot continue the sweep in --out %q: its %s holds %d bytes, fewer than the %d its manifest records (it was changed); start again without --resume, or give another --out", dir, name, st.Size(), files[name].Size)
		}
	}
	return nil
}

// add appends a finished cell's rows and records in the manifest that the
// units before done are written.
func (o *sweepOut) add(rows [][]string, summary []string, done int) error {
	b, err := csvBytes(rows)
	if err == nil {
		err = o.cells.Add(b)
	}
	if err != nil {
		return err
	}
	if b, err = csvBytes([][]string{summary}); err == nil {
		err = o.summary.Add(b)
	}
	if err != nil {
		return err
	}
	return o.job.Progress(done)
}

// finish writes summary.json and the final manifest.
func (o *sweepOut) finish(s *sweep.Spec, f *sweepFlags, numCells int, interrupted bool) error {
	m := o.job.m
	r := sweep.Report{Cells: numCells, Completed: sweep.CellsWithin(m.First, m.Done, f.replicates), Interrupted: interrupted,
		Elapsed: o.job.Elapsed(), Workers: f.workers, Out: f.out}
	if err := writeSweepJSON(o.job.dir.file("summary.json"), s, r); err != nil {
		return err
	}
	return o.job.Finish(m.Done, interrupted)
}

// writeSweepJSON writes the sweep's summary.json (sweep.Spec.WriteJSON)
// atomically.
func writeSweepJSON(path string, s *sweep.Spec, r sweep.Report) error {
	return writeFileAtomic(path, func(w io.Writer) error { return s.WriteJSON(w, r) })
}

// openSweepFile opens the sweep's file name for appending: afresh with
// header, or cut back to what the manifest records (and checked against
// its checksum) for a resume.
func openSweepFile(j *job, name string, header []string, fresh bool) (*rundir.Appender, error) {
	hdr, err := csvBytes([][]string{header})
	if err != nil {
		return nil, err
	}
	var resume *rundir.FileSum
	if !fresh {
		s := j.m.Files[name]
		resume = &s
	}
	a, err := rundir.OpenAppender(j.dir.file(name), hdr, resume)
	switch {
	case errors.Is(err, rundir.ErrChecksum):
		return nil, usagef("cannot resume: %v: the directory was changed; start again without --resume", err)
	case errors.Is(err, rundir.ErrSymlink):
		return nil, usagef("cannot write %v", err)
	}
	return a, err
}

// close closes the files and releases the directory.
func (o *sweepOut) close() {
	o.cells.Close()
	o.summary.Close()
	o.job.close()
}

// mergeSweep writes the merged output of a sweep's shards from their data:
// the sweep's Spec from the configuration the manifests record and
// fingerprint (sweep.Spec.Settings; never the arguments), cells.csv the shards' rows in order
// (a shard's rows are the units it computed, in the order of the grid),
// summary.csv summarized from them cell by cell as the sweep does, and
// summary.json the sweep's.
func mergeSweep(shards []shardDir, out string, m *manifest) error {
	where := filepath.Join(shards[0].dir, manifestName)
	s, err := sweep.FromConfig(m.Config)
	if err != nil {
		return usagef("rebuilding the sweep from %s: %v", where, err)
	}
	cells := s.Cells()
	if len(cells)*s.Replicates != m.Units {
		return fmt.Errorf("the sweep of %s has %d units, its manifest says %d", where, len(cells)*s.Replicates, m.Units)
	}
	parts := make([]sweep.ShardCells, len(shards))
	for i, sd := range shards {
		parts[i] = sweep.ShardCells{Dir: sd.dir, First: sd.m.First, End: sd.m.End,
			Read: func() ([]byte, error) { return readShardFile(sd, "cells.csv") }}
	}
	lines, summary, err := s.Join(cells, parts)
	switch {
	case errors.Is(err, sweep.ErrRows):
		return usagef("%v", err)
	case err != nil:
		return err
	}
	if err := writeFileAtomic(filepath.Join(out, "cells.csv"), func(w io.Writer) error {
		return sweep.WriteCells(w, lines)
	}); err != nil {
		return err
	}
	if err := writeCSV(filepath.Join(out, "summary.csv"), summary); err != nil {
		return err
	}
	r := sweep.Report{Cells: len(cells), Completed: len(cells), Elapsed: m.ElapsedSeconds, Out: out}
	return writeSweepJSON(filepath.Join(out, "summary.json"), s, r)
}
