package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/internal/gaussexact"
	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
	"github.com/ptbatch/ptbatch/sweep"
	"github.com/ptbatch/ptbatch/tune"
)

// experiment is one of the paper's benchmark problems with its settings
// (§5 and the appendix "Experimental details").
type experiment struct {
	name        string
	title       string
	model       func(seed uint64) (models.Model, error)
	chains      int
	iterations  int
	scans       int
	lr          float64
	replicates  int
	linearLamda float64 // exact Λ of the linear path, or NaN when only estimated
}

// experiments are the paper's presets of the registry, with the exact Λ
// of the Gaussian's linear path, z/√π with z = (μ1 − μ0)/σ = 200.
var experiments = []experiment{
	presetExperiment(registry.Gaussian, 200/math.Sqrt(math.Pi)),
	presetExperiment(registry.BetaBinomial, math.NaN()),
	presetExperiment(registry.Galaxy, math.NaN()),
	presetExperiment(registry.Mixture, math.NaN()),
}

// presetExperiment is the registry's preset name as an experiment.
func presetExperiment(name string, linearLambda float64) experiment {
	p := registry.MustPreset(name)
	return experiment{p.Name, p.Title, p.NewModel, p.Chains, p.Iterations, p.Scans, p.LearningRate, p.Replicates, linearLambda}
}

// reproduceMethod is one curve of Figure 3, or ptbatch's own default.
type reproduceMethod struct {
	name      string
	algorithm batch.Algorithm
	knots     int  // 1: linear path
	auto      bool // the automatic tuner (ptbatch run's default), not the paper's
}

var reproduceMethods = []reproduceMethod{
	{"Reversible+Linear", batch.Reversible, 1, false},
	{"NRPT+Linear", batch.NRPT, 1, false},
	{"NRPT+Spline(K=2)", batch.NRPT, 2, false},
	{"NRPT+Spline(K=3)", batch.NRPT, 3, false},
	{"NRPT+Spline(K=4)", batch.NRPT, 4, false},
	{"NRPT+Spline(K=5)", batch.NRPT, 5, false},
	{"NRPT+Spline(K=10)", batch.NRPT, 10, false},
	{"ptbatch auto (K=4)", batch.NRPT, 4, true},
}

// config returns the method's configuration for an experiment of iters
// iterations: the paper's (its scans and learning rate), or for the
// automatic tuner batch.AutoScans(iters) scans and no learning rate.
func (meth reproduceMethod) config(e experiment, m models.Model, reps, iters int, o reproduceOptions) batch.Config {
	cfg := batch.Config{Model: m, Chains: e.chains, Replicates: reps, Algorithm: meth.algorithm, Iterations: iters,
		Scans: e.scans, TuneSchedule: meth.algorithm == batch.NRPT, Knots: meth.knots, TunePath: meth.knots >= 2,
		LearningRate: e.lr, Seed: o.seed, Workers: o.workers}
	if meth.auto {
		cfg.Tuning, cfg.Scans, cfg.LearningRate = batch.AutoTuning, batch.AutoScans(iters), 0
	}
	return cfg
}

// reproduceOptions are the flags of `ptbatch reproduce`.
type reproduceOptions struct {
	out        string
	replicates int
	scale      float64
	seed       uint64
	workers    int
	quiet      bool
	maxMemory  int64
	shard      shardFlags
	job        *reproJob // shards, runs/ and merges (shard.go)
}

