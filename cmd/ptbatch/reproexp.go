package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/paper"
	"github.com/ptbatch/ptbatch/tune"
)

// experimentOut is one experiment of reproduce under way: its CSVs, its
// figures and its part of the report, filled method by method.
type experimentOut struct {
	e                             paper.Experiment
	m                             models.Model
	reps, iters                   int
	scans, summary, lambda, knots [][]string
	trips, paths, objectives      figure
	local, cumulative             figure
	tw                            *tabwriter.Writer
	exact                         *paper.Exact
	exactRows                     []string
	linearBarrier                 float64
}

// newExperimentOut starts the experiment's files, figures and report.
func newExperimentOut(e paper.Experiment, m models.Model, o *reproduceOptions, report io.Writer) *experimentOut {
	x := &experimentOut{e: e, m: m, reps: o.Reps(e.Replicates), iters: o.Scaled(e.Iterations, e.Scans),
		scans: [][]string{paper.ScansHeader}, summary: [][]string{paper.SummaryHeader},
		lambda: [][]string{paper.LambdaHeader}, knots: [][]string{paper.KnotsHeader},
		exact: paper.ExactGaussian(m), linearBarrier: e.LinearLambda}
	x.trips = figure{title: e.Title + ": cumulative round trips (mean over replicates)", xlabel: "scan", ylabel: "round trips"}
	x.paths = figure{title: e.Title + ": tuned spline paths (replicate 0)", xlabel: "η0 (reference exponent)", ylabel: "η1 (target exponent)"}
	x.local = figure{title: e.Title + ": local barrier λ(t) of the last scan (mean over replicates)", xlabel: "t", ylabel: "λ(t)"}
	x.cumulative = figure{title: e.Title + ": cumulative barrier Λ(t) of the last scan (mean over replicates)", xlabel: "t", ylabel: "Λ(t)"}
	x.tw = tabwriter.NewWriter(report, 0, 0, 1, ' ', 0)
	fmt.Fprintf(report, "\n## %s\n\n%d chains, %d iterations in %d scans, %d replicates, lr %.1f, seed %d; ptbatch auto is `ptbatch run`'s default\n(--tuning auto, K = 4: scans of %d iterations, rounds and steps chosen by the tuner, no learning rate).\n\n",
		e.Title, e.Chains, x.iters, e.Scans, x.reps, e.LearningRate, o.Seed, x.iters/batch.AutoScans(x.iters))
	fmt.Fprintln(x.tw, "| method\t| round trips (mean)\t| restarts (mean)\t| rate, whole run (mean ± sd)\t| rate, last 10% of scans (mean ± sd)\t| last-scan barrier Λ\t| SKL\t| log Z, last scan (mean ± se)\t| seconds\t|")
	fmt.Fprintln(x.tw, "|---\t|---\t|---\t|---\t|---\t|---\t|---\t|---\t|---\t|")
	return x
}

