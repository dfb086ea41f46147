package paper

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"text/tabwriter"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/figure"
	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/runout"
)

// experimentOut is one experiment of a reproduction under way: its CSVs,
// its figures and its part of the report, filled method by method.
type experimentOut struct {
	e                             Experiment
	m                             models.Model
	reps, iters                   int
	scans, summary, lambda, knots [][]string
	trips, paths, objectives      figure.Figure
	local, cumulative             figure.Figure
	tw                            *tabwriter.Writer
	exact                         *Exact
	exactRows                     []string
	linearBarrier                 float64
}

// newExperimentOut starts the experiment's files, figures and report.
func newExperimentOut(e Experiment, m models.Model, s Settings, report io.Writer) *experimentOut {
	x := &experimentOut{e: e, m: m, reps: s.Reps(e.Replicates), iters: s.Scaled(e.Iterations, e.Scans),
		scans: [][]string{ScansHeader}, summary: [][]string{SummaryHeader},
		lambda: [][]string{LambdaHeader}, knots: [][]string{KnotsHeader},
		exact: ExactGaussian(m), linearBarrier: e.LinearLambda}
	x.trips = figure.Figure{Title: e.Title + ": cumulative round trips (mean over replicates)", XLabel: "scan", YLabel: "round trips"}
	x.paths = figure.Figure{Title: e.Title + ": tuned spline paths (replicate 0)", XLabel: "η0 (reference exponent)", YLabel: "η1 (target exponent)"}
	x.local = figure.Figure{Title: e.Title + ": local barrier λ(t) of the last scan (mean over replicates)", XLabel: "t", YLabel: "λ(t)"}
	x.cumulative = figure.Figure{Title: e.Title + ": cumulative barrier Λ(t) of the last scan (mean over replicates)", XLabel: "t", YLabel: "Λ(t)"}
	x.tw = tabwriter.NewWriter(report, 0, 0, 1, ' ', 0)
	fmt.Fprintf(report, "\n## %s\n\n%d chains, %d iterations in %d scans, %d replicates, lr %.1f, seed %d; ptbatch auto is `ptbatch run`'s default\n(--tuning auto, K = 4: scans of %d iterations, rounds and steps chosen by the tuner, no learning rate).\n\n",
		e.Title, e.Chains, x.iters, e.Scans, x.reps, e.LearningRate, s.Seed, x.iters/batch.AutoScans(x.iters))
	fmt.Fprintln(x.tw, "| method\t| round trips (mean)\t| restarts (mean)\t| rate, whole run (mean ± sd)\t| rate, last 10% of scans (mean ± sd)\t| last-scan barrier Λ\t| SKL\t| log Z, last scan (mean ± se)\t| seconds\t|")
	fmt.Fprintln(x.tw, "|---\t|---\t|---\t|---\t|---\t|---\t|---\t|---\t|---\t|")
	return x
}

// experimentRuns is an experiment's model and its methods' runs,
// prepared (prepareExperiment).
type experimentRuns struct {
	m    models.Model
	runs []planned
}

// prepareExperiment makes experiment e's model and plans its methods'
// runs: each on one worker of the pool when methodsAtOnce runs several
// at once, otherwise each on every worker.
func (r *reproduction) prepareExperiment(e Experiment) (experimentRuns, error) {
	m, err := e.NewModel(r.s.Seed)
	if err != nil {
		return experimentRuns{}, fmt.Errorf("%s: %v", e.Name, err)
	}
	meths, workers := Methods(), r.workers()
	reps, iters := r.s.Reps(e.Replicates), r.s.Scaled(e.Iterations, e.Scans)
	labels, cfgs, sts := make([]string, len(meths)), make([]batch.Config, len(meths)), make([]*stats, len(meths))
	for i, meth := range meths {
		labels[i] = e.Name + " " + meth.Name
		cfgs[i] = meth.Config(e, m, reps, iters, r.s.Seed, r.o.Workers)
		sts[i] = newStats(&cfgs[i])
	}
	share := 0
	if g := methodsAtOnce(reps, workers); g > 1 {
		share = max(1, workers/g)
	}
	runs, err := r.plan(labels, cfgs, sts, share, true)
	if err == nil && !r.noPack {
		r.pack(runs)
	}
	return experimentRuns{m: m, runs: runs}, err
}

// packs reports whether runs of reps replicates pad a block, so that the
// paper methods of an experiment are packed (pack).
func packs(reps int) bool { return reps%layout.Lanes != 0 }

// pack makes jobs of the runs of an experiment's paper methods that this
// process computes (every method but ptbatch auto, whose tuner and scans
// differ), their replicates packed into shared blocks (batch.RunPacked),
// when a run of their own would pad its last block and at least two can
// share: the files are the same bytes, and the packed blocks have no
// padding lanes but the last's. The methods are split into as many packed
// jobs as workers, each on its share of them, when that takes no more
// blocks (splitPacks), so that a worker that ends its pack goes on to
// another job rather than wait at every scan for the worker with one
// block more; otherwise they are one job on every worker.
func (r *reproduction) pack(runs []planned) {
	var members []*job
	padded := false
	for _, pr := range runs {
		if pr.job < 0 || pr.cfg.Tuning != batch.PaperTuning {
			continue
		}
		j := r.jobs[pr.job]
		members = append(members, j)
		padded = padded || packs(j.p.cfg.Replicates)
	}
	if len(members) < 2 || !padded {
		return
	}
	groups := splitPacks(members, r.workers())
	share := 0
	if len(groups) > 1 {
		share = max(1, r.workers()/len(groups))
	}
	for _, g := range groups {
		if len(g) < 2 {
			continue // a run alone keeps its own job
		}
		g[0].pack, g[0].share = g, share
		for _, m := range g[1:] {
			m.follower = true
		}
	}
}