func runReproduce(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o := reproduceOptions{}
	c := newCmdFlags("reproduce")
	c.String(&o.out, "out", "", "output directory for CSVs and figures (required)")
	c.Int(&o.replicates, "replicates", 0, "replicates per method (default 0: the paper's 10, or 5 for highdim)")
	c.Float64(&o.scale, "scale", 1, "fraction of the paper's iterations to run, in (0, 1] (scans are kept; each scan keeps at least one iteration)")
	c.Uint64(&o.seed, "seed", 1, "random seed")
	c.Int(&o.workers, "workers", 0, "worker goroutines (default 0: all CPUs)")
	c.Bool(&o.quiet, "quiet", false, "no progress lines on stderr")
	c.Size(&o.maxMemory, "max-memory", "refuse experiments whose estimated memory exceeds this size, such as 512MiB or 4GiB (default: the available memory)")
	addShardFlags(c, &o.shard)
	names := "gaussian|betabinomial|galaxy|mixture|highdim|all"
	// Accept the experiment name before or after the flags.
	var which string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		which, args = args[0], args[1:]
	}
	intro := "Usage: ptbatch reproduce " + names + " --out DIR [flags]\n\nRuns the paper's experiments with its settings for every method (Reversible+Linear,\nNRPT+Linear, NRPT+Spline with K = 2, 3, 4, 5, 10) and writes CSVs and PNG/SVG figures."
	err := c.fs.Parse(args)
	if which == "" && c.err == nil && err == nil && c.fs.NArg() > 0 {
		// The experiment after the flags: parse the flags after it too.
		which = c.fs.Arg(0)
		err = c.fs.Parse(c.fs.Args()[1:])
	}
	if err := c.finishParse(err, stdout, intro); err != nil {
		return err
	}
	if err := c.checkFinite(); err != nil {
		return err
	}
	switch {
	case which == "":
		return usagef("reproduce needs an experiment: %s", names)
	case o.out == "":
		return usagef("reproduce needs --out DIR")
	case o.replicates < 0:
		return c.bad("replicates", "must be at least 1 (or 0 for the paper's)")
	case !(o.scale > 0) || o.scale > 1:
		return c.bad("scale", "want a number in (0, 1]")
	case o.workers < 0:
		return c.bad("workers", "need 0 (all CPUs) or more")
	}
	var todo []experiment
	highdim := false
	switch which {
	case "all":
		todo, highdim = experiments, true
	case "highdim":
		highdim = true
	default:
		for _, e := range experiments {
			if e.name == which {
				todo = append(todo, e)
			}
		}
		if len(todo) == 0 {
			return usagef("unknown experiment %q: want %s", which, names)
		}
	}
	if err := mergeFrom(ctx).checkSettings(c, which); err != nil {
		return err
	}
	if mergeFrom(ctx) != nil {
		o.maxMemory = noMemoryLimit // ptbatch merge runs none of it
	}
	if err := o.checkMemory(c, todo, highdim); err != nil {
		return err
	}
	if err := checkOut(c, "out", o.out); err != nil {
		return err
	}
	if o.job, err = startReproduce(ctx, c, o, which, todo, highdim, stderr); err != nil {
		return err
	}
	defer o.job.close()
	start := time.Now()
	var report strings.Builder
	for _, e := range todo {
		if err = reproduceExperiment(ctx, e, o, stderr, &report); err != nil {
			break
		}
	}
	if highdim && err == nil {
		err = reproduceHighDim(ctx, o, stderr, &report)
	}
	// An interrupted reproduce keeps the runs it finished (runs/), the
	// experiments it finished, and writes the report so far.
	var ie *interruptedError
	if err != nil && !errors.As(err, &ie) {
		return err
	}
	if ferr := o.job.finish(o, which, err != nil); ferr != nil {
		return ferr
	}
	if o.job.shardOnly() {
		return err // the report is made by ptbatch merge
	}
	fmt.Fprintf(&report, "\nTotal time: %.1f s.\n", time.Since(start).Seconds())
	if werr := writeBytesAtomic(filepath.Join(o.out, "results.md"), []byte(report.String())); werr != nil {
		return werr
	}
	if _, werr := io.WriteString(stdout, report.String()); werr != nil {
		return werr
	}
	return err
}

// scaled returns the iterations to run for a budget of iters in scans.
func (o reproduceOptions) scaled(iters, scans int) int {
	per := int(math.Round(float64(iters/scans) * o.scale))
	return max(per, 1) * scans
}

