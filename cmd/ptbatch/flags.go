package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// runFlags are the settings of `ptbatch run`.
type runFlags struct {
	model      string
	chains     int
	algorithm  string
	path       string
	knots      int
	lr         float64
	gradient   string
	iterations int
	scans      int
	replicates int
	seed       uint64
	workers    int
	pin        bool
	tuneSched  bool
	jsonOut    bool
	out        string
	quiet      bool
	keepScans  int
	thin       int

	// gaussian
	dim                      int
	mu0, mu1, sigma0, sigma1 float64
	// betabinomial
	priorA, priorB   float64
	draws, trials    int
	successProb      float64
	successes, total int64

	set map[string]bool // flags given on the command line
}

// newRunFlagSet declares every flag of `ptbatch run` with its help text.
func newRunFlagSet(f *runFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.model, "model", "gaussian", "target model: gaussian, betabinomial, galaxy (6-component mixture on the galaxy velocities) or mixture (2 components, 1000 simulated points)")
	fs.IntVar(&f.chains, "chains", 50, "number of chains N+1 (schedule points t_0=0 … t_N=1), at least 2")
	fs.StringVar(&f.algorithm, "algorithm", "nrpt", "communication: nrpt (deterministic even/odd swaps) or reversible (fair coin per iteration)")
	fs.StringVar(&f.path, "path", "linear", "annealing path: linear, or spline (K-knot spline tuned by the SKL surrogate)")
	fs.IntVar(&f.knots, "knots", 4, "number K of spline segments for --path spline (K=1 is the linear path)")
	fs.Float64Var(&f.lr, "lr", 0.2, "Adagrad learning rate of the spline knots (--path spline)")
	fs.StringVar(&f.gradient, "gradient", "block", "SKL gradient covariance: block (within-chain, lower variance) or full (the paper's matrix form)")
	fs.IntVar(&f.iterations, "iterations", 45000, "total iterations (one local exploration + one communication step of every chain)")
	fs.IntVar(&f.scans, "scans", 150, "number of equal scans; the schedule (and path) are tuned after each; must divide --iterations")
	fs.IntVar(&f.replicates, "replicates", 10, "number of independent replicate runs")
	fs.Uint64Var(&f.seed, "seed", 1, "random seed; replicate b uses the stream of (seed, b)")
	fs.IntVar(&f.workers, "workers", runtime.NumCPU(), "worker goroutines sharding the replicates")
	fs.BoolVar(&f.pin, "pin", false, "pin workers to CPUs, NUMA nodes interleaved (Linux)")
	fs.BoolVar(&f.tuneSched, "tune-schedule", true, "tune the schedule after every scan (eq. equicrit); default true for nrpt, false for reversible")
	fs.BoolVar(&f.jsonOut, "json", false, "print one JSON object instead of the table")
	fs.StringVar(&f.out, "out", "", "directory for CSV files: per-scan statistics, final knots and schedules, and samples.csv (the kept target-chain states, written as each scan ends)")
	fs.IntVar(&f.keepScans, "keep-scans", 0, "number of final scans whose target-chain states are kept as samples (samples.csv, target_means); 0 means the last half")
	fs.IntVar(&f.thin, "thin", 1, "keep the target-chain state of every --thin-th iteration in samples.csv")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress lines on stderr")

	fs.IntVar(&f.dim, "dim", 1, "gaussian: dimension d")
	fs.Float64Var(&f.mu0, "mu0", -1, "gaussian: reference mean (every coordinate)")
	fs.Float64Var(&f.mu1, "mu1", 1, "gaussian: target mean (every coordinate)")
	fs.Float64Var(&f.sigma0, "sigma0", 0.01, "gaussian: reference standard deviation")
	fs.Float64Var(&f.sigma1, "sigma1", 0.01, "gaussian: target standard deviation")

	fs.Float64Var(&f.priorA, "prior-a", 180, "betabinomial: prior Beta(a, b) shape a")
	fs.Float64Var(&f.priorB, "prior-b", 840, "betabinomial: prior Beta(a, b) shape b")
	fs.IntVar(&f.draws, "draws", 2000, "betabinomial: number of Binomial observations simulated from the seed")
	fs.IntVar(&f.trials, "trials", 100, "betabinomial: trials per observation")
	fs.Float64Var(&f.successProb, "success-prob", 0.7, "betabinomial: success probability of the simulated data")
	fs.Int64Var(&f.successes, "successes", -1, "betabinomial: give the data directly as total successes S (with --total-trials) instead of simulating; S=140000 of 200000 reproduces the paper's Beta(140180, 60840)")
	fs.Int64Var(&f.total, "total-trials", -1, "betabinomial: total trials R for --successes")
	return fs
}

