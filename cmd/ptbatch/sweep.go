package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/study"
	"github.com/ptbatch/ptbatch/tune"
)

// sweepFlags are the settings of `ptbatch sweep`.
type sweepFlags struct {
	dims, chains, knots, seeds string
	replicates                 int
	iterations, scans          int
	lr, sigma, mu0, mu1        float64
	algorithm                  string
	model, tuning              string // --model and --tuning (sweepmodel.go)
	workers                    int
	out                        string
	quiet                      bool
	maxMemory                  int64
	resume                     bool
	shard                      shardFlags
}

// sweepCell is one point of the grid.
type sweepCell struct {
	dim, chains, knots int
	seed               uint64
	dimText            string // the dimension as typed
}

// maxSweepCells bounds the grid: every cell is a run of its own.
const maxSweepCells = 100000

func newSweepFlagSet(f *sweepFlags) *cmdFlags {
	c := newCmdFlags("sweep")
	c.String(&f.dims, "dims", "1,2,4,8,16,32,64,128,256", "comma-separated Gaussian dimensions d")
	c.String(&f.chains, "chains", "auto", "comma-separated chain counts, or auto for ⌈15√d⌉ (the paper's high-dimensional setting)")
	c.String(&f.knots, "knots", "4", "--algorithm nrpt: comma-separated spline segment counts K; 1 is NRPT on the linear path (schedule tuned), K ≥ 2 tunes the spline path")
	c.String(&f.seeds, "seeds", "1", "comma-separated seeds; each seed is a cell of its own")
	c.Int(&f.replicates, "replicates", 5, "replicates per cell, run together as SIMD lanes")
	c.Int(&f.iterations, "iterations", 50000, "iterations per cell")
	c.Int(&f.scans, "scans", 500, "scans per cell (must divide --iterations)")
	c.Float64(&f.lr, "lr", 0.2, "--algorithm nrpt with a K ≥ 2: Adagrad learning rate of the spline knots")
	c.Float64(&f.sigma, "sigma", 0.1, "standard deviation of reference and target, in [1e-100, 1e100]")
	c.Float64(&f.mu0, "mu0", -1, "reference mean (every coordinate), in [-1e100, 1e100]")
	c.Float64(&f.mu1, "mu1", 1, "target mean (every coordinate), in [-1e100, 1e100]")
	c.String(&f.algorithm, "algorithm", "nrpt", "nrpt or reversible (reversible runs untuned on the linear path, as in the paper)")
	addSweepModelFlags(c, f)
	c.Int(&f.workers, "workers", 0, "worker goroutines (default 0: all CPUs)")
	c.String(&f.out, "out", "", "directory for cells.csv (a row per cell × replicate) and summary.csv (mean and 95% CI per cell), appended as each cell ends, summary.json and manifest.json")
	c.Bool(&f.resume, "resume", false, "continue the sweep in --out where it stopped (killed, interrupted or preempted): its finished cells are kept and the rest run; starts afresh when --out holds no sweep")
	addShardFlags(c, &f.shard)
	c.Bool(&f.quiet, "quiet", false, "no progress lines on stderr")
	c.Size(&f.maxMemory, "max-memory", "refuse cells whose estimated memory exceeds this size, such as 512MiB or 4GiB (default: the available memory)")
	return c
}

const sweepIntro = `Usage: ptbatch sweep [flags]

Runs a grid of the high-dimensional Gaussian experiment, N(μ0·1, σ²I) → N(μ1·1, σ²I),
one batch of replicates per cell, and writes a tidy CSV and a summary.`

// parseList parses the comma-separated list of flag name: positive
// integers, at least min each.
func parseList(c *cmdFlags, name string, least int) ([]int, []string, error) {
	var out []int
	var texts []string
	for _, part := range strings.Split(c.show(name), ",") {
		part = strings.TrimSpace(part)
		v, err := strconv.Atoi(part)
		switch {
		case err != nil:
			return nil, nil, c.bad(name, "%q is not a whole number that fits in 64 bits (want comma-separated integers)", part)
		case v < least:
			return nil, nil, c.bad(name, "%d is below %d (want comma-separated integers of at least %d)", v, least, least)
		}
		out = append(out, v)
		texts = append(texts, part)
	}
	return out, texts, nil
}

