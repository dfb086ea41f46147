package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/runout"
	"github.com/ptbatch/ptbatch/sweep"
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

// parseList parses the comma-separated list of flag name: integers of
// at least least each (sweep.ParseInts).
func parseList(c *cmdFlags, name string, least int) ([]int, []string, error) {
	xs, texts, err := sweep.ParseInts(c.Show(name), least)
	var le *sweep.ListError
	switch {
	case errors.As(err, &le) && le.NotNumber:
		return nil, nil, c.bad(name, "%q is not a whole number that fits in 64 bits (want comma-separated integers)", le.Part)
	case errors.As(err, &le):
		return nil, nil, c.bad(name, "%d is below %d (want comma-separated integers of at least %d)", le.Value, least, least)
	}
	return xs, texts, nil
}

// sweepGrid parses and checks the flags and returns the sweep's cells,
// the sweep, and the warnings to print before running.
func sweepGrid(c *cmdFlags, f *sweepFlags) ([]sweep.Cell, *sweep.Spec, []string, error) {
	s, dimTexts, err := sweepSpec(c, f)
	if err == nil {
		err = checkSweepCounts(c, f, s)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	var warnings []string
	if s.Algorithm == "nrpt" && slices.Max(s.Knots) >= 2 && f.tuning == "paper" {
		ws, err := runout.CheckLR(f.lr, f.scans)
		if err != nil {
			return nil, nil, nil, refusal(c, err)
		}
		warnings = warningLines(c, "lr", ws)
	}
	knotsErr, err := checkSweepDims(c, f, s, dimTexts)
	if err != nil {
		return nil, nil, nil, err
	}
	cells := s.Cells()
	cfgs, err := checkSweepMemory(c, f, s, cells, dimTexts)
	switch {
	case err != nil:
		return nil, nil, nil, err
	case knotsErr != nil:
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
	return cells, s, warnings, nil
}

// sweepSpec parses the flags' lists into the sweep's Spec, with the
// dimensions as typed (for messages).
func sweepSpec(c *cmdFlags, f *sweepFlags) (*sweep.Spec, []string, error) {
	if err := c.checkFinite(); err != nil {
		return nil, nil, err
	}
	alg, err := batch.ParseAlgorithm(f.algorithm)
	if err != nil {
		return nil, nil, c.bad("algorithm", "want nrpt or reversible")
	}
	for _, name := range c.given {
		if (name == "knots" || name == "lr") && alg == batch.Reversible {
			return nil, nil, c.bad(name, "applies only to --algorithm nrpt: reversible sweeps run untuned on the linear path")
		}
	}
	if err := checkSweepModel(c, f); err != nil {
		return nil, nil, err
	}
	s := &sweep.Spec{Model: f.model, Replicates: f.replicates, Iterations: f.iterations, Scans: f.scans, LearningRate: f.lr,
		Sigma: f.sigma, Mu0: f.mu0, Mu1: f.mu1, Algorithm: f.algorithm, Tuning: f.tuning,
		Given: sweep.Lists{Dims: f.dims, Chains: f.chains, Knots: f.knots, Seeds: f.seeds}}
	dims, dimTexts, err := parseList(c, "dims", 1)
	if err != nil {
		return nil, nil, err
	}
	s.Dims = dims
	if !s.Gaussian() {
		dimTexts = []string{"1"} // the model's own
	}
	if alg == batch.NRPT {
		if s.Knots, _, err = parseList(c, "knots", 1); err != nil {
			return nil, nil, err
		}
	}
	if c.IsSet("lr") && slices.Max(s.GridKnots()) < 2 {
		return nil, nil, c.bad("lr", "applies only to tuned spline paths: --knots %s has no K of 2 or more", c.Show("knots"))
	}
	if f.chains != "auto" {
		if s.Chains, _, err = parseList(c, "chains", 2); err != nil {
			return nil, nil, err
		}
	}
	var le *sweep.ListError
	if s.Seeds, err = sweep.ParseSeeds(f.seeds); errors.As(err, &le) {
		return nil, nil, c.bad("seeds", "%q is not a seed (want comma-separated integers from 0 to 18446744073709551615)", le.Part)
	}
	return s, dimTexts, err
}

// checkSweepCounts refuses the sizes runout.Spec.CheckSizes refuses (chains
// and thin, not sweep's flags, pass), and over sweep.MaxCells cells.
func checkSweepCounts(c *cmdFlags, f *sweepFlags, s *sweep.Spec) error {
	sizes := runout.Spec{Tuning: batch.PaperTuning, Chains: 2, Thin: 1, Replicates: f.replicates, Iterations: f.iterations, Scans: f.scans, Workers: f.workers}
	if err := sizes.CheckSizes(); err != nil {
		return refusal(c, err)
	}
	var se *sweep.SizeError
	if errors.As(s.CheckSize(), &se) {
		return usagef("invalid --%s with %d values: the grid --dims × --chains × --knots × --seeds has more than %d cells, each a run of its own; split the sweep",
			se.List, se.Len, sweep.MaxCells)
	}
	return nil
}

// checkSweepDims checks each dimension's Gaussian and chains
// (sweep.Spec.CheckDim), and returns the first knots that exceed a cell's
// chains − 1 (refused after the memory check) or a refusal.
func checkSweepDims(c *cmdFlags, f *sweepFlags, s *sweep.Spec, dimTexts []string) (knotsErr, err error) {
	names := gaussFlags{"dims", "mu0", "mu1", "sigma", "sigma"}
	for i, d := range s.GridDims() {
		if s.Gaussian() { // other models: one dimension, the model's (sweepmodel.go)
			if err := checkGaussian(c, names, dimTexts[i], d, f.mu0, f.mu1, f.sigma, f.sigma); err != nil {
				return nil, err
			}
		}
		ke, err := s.CheckDim(d)
		var ce *sweep.ChainsError
		switch {
		case errors.As(err, &ce) && ce.Auto:
			return nil, usagef("invalid --dims %s: --chains auto gives ⌈15√d⌉ = %.0f chains, more than %d (replica numbers are 32-bit)", dimTexts[i], ce.Chains, runout.MaxChains)
		case err != nil:
			return nil, usagef("invalid --chains %.0f: at most %d chains (replica numbers are 32-bit)", ce.Chains, runout.MaxChains)
		case ke != nil && knotsErr == nil:
			chainsText := strconv.Itoa(ke.Chains)
			if ke.Auto {
				chainsText = fmt.Sprintf("%d (auto, d = %s)", ke.Chains, dimTexts[i])
			}
			knotsErr = knotsLimit(c, ke.Knots, ke.Chains, chainsText)
		}
	}
	return knotsErr, nil
}

// checkSweepMemory returns the cells' configurations (sweep.Spec.Configs),
// or refuses a cell whose model cannot be made, or the sweep when its
// largest cell (and one cell's CSV rows, sweep.Spec.Memory) exceeds
// --max-memory.
func checkSweepMemory(c *cmdFlags, f *sweepFlags, s *sweep.Spec, cells []sweep.Cell, dimTexts []string) ([]batch.Config, error) {
	cfgs, err := s.Configs(cells, f.workers)
	var me *sweep.ModelError
	if errors.As(err, &me) {
		text := ""
		for i, d := range s.GridDims() {
			if d == me.Dim {
				text = dimTexts[i] // the last, as typed
			}
		}
		return nil, usagef("invalid --dims %s: %v", text, me.Err)
	}
	need, needErr := s.Memory(cfgs)
	dim, chains, knots := s.Largest()
	return cfgs, checkMemory(c, f.maxMemory, need, needErr, []sizeFlag{
		{"dims", float64(dim), 256}, {"chains", float64(chains), 240}, {"knots", float64(knots), 4},
		{"replicates", float64(f.replicates), 5}, {"iterations", float64(f.iterations), 50000}, {"scans", float64(f.scans), 500},
	})
}