// parseRunFlags parses args into f and checks every value.
func parseRunFlags(args []string, stdout io.Writer) (*runFlags, error) {
	f := &runFlags{set: map[string]bool{}}
	fs := newRunFlagSet(f)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			printRunHelp(stdout, fs)
			return nil, errHelp
		}
		return nil, usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return nil, usagef("unexpected argument %q", fs.Arg(0))
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	var bad error
	fs.VisitAll(func(fl *flag.Flag) {
		if g, ok := fl.Value.(flag.Getter); ok && bad == nil {
			if x, ok := g.Get().(float64); ok && (math.IsNaN(x) || math.IsInf(x, 0)) {
				bad = usagef("invalid --%s %v: must be a finite number", fl.Name, x)
			}
		}
	})
	if bad != nil {
		return nil, bad
	}
	if !f.set["tune-schedule"] {
		f.tuneSched = f.algorithm != "reversible"
	}
	return f, nil
}

func printRunHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "Usage: ptbatch run [flags]\n\nRuns one configuration for --replicates independent replicates and prints a table (or --json).\n\nFlags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// config turns the flags into an engine configuration.
func (f *runFlags) config() (batch.Config, error) {
	var cfg batch.Config
	m, err := f.buildModel()
	if err != nil {
		return cfg, err
	}
	alg, err := batch.ParseAlgorithm(f.algorithm)
	if err != nil {
		return cfg, usagef("invalid --algorithm %q: want nrpt or reversible", f.algorithm)
	}
	cfg = batch.Config{
		Model:        m,
		Chains:       f.chains,
		Replicates:   f.replicates,
		Algorithm:    alg,
		Iterations:   f.iterations,
		Scans:        f.scans,
		TuneSchedule: f.tuneSched,
		Knots:        1,
		LearningRate: f.lr,
		Seed:         f.seed,
		Workers:      f.workers,
		Pin:          f.pin,
		KeepScans:    f.keepScans,
	}
	switch f.path {
	case "linear":
	case "spline":
		if f.knots < 1 {
			return cfg, usagef("invalid --knots %d: need at least 1", f.knots)
		}
		if !(f.lr > 0) {
			return cfg, usagef("invalid --lr %v: must be positive", f.lr)
		}
		cfg.Knots = f.knots
		cfg.TunePath = f.knots >= 2
	default:
		return cfg, usagef("invalid --path %q: want linear or spline", f.path)
	}
	switch f.gradient {
	case "block":
		cfg.Gradient = batch.BlockGradient
	case "full":
		cfg.Gradient = batch.FullGradient
	default:
		return cfg, usagef("invalid --gradient %q: want block or full", f.gradient)
	}
	if f.workers < 1 {
		return cfg, usagef("invalid --workers %d: need at least 1", f.workers)
	}
	if f.thin < 1 {
		return cfg, usagef("invalid --thin %d: need at least 1", f.thin)
	}
	if err := cfg.Validate(); err != nil {
		return cfg, configUsage(err)
	}
	if f.iterations%f.scans != 0 {
		return cfg, usagef("invalid --iterations %d: must be a multiple of --scans (%d)", f.iterations, f.scans)
	}
	return cfg, nil
}

// buildModel constructs the model named by --model from its flags.
func (f *runFlags) buildModel() (models.Model, error) {
	switch f.model {
	case "gaussian":
		m, err := models.NewGaussian(f.dim, f.mu0, f.mu1, f.sigma0, f.sigma1)
		if err != nil {
			return nil, usagef("invalid --%s", strings.Replace(err.Error(), " must", ": must", 1))
		}
		return m, nil
	case "betabinomial":
		return f.buildBetaBinomial()
	case "galaxy":
		return models.NewGalaxy(), nil
	case "mixture":
		return models.NewMixture(f.seed), nil
	}
	return nil, usagef("invalid --model %q: want gaussian, betabinomial, galaxy or mixture", f.model)
}