// sweepGrid parses and checks the flags and returns the cells and their
// configurations, and the warnings to print before running.
func sweepGrid(c *cmdFlags, f *sweepFlags) ([]sweepCell, []batch.Config, []string, error) {
	if err := c.checkFinite(); err != nil {
		return nil, nil, nil, err
	}
	alg, err := batch.ParseAlgorithm(f.algorithm)
	if err != nil {
		return nil, nil, nil, c.bad("algorithm", "want nrpt or reversible")
	}
	for _, name := range c.given {
		if (name == "knots" || name == "lr") && alg == batch.Reversible {
			return nil, nil, nil, c.bad(name, "applies only to --algorithm nrpt: reversible sweeps run untuned on the linear path")
		}
	}
	if err := checkSweepModel(c, f); err != nil {
		return nil, nil, nil, err
	}
	dims, dimTexts, err := parseList(c, "dims", 1)
	if err != nil {
		return nil, nil, nil, err
	}
	if f.model != "gaussian" {
		dims, dimTexts = []int{1}, []string{"1"} // the model's own
	}
	knots := []int{1}
	if alg == batch.NRPT {
		if knots, _, err = parseList(c, "knots", 1); err != nil {
			return nil, nil, nil, err
		}
	}
	if c.set("lr") && slices.Max(knots) < 2 {
		return nil, nil, nil, c.bad("lr", "applies only to tuned spline paths: --knots %s has no K of 2 or more", c.show("knots"))
	}
	var chainList []int
	if f.chains != "auto" {
		if chainList, _, err = parseList(c, "chains", 2); err != nil {
			return nil, nil, nil, err
		}
	}
	var seeds []uint64
	for _, part := range strings.Split(f.seeds, ",") {
		v, err := strconv.ParseUint(strings.TrimSpace(part), 10, 64)
		if err != nil {
			return nil, nil, nil, c.bad("seeds", "%q is not a seed (want comma-separated integers from 0 to 18446744073709551615)", strings.TrimSpace(part))
		}
		seeds = append(seeds, v)
	}
	switch {
	case f.replicates < 1:
		return nil, nil, nil, c.bad("replicates", "need at least 1 replicate")
	case f.scans < 1:
		return nil, nil, nil, c.bad("scans", "need at least 1 scan")
	case f.iterations < f.scans:
		return nil, nil, nil, c.bad("iterations", "need at least one iteration per scan (--scans %s)", c.show("scans"))
	case f.iterations%f.scans != 0:
		return nil, nil, nil, c.bad("iterations", "must be a multiple of --scans (%s) so that scans are equal", c.show("scans"))
	case f.workers < 0:
		return nil, nil, nil, c.bad("workers", "need 0 (all CPUs) or more")
	}
	nChains := max(len(chainList), 1)
	if n, err := mulBytes(int64(len(dims)), int64(nChains), int64(len(knots)), int64(len(seeds))); err != nil || n > maxSweepCells {
		lists := map[string]int{"dims": len(dims), "chains": len(chainList), "knots": len(knots), "seeds": len(seeds)}
		name := "seeds"
		for _, l := range []string{"dims", "chains", "knots"} {
			if lists[l] > lists[name] {
				name = l
			}
		}
		return nil, nil, nil, usagef("invalid --%s with %d values: the grid --dims × --chains × --knots × --seeds has more than %d cells, each a run of its own; split the sweep",
			name, lists[name], maxSweepCells)
	}
	names := gaussFlags{"dims", "mu0", "mu1", "sigma", "sigma"}
	var warnings []string
	if alg == batch.NRPT && slices.Max(knots) >= 2 && f.tuning == "paper" {
		if err := checkLR(c, "lr", f.lr, f.scans, &warnings); err != nil {
			return nil, nil, nil, err
		}
	}
	var cells []sweepCell
	var cfgs []batch.Config
	var need int64
	var needErr, knotsErr error
	for i, d := range dims {
		if f.model != "gaussian" {
			// --dims does not apply: one dimension, the model's (sweepmodel.go).
		} else if err := checkGaussian(c, names, dimTexts[i], d, f.mu0, f.mu1, f.sigma, f.sigma); err != nil {
			return nil, nil, nil, err
		}
		cs := chainList
		if cs == nil {
			ch := math.Ceil(15 * math.Sqrt(float64(d)))
			if ch > maxChains {
				return nil, nil, nil, usagef("invalid --dims %s: --chains auto gives ⌈15√d⌉ = %.0f chains, more than %d (replica numbers are 32-bit)", dimTexts[i], ch, maxChains)
			}
			cs = []int{int(ch)}
		}
		for _, ch := range cs {
			if ch > maxChains {
				return nil, nil, nil, usagef("invalid --chains %d: at most %d chains (replica numbers are 32-bit)", ch, maxChains)
			}
			for _, k := range knots {
				if k > ch-1 && knotsErr == nil {
					chainsText := strconv.Itoa(ch)
					if chainList == nil {
						chainsText = fmt.Sprintf("%d (auto, d = %s)", ch, dimTexts[i])
					}
					knotsErr = knotsLimit(c, k, ch, chainsText)
				}
				for _, seed := range seeds {
					cfg, err := sweepConfig(f, sweepCell{d, ch, k, seed, dimTexts[i]})
					if err != nil {
						return nil, nil, nil, usagef("invalid --dims %s: %v", dimTexts[i], err)
					}
					if needErr == nil {
						var n int64
						if n, needErr = batch.EstimateMemory(cfg); n > need {
							need = n
						}
					}
					cells = append(cells, sweepCell{d, ch, k, seed, dimTexts[i]})
					cfgs = append(cfgs, cfg)
				}
			}
		}
	}
	if needErr == nil {
		// One cell's CSV rows (the rows are appended to the files as each
		// cell ends): 13 fields per replicate.
		var rows int64
		if rows, needErr = mulBytes(int64(f.replicates)+1, 13*(24+16)); needErr == nil {
			need, needErr = addBytes(need, rows)
		}
	}
	maxOf := func(xs []int) float64 { return float64(slices.Max(append([]int{0}, xs...))) }
	if err := checkMemory(c, f.maxMemory, need, needErr, []sizeFlag{
		{"dims", maxOf(dims), 256}, {"chains", maxOf(chainList), 240}, {"knots", maxOf(knots), 4},
		{"replicates", float64(f.replicates), 5}, {"iterations", float64(f.iterations), 50000}, {"scans", float64(f.scans), 500},
	}); err != nil {
		return nil, nil, nil, err
	}
	if knotsErr != nil {
		return nil, nil, nil, knotsErr
	}
	for i := range cfgs {
		if err := cfgs[i].Validate(); err != nil {
			return nil, nil, nil, configUsage(c, err)
		}
	}
	if f.out != "" {
		if err := checkOut(c, "out", f.out); err != nil {
			return nil, nil, nil, err
		}
	}
	return cells, cfgs, warnings, nil
}