func reproduceExperiment(ctx context.Context, e experiment, o reproduceOptions, stderr io.Writer, report io.Writer) error {
	dir := filepath.Join(o.out, e.name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	m, err := e.model(o.seed)
	if err != nil {
		return fmt.Errorf("%s: %v", e.name, err)
	}
	reps := e.replicates
	if o.replicates > 0 {
		reps = o.replicates
	}
	iters := o.scaled(e.iterations, e.scans)
	scansCSV := [][]string{{"method", "replicate", "scan", "iteration", "round_trips", "barrier", "nonasymptotic_barrier", "skl", "mean_rejection"}}
	summary := [][]string{{"method", "replicates", "iterations", "round_trips_mean", "rate_mean", "rate_sd", "tail_rate_mean", "tail_rate_sd", "last_scan_rate_mean", "barrier", "nonasymptotic_barrier", "skl",
		"log_z", "log_z_se", "log_z_reverse_minus_forward", "restarts_mean", "last_scan_restart_rate_mean"}} // seconds: summary.json
	lambdaCSV := [][]string{{"method", "replicate", "t", "local_barrier", "cumulative_barrier"}}
	knotsCSV := [][]string{{"method", "knot", "eta0", "eta1"}}
	trips := figure{title: e.title + ": cumulative round trips (mean over replicates)", xlabel: "scan", ylabel: "round trips"}
	paths := figure{title: e.title + ": tuned spline paths (replicate 0)", xlabel: "η0 (reference exponent)", ylabel: "η1 (target exponent)"}
	var objectives figure
	local := figure{title: e.title + ": local barrier λ(t) of the last scan (mean over replicates)", xlabel: "t", ylabel: "λ(t)"}
	cumulative := figure{title: e.title + ": cumulative barrier Λ(t) of the last scan (mean over replicates)", xlabel: "t", ylabel: "Λ(t)"}
	tw := tabwriter.NewWriter(report, 0, 0, 1, ' ', 0)
	fmt.Fprintf(report, "\n## %s\n\n%d chains, %d iterations in %d scans, %d replicates, lr %.1f, seed %d; ptbatch auto is `ptbatch run`'s default\n(--tuning auto, K = 4: scans of %d iterations, rounds and steps chosen by the tuner, no learning rate).\n\n",
		e.title, e.chains, iters, e.scans, reps, e.lr, o.seed, iters/batch.AutoScans(iters))
	fmt.Fprintln(tw, "| method\t| round trips (mean)\t| restarts (mean)\t| rate, whole run (mean ± sd)\t| rate, last 10% of scans (mean ± sd)\t| last-scan barrier Λ\t| SKL\t| log Z, last scan (mean ± se)\t| seconds\t|")
	fmt.Fprintln(tw, "|---\t|---\t|---\t|---\t|---\t|---\t|---\t|---\t|---\t|")
	exact := exactGaussian(m)
	var exactRows []string
	linearBarrier := e.linearLamda
	for _, meth := range reproduceMethods {
		cfg := meth.config(e, m, reps, iters, o)
		// The method's scans: the paper's, or the automatic tuner's (the
		// scans.csv rows and the figure's x axis are in the paper's).
		perScan := iters / cfg.Scans
		// log Z from the last scan only (reproduceStats), restarts, and the
		// barrier profile of the last scan.
		st := newReproduceStats(&cfg)
		var prog func(batch.Progress)
		if !o.quiet {
			prog = progressPrinter(stderr, e.name+" "+meth.name)
		}
		res, err := o.job.run(ctx, e.name+" "+meth.name, cfg, st, prog)
		if err != nil {
			return err
		}
		if res == nil {
			continue // another shard's
		}
		if res.Interrupted {
			return interruptedf("interrupted during %s %s; the files of the experiments finished are in %s", e.name, meth.name, o.out)
		}
		cum := make([]float64, res.Scans)
		xs := make([]float64, res.Scans)
		for r := 0; r < reps; r++ {
			for _, st := range res.History[r] {
				scansCSV = append(scansCSV, []string{meth.name, itoa(r), itoa(st.Scan), itoa(st.Scan * perScan), itoa(st.RoundTrips),
					ftoa(st.Barrier), ftoa(st.NonAsymptoticBarrier), ftoa(st.SKL), ftoa(st.MeanRejection)})
				cum[st.Scan-1] += float64(st.RoundTrips) / float64(reps)
				xs[st.Scan-1] = float64(st.Scan*perScan) / float64(iters/e.scans)
			}
		}
		trips.lines = append(trips.lines, series{name: meth.name, xs: xs, ys: cum})
		rates := make([]float64, reps)
		tripsMean := 0.0
		for r := range rates {
			rates[r] = float64(res.RoundTrips[r]) / float64(res.Iterations)
			tripsMean += float64(res.RoundTrips[r]) / float64(reps)
		}
		rm, rsd := meanSD(rates)
		tail := res.TailRoundTripRates()
		tm, tsd := meanSD(tail)
		lz, lzSE, lzDiff := st.logZSummary()
		restartsMean, restartRate := st.restartsSummary()
		summary = append(summary, []string{meth.name, itoa(reps), itoa(res.Iterations), ftoa(tripsMean), ftoa(rm), ftoa(rsd),
			ftoa(tm), ftoa(tsd), ftoa(res.Summary().RoundTripRate), ftoa(res.Summary().Barrier), ftoa(res.Summary().NonAsymptoticBarrier), ftoa(res.Summary().SKL),
			fullFloat(lz), fullFloat(lzSE), fullFloat(lzDiff), ftoa(restartsMean), ftoa(restartRate)})
		fmt.Fprintf(tw, "| %s\t| %.1f\t| %.1f\t| %.5f ± %.5f\t| %.5f ± %.5f\t| %.2f\t| %.2f\t| %s\t| %.1f\t|\n", meth.name, tripsMean, restartsMean, rm, rsd, tm, tsd,
			res.Summary().Barrier, res.Summary().SKL, formatLogZ(lz, lzSE), res.Elapsed.Seconds())
		lambdaCSV = st.appendLambdaRows(lambdaCSV, meth.name)
		local.lines = append(local.lines, series{name: meth.name, xs: st.profile.Grid(), ys: meanCurve(st.profile.Local(), len(st.profile.Grid()))})
		cumulative.lines = append(cumulative.lines, series{name: meth.name, xs: st.profile.Grid(), ys: meanCurve(st.profile.Cumulative(), len(st.profile.Grid()))})
		if exact != nil && meth.algorithm == batch.NRPT {
			row, err := exact.compareContext(ctx, meth, res, e.chains, tm)
			if err != nil {
				if ctx.Err() != nil {
					return interruptedf("interrupted during %s's closed-form comparison of %s; the files of the experiments finished are in %s", e.name, meth.name, o.out)
				}
				return err
			}
			exactRows = append(exactRows, row)
		}
		if meth.name == "NRPT+Linear" && math.IsNaN(linearBarrier) {
			linearBarrier = res.Summary().Barrier
		}
		if meth.knots >= 2 {
			var ex, ey []float64
			for k, kn := range res.Knots[0] {
				knotsCSV = append(knotsCSV, []string{meth.name, itoa(k), ftoa(kn[0]), ftoa(kn[1])})
				ex, ey = append(ex, kn[0]), append(ey, kn[1])
			}
			name := fmt.Sprintf("K=%d", meth.knots)
			if meth.auto {
				name = "auto, " + name
			}
			paths.lines = append(paths.lines, series{name: name, xs: ex, ys: ey, points: true})
		}
		if meth.knots == 4 && !meth.auto {
			hist := res.History[0]
			xs, skl, nab := make([]float64, len(hist)), make([]float64, len(hist)), make([]float64, len(hist))
			for i, st := range hist {
				xs[i], skl[i], nab[i] = float64(st.Scan), st.SKL, st.NonAsymptoticBarrier
			}
			objectives = figure{title: e.title + ": objectives of NRPT+Spline(K=4), replicate 0", xlabel: "scan",
				ylabel: "objective (log scale)", logY: true,
				lines: []series{{name: "non-asymptotic barrier Σ r/(1-r)", xs: xs, ys: nab}, {name: "SKL surrogate", xs: xs, ys: skl}}}
		}
	}
	if o.job.shardOnly() {
		return nil // a shard's runs are in runs/; ptbatch merge makes the report
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	bound := tune.RoundTripRate(linearBarrier)
	how := "exact"
	if math.IsNaN(e.linearLamda) {
		how = "estimated by NRPT+Linear's last scan (a lower estimate of Λ when rejections saturate)"
	}
	fmt.Fprintf(report, "\nLinear-path bound 1/(2+2Λ) = %.5f per iteration with Λ = %.2f (%s).\n", bound, linearBarrier, how)
	fmt.Fprintf(report, "\n%s\n", logZNote(m))
	if len(exactRows) > 0 {
		fmt.Fprintf(report, "\nExact values for this Gaussian pair (gaussexact.GaussianPair): Λ of each replicate's tuned path by quadrature, and the best\n")
		fmt.Fprintf(report, "path of the family found by Nelder–Mead on the exact Λ; rates with %d chains on the equi-barrier schedule use the exact\n", e.chains)
		fmt.Fprintf(report, "rejections in 1/(2+2Σ r/(1-r)).\n\n")
		tw := tabwriter.NewWriter(report, 0, 0, 1, ' ', 0)
		fmt.Fprintln(tw, "| method\t| tuned path Λ (mean ± sd)\t| tuned path, exact rate\t| measured rate, last 10%\t| best Λ of the family\t| best exact rate\t| measured / best\t|")
		fmt.Fprintln(tw, "|---\t|---\t|---\t|---\t|---\t|---\t|---\t|")
		for _, row := range exactRows {
			fmt.Fprintln(tw, row)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	bx := []float64{0, float64(e.scans)}
	trips.lines = append(trips.lines, series{name: "linear-path bound 1/(2+2Λ)", xs: bx, ys: []float64{0, bound * float64(iters)}, dashed: true})
	for name, rows := range map[string][][]string{"scans.csv": scansCSV, "summary.csv": summary, "knots.csv": knotsCSV, "lambda.csv": lambdaCSV} {
		if err := writeCSV(filepath.Join(dir, name), rows); err != nil {
			return err
		}
	}
	// The tuned knots crowd near the origin on linear axes; the log-log view
	// shows the interior knots (the endpoints have a zero component).
	pathsLog := paths
	pathsLog.title = e.title + ": tuned spline paths, interior knots (replicate 0)"
	pathsLog.xlabel, pathsLog.ylabel = "η0 (reference exponent, log scale)", "η1 (target exponent, log scale)"
	pathsLog.logX, pathsLog.logY = true, true
	for base, f := range map[string]figure{"roundtrips": trips, "paths": paths, "paths_log": pathsLog, "objectives": objectives,
		"lambda": local, "lambda_cumulative": cumulative} {
		if err := f.save(filepath.Join(dir, base)); err != nil {
			return fmt.Errorf("%s figure %s: %w", e.name, base, err)
		}
	}
	return nil
}

// exactComparison holds the closed forms of a Gaussian experiment.
type exactComparison struct {
	pair gaussexact.GaussianPair
}

// exactGaussian returns the closed forms for a one-dimensional Gaussian
// model, nil for any other model.
func exactGaussian(m models.Model) *exactComparison {
	g, ok := m.(*models.Gaussian)
	if !ok || g.Dim != 1 {
		return nil
	}
	return &exactComparison{gaussexact.GaussianPair{Dim: 1, Mu0: g.Mu0, Mu1: g.Mu1, Sigma0: g.Sigma0, Sigma1: g.Sigma1}}
}

// compareContext is compare, abandoned as soon as ctx is done: the
// closed forms (quadrature and Nelder–Mead) run on a goroutine of their
// own and cannot be stopped, so an interrupted program returns at once
// and leaves that goroutine to end with the process.
func (x *exactComparison) compareContext(ctx context.Context, meth reproduceMethod, res *batch.Result, chains int, measured float64) (string, error) {
	type answer struct {
		row string
		err error
	}
	done := make(chan answer, 1)
	go func() {
		row, err := x.compare(meth, res, chains, measured)
		done <- answer{row, err}
	}()
	select {
	case a := <-done:
		return a.row, a.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// compare returns a table row: the exact Λ and rate of the method's tuned
// paths against the best path of its family.
func (x *exactComparison) compare(meth reproduceMethod, res *batch.Result, chains int, measured float64) (string, error) {
	lambdas := make([]float64, len(res.Knots))
	rates := make([]float64, len(res.Knots))
	for r, knots := range res.Knots {
		path := tune.NewSpline(meth.knots)
		if err := path.SetKnots(knots); err != nil {
			return "", err
		}
		lambdas[r] = x.pair.Barrier(path)
		rate, err := x.pair.RoundTripRate(path, chains)
		if err != nil {
			return "", err
		}
		rates[r] = rate
	}
	lm, lsd := meanSD(lambdas)
	rm, _ := meanSD(rates)
	best, bestLambda := x.pair.OptimalKnots(meth.knots)
	bestRate, err := x.pair.RoundTripRate(best, chains)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("| %s\t| %.2f ± %.2f\t| %.5f\t| %.5f\t| %.3f\t| %.5f\t| %.0f%%\t|",
		meth.name, lm, lsd, rm, measured, bestLambda, bestRate, 100*measured/bestRate), nil
}

// highDimDims are the dimensions of the paper's Figure 5.
var highDimDims = []int{1, 2, 4, 8, 16, 32, 64, 128, 256}

// reproduceHighDim runs the paper's Figure 5: the Gaussian pair
// N(-1, 0.1² I_d) → N(1, 0.1² I_d) for d = 1 … 256 with ⌈15√d⌉ chains, NRPT
// on the linear path and on the K=4 spline, 50,000 iterations in 500 scans.
func reproduceHighDim(ctx context.Context, o reproduceOptions, stderr io.Writer, report io.Writer) error {
	dir := filepath.Join(o.out, "highdim")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	reps := 5
	if o.replicates > 0 {
		reps = o.replicates
	}
	const scans = 500
	iters := o.scaled(50000, scans)
	dims := highDimDims
	fig := figure{title: "High-dimensional Gaussian: round-trip rate against dimension", xlabel: "dimension d",
		ylabel: "round trips per iteration", logX: true}
	rows := [][]string{{"method", "dim", "chains", "replicate", "rate", "last_scan_barrier"}} // seconds: summary.json
	fmt.Fprintf(report, "\n## High-dimensional Gaussian N(-1, 0.1² I) → N(1, 0.1² I)\n\n⌈15√d⌉ chains, %d iterations in %d scans, %d replicates, lr 0.2, seed %d.\n\n", iters, scans, reps, o.seed)
	tw := tabwriter.NewWriter(report, 0, 0, 1, ' ', 0)
	fmt.Fprintln(tw, "| d\t| chains\t| NRPT+Linear rate\t| NRPT+Spline(K=4) rate\t| linear-path bound\t|")
	fmt.Fprintln(tw, "|---\t|---\t|---\t|---\t|---\t|")
	var bx, by []float64
	lines := map[int]*series{1: {name: "NRPT+Linear"}, 4: {name: "NRPT+Spline(K=4)"}}
	// A run of 5 replicates is one block of layout.Lanes, which one worker
	// computes: with more workers, the linear and the spline run of each d
	// run at the same time (results and files are the same as one after
	// the other).
	workers := o.workers
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	concurrent := (reps+layout.Lanes-1)/layout.Lanes < workers
	var progress io.Writer = stderr
	if concurrent {
		progress = &lockedWriter{w: stderr}
	}
	for _, d := range dims {
		chains := int(math.Ceil(15 * math.Sqrt(float64(d))))
		g, err := newGaussianPair(d, -1, 1, 0.1, 0.1)
		if err != nil {
			return err
		}
		cell := map[int][2]float64{}
		ks := []int{1, 4}
		labels := make([]string, len(ks))
		cfgs := make([]batch.Config, len(ks))
		progs := make([]func(batch.Progress), len(ks))
		for i, k := range ks {
			labels[i] = fmt.Sprintf("highdim d=%d K=%d", d, k)
			cfgs[i] = batch.Config{Model: g, Chains: chains, Replicates: reps, Iterations: iters, Scans: scans,
				TuneSchedule: true, Knots: k, TunePath: k >= 2, LearningRate: 0.2, Seed: o.seed, Workers: o.workers}
			if !o.quiet {
				progs[i] = progressPrinter(progress, labels[i])
			}
		}
		results, err := o.job.runAll(ctx, labels, cfgs, progs, concurrent, workers)
		if err != nil {
			return err
		}
		for i, res := range results {
			k := ks[i]
			if res == nil {
				continue // another shard's
			}
			if res.Interrupted {
				return interruptedf("interrupted during highdim d=%d K=%d; the files of the experiments finished are in %s", d, k, o.out)
			}
			rates := make([]float64, reps)
			for r := range rates {
				rates[r] = float64(res.RoundTrips[r]) / float64(res.Iterations)
				rows = append(rows, []string{lines[k].name, itoa(d), itoa(chains), itoa(r), ftoa(rates[r]),
					ftoa(res.History[r][len(res.History[r])-1].Barrier)})
			}
			mean, sd := meanSD(rates)
			cell[k] = [2]float64{mean, sd}
			lines[k].xs = append(lines[k].xs, float64(d))
			lines[k].ys = append(lines[k].ys, mean)
		}
		bound := sweep.LinearBound(d, -1, 1, 0.1)
		bx, by = append(bx, float64(d)), append(by, bound)
		fmt.Fprintf(tw, "| %d\t| %d\t| %.5f ± %.5f\t| %.5f ± %.5f\t| %.5f\t|\n", d, chains, cell[1][0], cell[1][1], cell[4][0], cell[4][1], bound)
	}
	if o.job.shardOnly() {
		return nil // a shard's runs are in runs/; ptbatch merge makes the report
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	lines[1].points, lines[4].points = true, true
	fig.lines = []series{*lines[4], *lines[1], {name: "linear-path bound 1/(2+2Λ)", xs: bx, ys: by, dashed: true}}
	if err := writeCSV(filepath.Join(dir, "rates.csv"), rows); err != nil {
		return err
	}
	return fig.save(filepath.Join(dir, "rate_vs_dimension"))
}

// lockedWriter serialises the writes of concurrent progress lines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// checkMemory refuses the experiments when the largest of their runs does
// not fit in the memory limit (runs are one after the other).
func (o reproduceOptions) checkMemory(c *cmdFlags, todo []experiment, highdim bool) error {
	var need int64
	var err error
	estimate := func(cfg batch.Config) {
		if err == nil {
			var n int64
			if n, err = batch.EstimateMemory(cfg); n > need {
				need = n
			}
		}
	}
	for _, e := range todo {
		m, merr := e.model(o.seed)
		if merr != nil {
			return fmt.Errorf("%s: %v", e.name, merr)
		}
		reps := e.replicates
		if o.replicates > 0 {
			reps = o.replicates
		}
		for _, meth := range reproduceMethods {
			estimate(meth.config(e, m, reps, o.scaled(e.iterations, e.scans), o))
		}
	}
	if highdim {
		reps := 5
		if o.replicates > 0 {
			reps = o.replicates
		}
		g, _ := newGaussianPair(256, -1, 1, 0.1, 0.1)
		estimate(batch.Config{Model: g, Chains: 240, Replicates: reps, Iterations: o.scaled(50000, 500), Scans: 500,
			TuneSchedule: true, Knots: 4, TunePath: true, LearningRate: 0.2, Seed: o.seed, Workers: o.workers})
	}
	if err == nil {
		// The CSVs of an experiment, kept until it ends: nine fields per
		// method, replicate and scan.
		var rows int64
		if rows, err = mulBytes(int64(len(reproduceMethods)), int64(max(o.replicates, 10)), 500, 9*(16+16)); err == nil {
			need, err = addBytes(need, rows)
		}
		// lambda.csv: five fields per method, replicate and grid point.
		if err == nil {
			rows, err = mulBytes(int64(len(reproduceMethods)), int64(max(o.replicates, 10)), lambdaPoints, 5*(16+16))
		}
		if err == nil {
			need, err = addBytes(need, rows)
		}
	}
	return checkMemory(c, o.maxMemory, need, err, []sizeFlag{{"replicates", float64(o.replicates), 10}})
}
