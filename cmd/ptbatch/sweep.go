package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/tune"
)

// sweepFlags are the settings of `ptbatch sweep`.
type sweepFlags struct {
	dims, chains, knots, seeds string
	replicates                 int
	iterations, scans          int
	lr, sigma, mu0, mu1        float64
	algorithm                  string
	workers                    int
	out                        string
	quiet                      bool
}

// sweepCell is one point of the grid.
type sweepCell struct {
	dim, chains, knots int
	seed               uint64
}

func newSweepFlagSet(f *sweepFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.dims, "dims", "1,2,4,8,16,32,64,128,256", "comma-separated Gaussian dimensions d")
	fs.StringVar(&f.chains, "chains", "auto", "comma-separated chain counts, or auto for ⌈15√d⌉ (the paper's high-dimensional setting)")
	fs.StringVar(&f.knots, "knots", "4", "comma-separated spline segment counts K; 1 is NRPT on the linear path (schedule tuned), K ≥ 2 tunes the spline path")
	fs.StringVar(&f.seeds, "seeds", "1", "comma-separated seeds; each seed is a cell of its own")
	fs.IntVar(&f.replicates, "replicates", 5, "replicates per cell, run together as SIMD lanes")
	fs.IntVar(&f.iterations, "iterations", 50000, "iterations per cell")
	fs.IntVar(&f.scans, "scans", 500, "scans per cell (must divide --iterations)")
	fs.Float64Var(&f.lr, "lr", 0.2, "Adagrad learning rate of the spline knots")
	fs.Float64Var(&f.sigma, "sigma", 0.1, "standard deviation of reference and target")
	fs.Float64Var(&f.mu0, "mu0", -1, "reference mean (every coordinate)")
	fs.Float64Var(&f.mu1, "mu1", 1, "target mean (every coordinate)")
	fs.StringVar(&f.algorithm, "algorithm", "nrpt", "nrpt or reversible (reversible runs untuned, as in the paper)")
	fs.IntVar(&f.workers, "workers", 0, "worker goroutines (0: all CPUs)")
	fs.StringVar(&f.out, "out", "", "directory for cells.csv (a row per cell × replicate) and summary.csv (mean and 95% CI per cell)")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress lines on stderr")
	return fs
}

func parseInts(flagName, s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || v < 1 {
			return nil, usagef("invalid --%s %q: want comma-separated positive integers", flagName, s)
		}
		out = append(out, v)
	}
	return out, nil
}

