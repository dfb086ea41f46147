package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
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
	maxMemory                  int64
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
	c.Int(&f.workers, "workers", 0, "worker goroutines (default 0: all CPUs)")
	c.String(&f.out, "out", "", "directory for cells.csv (a row per cell × replicate) and summary.csv (mean and 95% CI per cell)")
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
	dims, dimTexts, err := parseList(c, "dims", 1)
	if err != nil {
		return nil, nil, nil, err
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
	if alg == batch.NRPT && slices.Max(knots) >= 2 {
		if err := checkLR(c, "lr", f.lr, f.scans, &warnings); err != nil {
			return nil, nil, nil, err
		}
	}
	var cells []sweepCell
	var cfgs []batch.Config
	var need int64
	var needErr, knotsErr error
	for i, d := range dims {
		if err := checkGaussian(c, names, dimTexts[i], d, f.mu0, f.mu1, f.sigma, f.sigma); err != nil {
			return nil, nil, nil, err
		}
		g, err := models.NewGaussian(d, f.mu0, f.mu1, f.sigma, f.sigma)
		if err != nil {
			return nil, nil, nil, usagef("invalid --dims %s: %v", dimTexts[i], err)
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
					cfg := batch.Config{Model: g, Chains: ch, Replicates: f.replicates, Algorithm: alg,
						Iterations: f.iterations, Scans: f.scans, TuneSchedule: alg == batch.NRPT, Knots: k,
						TunePath: k >= 2, LearningRate: f.lr, Seed: seed, Workers: f.workers}
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
		// The CSV rows of every cell, kept until the end: 13 fields per
		// cell and replicate.
		var rows int64
		if rows, needErr = mulBytes(int64(len(cells)), int64(f.replicates)+1, 13*(16+16)); needErr == nil {
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

// runSweep is `ptbatch sweep`: a grid over dimension, chains, knots and
// seeds of the high-dimensional Gaussian experiment (the paper's Figure 5).
// Every cell is checked, its memory included, before any runs.
func runSweep(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f := &sweepFlags{}
	c := newSweepFlagSet(f)
	if err := c.parse(args, stdout, sweepIntro); err != nil {
		return err
	}
	cells, cfgs, warnings, err := sweepGrid(c, f)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "ptbatch: %s\n", w)
	}
	rows := [][]string{{"dim", "chains", "knots", "seed", "replicate", "round_trip_rate", "round_trip_rate_run",
		"round_trips", "barrier", "nonasymptotic_barrier", "skl", "tau_predicted", "linear_bound"}}
	summary := [][]string{{"dim", "chains", "knots", "seed", "replicates", "round_trip_rate_mean", "round_trip_rate_ci95",
		"round_trip_rate_run_mean", "round_trip_rate_run_ci95", "barrier_mean", "barrier_ci95", "tau_predicted_mean", "linear_bound", "seconds"}}
	var interrupted error
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
			interrupted = interruptedf("interrupted in cell %d of %d; the output reports the %d cells completed", i+1, len(cells), i)
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
		if err := writeCSV(filepath.Join(f.out, "cells.csv"), rows); err != nil {
			return err
		}
		if err := writeCSV(filepath.Join(f.out, "summary.csv"), summary); err != nil {
			return err
		}
	}
	return interrupted
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