// reproduceExperiment runs (or joins) every method of experiment e and
// writes its CSVs, figures and part of the report.
func reproduceExperiment(ctx context.Context, e paper.Experiment, o *reproduceOptions, stderr io.Writer, report io.Writer) error {
	dir := filepath.Join(o.out, e.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	m, err := e.NewModel(o.Seed)
	if err != nil {
		return fmt.Errorf("%s: %v", e.Name, err)
	}
	x := newExperimentOut(e, m, o, report)
	for _, meth := range reproduceMethods {
		cfg := meth.Config(e, m, x.reps, x.iters, o.Seed, o.workers)
		// log Z from the last scan only (reproduceStats), restarts, and the
		// barrier profile of the last scan.
		st := newReproduceStats(&cfg)
		var prog func(batch.Progress)
		if !o.quiet {
			prog = progressPrinter(stderr, e.Name+" "+meth.Name)
		}
		res, err := o.job.run(ctx, e.Name+" "+meth.Name, cfg, st, prog)
		switch {
		case err != nil:
			return err
		case res == nil:
			continue // another shard's
		case res.Interrupted:
			return interruptedf("interrupted during %s %s; the files of the experiments finished are in %s", e.Name, meth.Name, o.out)
		}
		// The method's scans: the paper's, or the automatic tuner's (the
		// scans.csv rows and the figure's x axis are in the paper's).
		if err := x.add(ctx, meth, res, st, x.iters/cfg.Scans, o); err != nil {
			return err
		}
	}
	if o.job.shardOnly() {
		return nil // a shard's runs are in runs/; ptbatch merge makes the report
	}
	if err := x.report(report); err != nil {
		return err
	}
	return x.write(dir)
}

// add records a finished method: its rows, curves, line of the table and
// closed-form comparison.
func (x *experimentOut) add(ctx context.Context, meth paper.Method, res *batch.Result, st *reproduceStats, perScan int, o *reproduceOptions) error {
	rows, xs, cum := paper.ScanRows(meth.Name, res, x.reps, perScan, x.iters/x.e.Scans)
	x.scans = append(x.scans, rows...)
	x.trips.lines = append(x.trips.lines, series{name: meth.Name, xs: xs, ys: cum})
	ms := paper.Measure(res, x.reps)
	lz, lzSE, lzDiff := st.logZSummary()
	restartsMean, restartRate := st.restartsSummary()
	sum := res.Summary()
	x.summary = append(x.summary, []string{meth.Name, itoa(x.reps), itoa(res.Iterations), ftoa(ms.TripsMean), ftoa(ms.Rate), ftoa(ms.RateSD),
		ftoa(ms.Tail), ftoa(ms.TailSD), ftoa(sum.RoundTripRate), ftoa(sum.Barrier), ftoa(sum.NonAsymptoticBarrier), ftoa(sum.SKL),
		fullFloat(lz), fullFloat(lzSE), fullFloat(lzDiff), ftoa(restartsMean), ftoa(restartRate)})
	fmt.Fprintf(x.tw, "| %s\t| %.1f\t| %.1f\t| %.5f ± %.5f\t| %.5f ± %.5f\t| %.2f\t| %.2f\t| %s\t| %.1f\t|\n", meth.Name, ms.TripsMean, restartsMean,
		ms.Rate, ms.RateSD, ms.Tail, ms.TailSD, sum.Barrier, sum.SKL, formatLogZ(lz, lzSE), res.Elapsed.Seconds())
	x.lambda = st.appendLambdaRows(x.lambda, meth.Name)
	prof := st.rec.Profile
	grid := prof.Grid()
	x.local.lines = append(x.local.lines, series{name: meth.Name, xs: grid, ys: meanCurve(prof.Local(), len(grid))})
	x.cumulative.lines = append(x.cumulative.lines, series{name: meth.Name, xs: grid, ys: meanCurve(prof.Cumulative(), len(grid))})
	if x.exact != nil && meth.Algorithm == batch.NRPT {
		c, err := x.exact.CompareContext(ctx, meth, res, x.e.Chains, ms.Tail)
		if err != nil {
			if ctx.Err() != nil {
				return interruptedf("interrupted during %s's closed-form comparison of %s; the files of the experiments finished are in %s", x.e.Name, meth.Name, o.out)
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

// addPaths adds a spline method's tuned knots (replicate 0) to knots.csv
// and the paths figure, and the objectives of NRPT+Spline(K=4).
func (x *experimentOut) addPaths(meth paper.Method, res *batch.Result) {
	if meth.Knots >= 2 {
		rows, ex, ey := paper.KnotRows(meth.Name, res)
		x.knots = append(x.knots, rows...)
		name := fmt.Sprintf("K=%d", meth.Knots)
		if meth.Auto {
			name = "auto, " + name
		}
		x.paths.lines = append(x.paths.lines, series{name: name, xs: ex, ys: ey, points: true})
	}
	if meth.Knots == 4 && !meth.Auto {
		hist := res.History[0]
		xs, skl, nab := make([]float64, len(hist)), make([]float64, len(hist)), make([]float64, len(hist))
		for i, st := range hist {
			xs[i], skl[i], nab[i] = float64(st.Scan), st.SKL, st.NonAsymptoticBarrier
		}
		x.objectives = figure{title: x.e.Title + ": objectives of NRPT+Spline(K=4), replicate 0", xlabel: "scan",
			ylabel: "objective (log scale)", logY: true,
			lines: []series{{name: "non-asymptotic barrier Σ r/(1-r)", xs: xs, ys: nab}, {name: "SKL surrogate", xs: xs, ys: skl}}}
	}
}

// report writes the experiment's table, its linear-path bound, what log Z
// is, and the closed-form comparison when there is one.
func (x *experimentOut) report(report io.Writer) error {
	if err := x.tw.Flush(); err != nil {
		return err
	}
	bound := tune.RoundTripRate(x.linearBarrier)
	how := "exact"
	if math.IsNaN(x.e.LinearLambda) {
		how = "estimated by NRPT+Linear's last scan (a lower estimate of Λ when rejections saturate)"
	}
	fmt.Fprintf(report, "\nLinear-path bound 1/(2+2Λ) = %.5f per iteration with Λ = %.2f (%s).\n", bound, x.linearBarrier, how)
	fmt.Fprintf(report, "\n%s\n", logZNote(x.m))
	if len(x.exactRows) == 0 {
		return nil
	}
	fmt.Fprintf(report, "\nExact values for this Gaussian pair (gaussexact.GaussianPair): Λ of each replicate's tuned path by quadrature, and the best\n")
	fmt.Fprintf(report, "path of the family found by Nelder–Mead on the exact Λ; rates with %d chains on the equi-barrier schedule use the exact\n", x.e.Chains)
	fmt.Fprintf(report, "rejections in 1/(2+2Σ r/(1-r)).\n\n")
	tw := tabwriter.NewWriter(report, 0, 0, 1, ' ', 0)
	fmt.Fprintln(tw, "| method\t| tuned path Λ (mean ± sd)\t| tuned path, exact rate\t| measured rate, last 10%\t| best Λ of the family\t| best exact rate\t| measured / best\t|")
	fmt.Fprintln(tw, "|---\t|---\t|---\t|---\t|---\t|---\t|---\t|")
	for _, row := range x.exactRows {
		fmt.Fprintln(tw, row)
	}
	return tw.Flush()
}

// write writes the experiment's CSVs and figures into dir.
func (x *experimentOut) write(dir string) error {
	bound := tune.RoundTripRate(x.linearBarrier)
	bx := []float64{0, float64(x.e.Scans)}
	x.trips.lines = append(x.trips.lines, series{name: "linear-path bound 1/(2+2Λ)", xs: bx, ys: []float64{0, bound * float64(x.iters)}, dashed: true})
	for name, rows := range map[string][][]string{"scans.csv": x.scans, "summary.csv": x.summary, "knots.csv": x.knots, "lambda.csv": x.lambda} {
		if err := writeCSV(filepath.Join(dir, name), rows); err != nil {
			return err
		}
	}
	// The tuned knots crowd near the origin on linear axes; the log-log view
	// shows the interior knots (the endpoints have a zero component).
	pathsLog := x.paths
	pathsLog.title = x.e.Title + ": tuned spline paths, interior knots (replicate 0)"
	pathsLog.xlabel, pathsLog.ylabel = "η0 (reference exponent, log scale)", "η1 (target exponent, log scale)"
	pathsLog.logX, pathsLog.logY = true, true
	for base, f := range map[string]figure{"roundtrips": x.trips, "paths": x.paths, "paths_log": pathsLog, "objectives": x.objectives,
		"lambda": x.local, "lambda_cumulative": x.cumulative} {
		if err := f.save(filepath.Join(dir, base)); err != nil {
			return fmt.Errorf("%s figure %s: %w", x.e.Name, base, err)
		}
	}
	return nil
}