// cellsHeader and summaryHeader are the columns of cells.csv and
// summary.csv.
var (
	cellsHeader = []string{"dim", "chains", "knots", "seed", "replicate", "round_trip_rate", "round_trip_rate_run",
		"round_trips", "barrier", "nonasymptotic_barrier", "skl", "tau_predicted", "linear_bound"}
	summaryHeader = []string{"dim", "chains", "knots", "seed", "replicates", "round_trip_rate_mean", "round_trip_rate_ci95",
		"round_trip_rate_run_mean", "round_trip_rate_run_ci95", "barrier_mean", "barrier_ci95", "tau_predicted_mean", "linear_bound"}
)

// cellValues are the per-replicate values of a cell that summary.csv
// summarizes.
type cellValues struct {
	rates, runRates, barriers, taus []float64
}

// summaryRow returns the cell's summary.csv row: means and 95% CIs over
// the replicates of v. A sweep computes it from the values it measured, a
// merge from cells.csv, whose numbers are written exactly ('g', -1), so
// the two give the same bytes.
func summaryRow(c sweepCell, v cellValues, bound float64) (row []string, rm, rci, qm, qci, bm float64) {
	rm, rci = meanCI(v.rates)
	qm, qci = meanCI(v.runRates)
	bm, bci := meanCI(v.barriers)
	row = []string{itoa(c.dim), itoa(c.chains), itoa(c.knots), strconv.FormatUint(c.seed, 10),
		itoa(len(v.rates)), ftoa(rm), ftoa(rci), ftoa(qm), ftoa(qci), ftoa(bm), ftoa(bci), ftoa(stat.Mean(v.taus, nil)), ftoa(bound)}
	return row, rm, rci, qm, qci, bm
}