// runSweep is `ptbatch sweep`: a grid over dimension, chains, knots and
// seeds of the high-dimensional Gaussian experiment (the paper's Figure 5).
func runSweep(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := &sweepFlags{}
	fs := newSweepFlagSet(f)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprintln(stdout, "Usage: ptbatch sweep [flags]\n\nRuns a grid of the high-dimensional Gaussian experiment, N(μ0·1, σ²I) → N(μ1·1, σ²I),\none batch of replicates per cell, and writes a tidy CSV and a summary.\n\nFlags:")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return errHelp
		}
		return usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	for name, x := range map[string]float64{"lr": f.lr, "sigma": f.sigma, "mu0": f.mu0, "mu1": f.mu1} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return usagef("invalid --%s %v: must be a finite number", name, x)
		}
	}
	dims, err := parseInts("dims", f.dims)
	if err != nil {
		return err
	}
	knots, err := parseInts("knots", f.knots)
	if err != nil {
		return err
	}
	var chainList []int
	if f.chains != "auto" {
		if chainList, err = parseInts("chains", f.chains); err != nil {
			return err
		}
	}
	var seeds []uint64
	for _, part := range strings.Split(f.seeds, ",") {
		v, err := strconv.ParseUint(strings.TrimSpace(part), 10, 64)
		if err != nil {
			return usagef("invalid --seeds %q: want comma-separated non-negative integers", f.seeds)
		}
		seeds = append(seeds, v)
	}
	alg, err := batch.ParseAlgorithm(f.algorithm)
	if err != nil {
		return usagef("invalid --algorithm %q: want nrpt or reversible", f.algorithm)
	}
	var cells []sweepCell
	for _, d := range dims {
		cs := chainList
		if cs == nil {
			cs = []int{int(math.Ceil(15 * math.Sqrt(float64(d))))}
		}
		for _, c := range cs {
			for _, k := range knots {
				for _, s := range seeds {
					cells = append(cells, sweepCell{d, c, k, s})
				}
			}
		}
	}
	// Validate every cell before running any.
	cfgs := make([]batch.Config, len(cells))
	for i, c := range cells {
		g, err := models.NewGaussian(c.dim, f.mu0, f.mu1, f.sigma, f.sigma)
		if err != nil {
			return usagef("invalid --%s", strings.Replace(err.Error(), " must", ": must", 1))
		}
		cfgs[i] = batch.Config{Model: g, Chains: c.chains, Replicates: f.replicates, Algorithm: alg,
			Iterations: f.iterations, Scans: f.scans, TuneSchedule: alg == batch.NRPT, Knots: c.knots,
			TunePath: c.knots >= 2 && alg == batch.NRPT, LearningRate: f.lr, Seed: c.seed, Workers: f.workers}
		if err := cfgs[i].Validate(); err != nil {
			return configUsage(err)
		}
		if f.iterations%f.scans != 0 {
			return usagef("invalid --iterations %d: must be a multiple of --scans (%d)", f.iterations, f.scans)
		}
	}
	rows := [][]string{{"dim", "chains", "knots", "seed", "replicate", "round_trip_rate", "round_trip_rate_run",
		"round_trips", "barrier", "nonasymptotic_barrier", "skl", "tau_predicted", "linear_bound"}}
	summary := [][]string{{"dim", "chains", "knots", "seed", "replicates", "round_trip_rate_mean", "round_trip_rate_ci95",
		"round_trip_rate_run_mean", "round_trip_rate_run_ci95", "barrier_mean", "barrier_ci95", "tau_predicted_mean", "linear_bound", "seconds"}}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "d\tchains\tK\tseed\trate, last scan (95% CI)\trate, whole run\tbarrier\tlinear bound\tseconds\t")
	for i, c := range cells {
		var prog func(batch.Progress)
		if !f.quiet {
			prog = progressPrinter(stderr, fmt.Sprintf("cell %d/%d (d=%d, K=%d)", i+1, len(cells), c.dim, c.knots))
		}
		res, err := batch.Run(ctx, cfgs[i], prog)
		if err != nil {
			return err
		}
		if res.Interrupted {
			fmt.Fprintf(stderr, "ptbatch: interrupted in cell %d of %d; writing the cells completed\n", i+1, len(cells))
			break
		}
		bound := linearBound(c.dim, f.mu0, f.mu1, f.sigma)
		var rates, runRates, barriers, taus []float64
		for r := 0; r < f.replicates; r++ {
			st := res.History[r][len(res.History[r])-1]
			tau := tune.RoundTripRate(st.NonAsymptoticBarrier)
			runRate := float64(res.RoundTrips[r]) / float64(res.Iterations)
			rows = append(rows, []string{itoa(c.dim), itoa(c.chains), itoa(c.knots), strconv.FormatUint(c.seed, 10), itoa(r),
				ftoa(res.RoundTripRates[r]), ftoa(runRate), itoa(res.RoundTrips[r]), ftoa(st.Barrier),
				ftoa(st.NonAsymptoticBarrier), ftoa(st.SKL), ftoa(tau), ftoa(bound)})
			rates = append(rates, res.RoundTripRates[r])
			runRates = append(runRates, runRate)
			barriers = append(barriers, st.Barrier)
			taus = append(taus, tau)
		}
		rm, rci := meanCI(rates)
		qm, qci := meanCI(runRates)
		bm, bci := meanCI(barriers)
		summary = append(summary, []string{itoa(c.dim), itoa(c.chains), itoa(c.knots), strconv.FormatUint(c.seed, 10),
			itoa(f.replicates), ftoa(rm), ftoa(rci), ftoa(qm), ftoa(qci), ftoa(bm), ftoa(bci), ftoa(stat.Mean(taus, nil)), ftoa(bound),
			ftoa(res.Elapsed.Seconds())})
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%.4f ± %.4f\t%.4f ± %.4f\t%.2f\t%.4f\t%.1f\t\n", c.dim, c.chains, c.knots, c.seed, rm, rci, qm, qci, bm, bound, res.Elapsed.Seconds())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if f.out != "" {
		if err := os.MkdirAll(f.out, 0o755); err != nil {
			return err
		}
		if err := writeCSV(filepath.Join(f.out, "cells.csv"), rows); err != nil {
			return err
		}
		return writeCSV(filepath.Join(f.out, "summary.csv"), summary)
	}
	return nil
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