// splitPacks splits the runs members, in order, into at most workers
// groups of about as many replicates each: the most groups whose packed
// blocks are no more than those of all the runs packed together, or one
// group when no split is that tight.
func splitPacks(members []*job, workers int) [][]*job {
	lanes := 0
	for _, m := range members {
		lanes += m.p.cfg.Replicates
	}
	for n := min(workers, len(members)); n > 1; n-- {
		if groups, blocks := splitLanes(members, n, lanes); blocks == (lanes+layout.Lanes-1)/layout.Lanes {
			return groups
		}
	}
	return [][]*job{members}
}

// splitLanes splits the runs members, of lanes replicates in all, in
// order, into n groups of about lanes/n replicates each (a group closes
// once the replicates so far reach its share), and returns them and the
// number of blocks they pack into.
func splitLanes(members []*job, n, lanes int) ([][]*job, int) {
	var groups [][]*job
	start, sum, in, blocks := 0, 0, 0, 0
	for i, m := range members {
		sum += m.p.cfg.Replicates
		in += m.p.cfg.Replicates
		if i == len(members)-1 || (len(groups) < n-1 && sum*n >= (len(groups)+1)*lanes) {
			groups = append(groups, members[start:i+1])
			blocks += (in + layout.Lanes - 1) / layout.Lanes
			start, in = i+1, 0
		}
	}
	return groups, blocks
}

// experiment takes (or joins) every method of experiment e, planned in
// er, in order, and writes its CSVs, figures and part of the report.
func (r *reproduction) experiment(ctx context.Context, e Experiment, er experimentRuns, report io.Writer) error {
	dir := r.file(e.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	x := newExperimentOut(e, er.m, r.s, report)
	for i, meth := range Methods() {
		res, err := r.result(er.runs[i])
		if err != nil {
			return err
		} else if res == nil {
			continue // another shard's, or a shard's
		}
		// The method's scans: the paper's, or the automatic tuner's (the
		// scans.csv rows and the figure's x axis are in the paper's).
		if err := x.add(ctx, meth, res, er.runs[i].st, x.iters/er.runs[i].cfg.Scans); err != nil {
			return err
		}
	}
	if r.o.Shard {
		return nil // a shard's runs are in runs/; Merge makes the report
	}
	if err := x.report(report); err != nil {
		return err
	}
	return x.write(dir)
}

// add records a finished method: its rows, curves, line of the table and
// closed-form comparison.
func (x *experimentOut) add(ctx context.Context, meth Method, res *batch.Result, st *stats, perScan int) error {
	rows, xs, cum := ScanRows(meth.Name, res, x.reps, perScan, x.iters/x.e.Scans)
	x.scans = append(x.scans, rows...)
	x.trips.Lines = append(x.trips.Lines, figure.Series{Name: meth.Name, Xs: xs, Ys: cum})
	ms := Measure(res, x.reps)
	lz, lzSE, lzDiff := runout.SummarizeLogZ(st.rec.LogZ)
	restartsMean, restartRate := st.restartsSummary()
	sum := res.Summary()
	full := runout.FullFloat
	x.summary = append(x.summary, []string{meth.Name, strconv.Itoa(x.reps), strconv.Itoa(res.Iterations), Short(ms.TripsMean), Short(ms.Rate), Short(ms.RateSD),
		Short(ms.Tail), Short(ms.TailSD), Short(sum.RoundTripRate), Short(sum.Barrier), Short(sum.NonAsymptoticBarrier), Short(sum.SKL),
		full(lz), full(lzSE), full(lzDiff), Short(restartsMean), Short(restartRate)})
	fmt.Fprintf(x.tw, "| %s\t| %.1f\t| %.1f\t| %.5f ± %.5f\t| %.5f ± %.5f\t| %.2f\t| %.2f\t| %s\t| %.1f\t|\n", meth.Name, ms.TripsMean, restartsMean,
		ms.Rate, ms.RateSD, ms.Tail, ms.TailSD, sum.Barrier, sum.SKL, runout.FormatLogZ(lz, lzSE), res.Elapsed.Seconds())
	x.lambda = st.appendLambdaRows(x.lambda, meth.Name)
	prof := st.rec.Profile
	grid := prof.Grid()
	x.local.Lines = append(x.local.Lines, figure.Series{Name: meth.Name, Xs: grid, Ys: runout.MeanCurve(prof.Local(), len(grid))})
	x.cumulative.Lines = append(x.cumulative.Lines, figure.Series{Name: meth.Name, Xs: grid, Ys: runout.MeanCurve(prof.Cumulative(), len(grid))})
	if x.exact != nil && meth.Algorithm == batch.NRPT {
		c, err := x.exact.CompareContext(ctx, meth, res, x.e.Chains, ms.Tail)
		if err != nil {
			if ctx.Err() != nil {
				return &InterruptedError{x.e.Name + "'s closed-form comparison of " + meth.Name}
			}
			return err
		}
		x.exactRows = append(x.exactRows, c.Row())
	}
	if meth.Name == "NRPT+Linear" && math.IsNaN(x.linearBarrier) {
		x.linearBarrier = sum.Barrier
	}
	x.addPaths(meth, res)
	return nil
}