// sweepUnits is the unit of a sweep's shards: cell-major, replicate b of
// cell i is unit i·replicates + b.
const sweepUnits = "cell × replicate"

// runSweep is `ptbatch sweep`: a grid over dimension, chains, knots and
// seeds of the high-dimensional Gaussian experiment (the paper's Figure 5).
// Every cell is checked, its memory included, before any runs. With
// --out, each cell's rows are appended to cells.csv and summary.csv as it
// ends, so a kill loses at most the cell under way, and --resume goes on
// from there. A shard (--shard i/n) computes its contiguous share of the
// cells × replicates: a cell may be split between shards (replicate b
// draws from the stream of (seed, b) whichever process computes it).
func runSweep(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := &sweepFlags{}
	c := newSweepFlagSet(f)
	if err := c.parse(args, stdout, sweepIntro); err != nil {
		return err
	}
	cells, _, warnings, err := sweepGrid(c, f)
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
		if out, err = openSweepOut(c, f, sh, units, stderr); err != nil {
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
	var interrupted error
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "d\tchains\tK\tseed\treplicates\trate, last scan (95% CI)\trate, whole run\tbarrier\tlinear bound\tseconds\t")
	plan := sweepPlan(f, cells) // the study machinery (sweepmodel.go)
	pieces := plan.Range(lo, hi)
	finished := 0
	o := study.Options{Workers: f.workers, NoLogZ: true, Result: func(pc study.Piece, res *batch.Result) error {
		finished++
		return sweepCellDone(f, cells[pc.Run], pc, res, out, tw)
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
		if err := out.finish(f, len(cells), interrupted != nil); err != nil {
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

// openSweepOut takes the directory, and starts the files afresh or, with
// --resume and a sweep of the same configuration in the directory, cuts
// them back to the last cell its manifest records.
func openSweepOut(c *cmdFlags, f *sweepFlags, sh *shard, units int, stderr io.Writer) (*sweepOut, error) {
	m := newManifest("sweep", c, nil, sh, sweepUnits, units)
	var old *manifest
	if f.resume {
		prev, err := readManifest(f.out)
		switch {
		case errors.Is(err, os.ErrNotExist):
			fmt.Fprintf(stderr, "ptbatch: no sweep in %s to resume: starting it\n", f.out)
		case err != nil:
			return nil, c.bad("out", "cannot resume: %v", err)
		case prev.Format != manifestFormat:
			return nil, c.bad("out", "holds a sweep whose manifest has format %d, this ptbatch reads format %d: finish it with the ptbatch that wrote it, or start afresh without --resume", prev.Format, manifestFormat)
		case prev.Command != "sweep":
			return nil, c.bad("out", "holds the output of ptbatch %s, not a sweep: nothing to resume", prev.Command)
		case prev.Fingerprint != m.Fingerprint || !reflect.DeepEqual(prev.Settings, m.Settings):
			return nil, c.bad("out", "holds a sweep of another configuration (%s): resume with the same flags, or give another --out", settingDiff(prev.Settings, m.Settings))
		case prev.Version != m.Version:
			return nil, c.bad("out", "holds a sweep by another build (%q; this is %q), whose results may differ: finish it with that build, or start afresh without --resume", prev.Version, m.Version)
		case prev.Shard != m.Shard || prev.Shards != m.Shards:
			return nil, c.bad("out", "holds shard %d/%d of the sweep, this is shard %d/%d: give each shard its own --out", prev.Shard, prev.Shards, m.Shard, m.Shards)
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
	if o.cells, err = openSweepFile(j, "cells.csv", cellsHeader, fresh); err == nil {
		o.summary, err = openSweepFile(j, "summary.csv", summaryHeader, fresh)
	}
	if err == nil {
		m.Interrupted = false
		err = j.writeManifest()
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
	return o.job.progress(done)
}

// finish writes summary.json and the final manifest.
func (o *sweepOut) finish(f *sweepFlags, numCells int, interrupted bool) error {
	m := o.job.m
	if err := writeSweepJSON(o.job.dir.file("summary.json"), f, numCells, cellsWithin(m.First, m.Done, f.replicates), interrupted, o.job.elapsed()); err != nil {
		return err
	}
	return o.job.finish(m.Done, interrupted)
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

// cellsWithin returns the number of cells all of whose replicates are
// among the units [first, done).
func cellsWithin(first, done, replicates int) int {
	return max(0, done/replicates-(first+replicates-1)/replicates)
}

// writeSweepJSON writes a sweep's summary.json: its effective settings,
// the cells of the grid and those complete in this directory, whether it
// was interrupted, and the timing fields elapsed_seconds (the seconds
// spent on the directory's cells, summed over resumed runs and, after a
// merge, over the shards) and go_version. The per-cell seconds are not in
// summary.csv: they would make a merged summary.csv differ from one
// process's (and the same run twice), and the CSVs are the results.
func writeSweepJSON(path string, f *sweepFlags, numCells, completed int, interrupted bool, elapsed float64) error {
	cfg := map[string]any{
		"dims": f.dims, "chains": f.chains, "seeds": f.seeds, "replicates": f.replicates,
		"iterations": f.iterations, "scans": f.scans, "sigma": f.sigma, "mu0": f.mu0, "mu1": f.mu1,
		"algorithm": f.algorithm, "workers": f.workers, "out": f.out,
	}
	if f.algorithm == "nrpt" {
		cfg["knots"], cfg["lr"] = f.knots, f.lr
	}
	if f.model != "gaussian" || f.tuning != "paper" { // only when not the defaults, which the files predate
		cfg["model"], cfg["tuning"] = f.model, f.tuning
	}
	out := map[string]any{
		"config":          cfg,
		"cells":           numCells,
		"cells_completed": completed,
		"interrupted":     interrupted,
		"elapsed_seconds": elapsed,
		"go_version":      runtime.Version(),
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return writeBytesAtomic(path, append(b, '\n'))
}

// mergeSweep writes the merged output of a sweep's shards: cells.csv is
// the shards' rows in order (a shard's rows are the units it computed,
// in the order of the grid), summary.csv is summarized from them cell by
// cell as the sweep does, and summary.json is the sweep's.
func mergeSweep(ctx context.Context, shards []shardDir, out string, m *manifest) error {
	f := &sweepFlags{}
	c := newSweepFlagSet(f)
	var cells []sweepCell
	err := c.parse(append(slices.Clone(m.Args), "--out", out), io.Discard, sweepIntro)
	if err == nil {
		f.maxMemory = noMemoryLimit // a merge runs no cell
		cells, _, _, err = sweepGrid(c, f)
	}
	if err == nil {
		err = checkArgs(m, c) // after sweepGrid, which derives --scans of --tuning auto
	}
	if err != nil {
		return fmt.Errorf("rebuilding the sweep from %s: %w", filepath.Join(shards[0].dir, manifestName), err)
	}
	if len(cells)*f.replicates != m.Units {
		return fmt.Errorf("the sweep of %s has %d units, its manifest says %d", filepath.Join(shards[0].dir, manifestName), len(cells)*f.replicates, m.Units)
	}
	var lines [][]byte
	hdr, _ := csvBytes([][]string{cellsHeader})
	for _, s := range shards {
		b, err := readShardFile(s, "cells.csv")
		if err != nil {
			return err
		}
		if !bytes.HasPrefix(b, hdr) {
			return usagef("shard %s: cells.csv does not start with the header %q", s.dir, bytes.TrimSpace(hdr))
		}
		rows := bytes.SplitAfter(b[len(hdr):], []byte("\n"))
		if len(rows) > 0 && len(rows[len(rows)-1]) == 0 {
			rows = rows[:len(rows)-1]
		}
		if len(rows) != s.m.End-s.m.First {
			return usagef("shard %s: cells.csv has %d rows, its manifest says %d (units %d to %d)", s.dir, len(rows), s.m.End-s.m.First, s.m.First, s.m.End-1)
		}
		lines = append(lines, rows...)
	}
	summary := [][]string{summaryHeader}
	for i, cell := range cells {
		var v cellValues
		for r := 0; r < f.replicates; r++ {
			u := i*f.replicates + r
			rec, err := csv.NewReader(bytes.NewReader(lines[u])).Read()
			want := []string{itoa(cell.dim), itoa(cell.chains), itoa(cell.knots), strconv.FormatUint(cell.seed, 10), itoa(r)}
			if err != nil || len(rec) != len(cellsHeader) || !slices.Equal(rec[:5], want) {
				return usagef("cells.csv row %d of the merged shards is %q, want cell %v replicate %d", u+1, bytes.TrimSpace(lines[u]), want[:4], r)
			}
			var x [4]float64
			for k, col := range []int{5, 6, 8, 11} {
				if x[k], err = strconv.ParseFloat(rec[col], 64); err != nil {
					return usagef("cells.csv row %d of the merged shards: %s %q is not a number", u+1, cellsHeader[col], rec[col])
				}
			}
			v.rates, v.runRates = append(v.rates, x[0]), append(v.runRates, x[1])
			v.barriers, v.taus = append(v.barriers, x[2]), append(v.taus, x[3])
		}
		row, _, _, _, _, _ := summaryRow(cell, v, sweepBound(f, cell))
		summary = append(summary, row)
	}
	if err := writeFileAtomic(filepath.Join(out, "cells.csv"), func(w io.Writer) error {
		if _, err := w.Write(hdr); err != nil {
			return err
		}
		for _, l := range lines {
			if _, err := w.Write(l); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if err := writeCSV(filepath.Join(out, "summary.csv"), summary); err != nil {
		return err
	}
	return writeSweepJSON(filepath.Join(out, "summary.json"), f, len(cells), len(cells), false, mergeFrom(ctx).elapsed)
}

// linearBound is the linear path's asymptotic round-trip rate 1/(2+2Λ) for
// the isotropic Gaussian pair N(μ0·1, σ²I) → N(μ1·1, σ²I) in dimension d.
// On the linear path π_t = N(μ_t·1, σ²I) and dW_t/dt(x) = Δμ Σ_d (x_d - m̄)/σ²
// (m̄ the midpoint), a N(·, dΔμ²/σ²) variable, so λ(t) = ½E|Y - Y'| with
// Y - Y' ~ N(0, 2dΔμ²/σ²): λ = √d·z/√π with z = |Δμ|/σ, and Λ = √d·z/√π
// (the paper's appendix proof of prop:badlinear, for d = 1).
func linearBound(dim int, mu0, mu1, sigma float64) float64 {
	lambda := math.Sqrt(float64(dim)) * math.Abs(mu1-mu0) / sigma / math.Sqrt(math.Pi)
	return tune.RoundTripRate(lambda)
}

// meanCI returns the mean and the half-width of its 95% confidence
// interval (Student t with n-1 degrees of freedom).
func meanCI(xs []float64) (mean, half float64) {
	mean = stat.Mean(xs, nil)
	if len(xs) < 2 {
		return mean, math.NaN()
	}
	sd := stat.StdDev(xs, nil)
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(xs) - 1)}.Quantile(0.975)
	return mean, q * sd / math.Sqrt(float64(len(xs)))
}

func itoa(i int) string     { return strconv.Itoa(i) }
func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// exactText formats x with the fewest digits that read back as x.
func exactText(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
