package batch

import (
	"errors"
	"fmt"
	"math"
	"runtime"

	"github.com/ptbatch/ptbatch/models"
)

// Algorithm selects the communication scheme.
type Algorithm int

const (
	// NRPT swaps the even pairs on even iterations and the odd pairs on odd
	// ones (deterministic even-odd, alg:NRPT).
	NRPT Algorithm = iota
	// Reversible picks the even or the odd set with a fair coin, per
	// replicate and iteration.
	Reversible
)

// String returns "nrpt" or "reversible".
func (a Algorithm) String() string {
	if a == Reversible {
		return "reversible"
	}
	return "nrpt"
}

// ParseAlgorithm maps "nrpt" or "reversible" to an Algorithm.
func ParseAlgorithm(s string) (Algorithm, error) {
	switch s {
	case "nrpt":
		return NRPT, nil
	case "reversible":
		return Reversible, nil
	}
	return 0, fmt.Errorf("unknown algorithm %q (want nrpt or reversible)", s)
}

// GradientForm selects the covariance estimator of the SKL gradient.
type GradientForm int

const (
	// BlockGradient uses the within-chain 2×2 covariances only.
	BlockGradient GradientForm = iota
	// FullGradient uses the full covariance over all chains (the paper's
	// matrix form).
	FullGradient
)

// Tuning selects how the schedule and the path are tuned.
type Tuning int

const (
	// PaperTuning is alg:PT_tuning as the paper runs it: after every one
	// of Scans equal scans, the schedule update (TuneSchedule) and one
	// Adagrad step of the knots with LearningRate (TunePath).
	PaperTuning Tuning = iota
	// AutoTuning is the automatic tuner (tune.Auto), per replicate: rounds
	// of whole scans that start short and double when the SKL stops
	// falling by more than its noise, Rprop steps of the knots in log
	// space (no learning rate), the schedule updated at every round's end,
	// and a stop after which the path and the schedule stay fixed. The
	// tuning uses at most the scans before the kept ones (Scans −
	// KeepScansInEffect()), so the kept scans always come from the fixed
	// sampler. LearningRate is not used and Gradient must be
	// BlockGradient. Scans sets the granularity of the rounds: AutoScans
	// chooses it.
	AutoTuning
)

// String returns "paper", "auto", or "Tuning(n)" for another value.
func (t Tuning) String() string {
	switch t {
	case PaperTuning:
		return "paper"
	case AutoTuning:
		return "auto"
	}
	return fmt.Sprintf("Tuning(%d)", int(t))
}

// ParseTuning maps "paper" or "auto" to a Tuning.
func ParseTuning(s string) (Tuning, error) {
	switch s {
	case "paper":
		return PaperTuning, nil
	case "auto":
		return AutoTuning, nil
	}
	return 0, fmt.Errorf("unknown tuning %q (want auto or paper)", s)
}

// Config is everything a run needs.
type Config struct {
	Model      models.Model
	Chains     int // number of chains N+1 (schedule points t_0..t_N)
	Replicates int // independent PT runs
	// FirstReplicate is the replicate number of the run's first
	// replicate: replicate b of the run draws from the stream of
	// (Seed, FirstReplicate+b), so a run of replicates [k, k+R) gives
	// bit for bit what those replicates give inside a larger run.
	FirstReplicate int
	Algorithm      Algorithm
	Iterations     int // total iterations, split into Scans equal scans
	Scans          int
	// TuneSchedule updates the schedule after every scan (eq:equicrit).
	TuneSchedule bool
	// Knots is the number K of spline segments; 1 (or 0) is the linear
	// path.
	Knots int
	// TunePath takes an SKL gradient step on the knots after every scan
	// (alg:PT_tuning); it needs Knots >= 2.
	TunePath     bool
	LearningRate float64
	Gradient     GradientForm
	// Tuning selects the paper's tuning (the zero value) or the automatic
	// tuner.
	Tuning Tuning
	// KeepScans is the number of final scans whose target-chain states
	// count as samples (the per-observable target moments of the result,
	// and what a SampleRecorder keeps by default); 0 means the last half,
	// (Scans+1)/2. The target chain targets π_1 in every scan, but the
	// first scans are burn-in: replicas start at the reference and the
	// path and schedule are still far from tuned.
	KeepScans int
	Seed      uint64
	// VariationalLeg is the number C2 of chains of a second leg, the
	// stabilised two-leg PT of Surjanovic et al. (NeurIPS 2022); 0 (the
	// default) is the usual single leg. The run's Chains chains form one
	// line: leg 1 is chains 0 … C1−1 (C1 = Chains − VariationalLeg), from
	// the model's own reference at chain 0 to the target at chain C1−1 on
	// the run's path and schedule; leg 2 is chains C1 … Chains−1, from a
	// second target chain C1 to the second reference at chain Chains−1 on
	// the linear path, t running from 1 to 0 (Result.Schedules). The swap
	// between the two target chains is always accepted. The model picks
	// each chain's reference (models.BlockSpec.SecondLeg): Stabilized puts
	// its fitted Gaussian on leg 2, any other model its own reference on
	// both. Samples, moments and log Z come from leg 1 (its target chain
	// C1−1, the stepping stone along leg 1), each leg's schedule is tuned
	// from its own rejections (with AutoTuning, leg 2's at the end of each
	// of the tuner's rounds, from the round's), the path gradient and the
	// automatic tuner's stop act on leg 1, and
	// Result.Legs reports each leg's round trips, restarts and barrier.
	// It needs VariationalLeg ≥ 2 and C1 ≥ 2, and a model that is not
	// exact.
	VariationalLeg int
	Workers        int  // goroutines; 0 means runtime.NumCPU()
	Pin            bool // pin workers to CPUs, NUMA-aware
	// Statistics observe every block of the run (see Statistic).
	Statistics []Statistic
}

// Defaults of DefaultConfig: those of `ptbatch run`.
const (
	// DefaultChains is the number of chains N+1 of a default run.
	DefaultChains = 50
	// DefaultReplicates is the number of replicates of a default run.
	DefaultReplicates = 10
	// DefaultKnots is the number K of spline segments of a default run.
	DefaultKnots = 4
	// DefaultLearningRate is the Adagrad learning rate of the knots under
	// PaperTuning (AutoTuning does not use it).
	DefaultLearningRate = 0.2
	// DefaultSeed is the seed of a default run.
	DefaultSeed = 1
)

// DefaultConfig returns the configuration of `ptbatch run` with no flags
// but the model's and --iterations: the automatic tuner (AutoTuning) with
// AutoScans(iterations) scans, the schedule tuned (eq:equicrit) and a
// K = DefaultKnots spline path tuned by the SKL surrogate (eq:bound),
// NRPT's even-odd swaps (alg:NRPT), DefaultChains chains,
// DefaultReplicates replicates, DefaultSeed, the last half of the scans
// kept and every CPU. Change fields before New; Validate reports what New
// would refuse (for example fewer than 2 iterations).
func DefaultConfig(model models.Model, iterations int) Config {
	return Config{
		Model:        model,
		Chains:       DefaultChains,
		Replicates:   DefaultReplicates,
		Algorithm:    NRPT,
		Iterations:   iterations,
		Scans:        max(AutoScans(iterations), 1),
		TuneSchedule: true,
		Knots:        DefaultKnots,
		TunePath:     true,
		LearningRate: DefaultLearningRate,
		Gradient:     BlockGradient,
		Tuning:       AutoTuning,
		Seed:         DefaultSeed,
	}
}

// ErrConfig is the error every *ConfigError matches with errors.Is.
var ErrConfig = errors.New("batch: invalid configuration")

// ConfigError is a bad configuration value. Field is the Config field's
// name (for example "Knots"); a command line maps it to its own flag.
type ConfigError struct {
	Field string
	Value any
	Why   string
}

// Error returns "batch: <Field> = <Value>: <Why>".
func (e *ConfigError) Error() string {
	return fmt.Sprintf("batch: %s = %v: %s", e.Field, e.Value, e.Why)
}

// Is reports whether target is ErrConfig.
func (e *ConfigError) Is(target error) bool { return target == ErrConfig }

// KeepScansInEffect returns the number of kept scans the run uses:
// KeepScans, or the last half of the scans when KeepScans is 0.
func (c *Config) KeepScansInEffect() int {
	if c.KeepScans == 0 {
		return (c.Scans + 1) / 2
	}
	return min(c.KeepScans, c.Scans)
}

// Validate returns a *ConfigError for the first bad setting: everything
// New would refuse.
func (c *Config) Validate() error {
	bad := func(f string, v any, why string) error { return &ConfigError{f, v, why} }
	switch {
	case c.Model == nil:
		return bad("Model", "<nil>", "no model")
	case len(c.Model.Observables()) == 0:
		return bad("Model", "no observables", "a model needs at least one observable")
	case c.Chains < 2:
		return bad("Chains", c.Chains, "need at least 2 chains")
	case c.Replicates < 1:
		return bad("Replicates", c.Replicates, "need at least 1 replicate")
	case c.FirstReplicate < 0:
		return bad("FirstReplicate", c.FirstReplicate, "must be 0 or positive")
	case c.Scans < 1:
		return bad("Scans", c.Scans, "need at least 1 scan")
	case c.Iterations < c.Scans:
		return bad("Iterations", c.Iterations, fmt.Sprintf("need at least one iteration per scan (Scans = %d)", c.Scans))
	case c.Iterations%c.Scans != 0:
		return bad("Iterations", c.Iterations, fmt.Sprintf("must be a multiple of Scans (%d) so that scans are equal", c.Scans))
	case c.Knots < 0:
		return bad("Knots", c.Knots, "must be 0 or 1 (the linear path) or more")
	case c.TunePath && c.Knots < 2:
		return bad("Knots", c.Knots, "path tuning needs at least 2 knots")
	case c.Tuning != PaperTuning && c.Tuning != AutoTuning:
		return bad("Tuning", c.Tuning, "unknown tuning")
	case c.Tuning == AutoTuning && !c.TunePath && !c.TuneSchedule:
		return bad("Tuning", c.Tuning, "automatic tuning needs something to tune: the schedule (TuneSchedule) or the path (TunePath)")
	case c.Tuning == AutoTuning && c.TunePath && c.Gradient != BlockGradient:
		return bad("Gradient", c.Gradient, "automatic tuning uses the block-form gradient")
	case c.Tuning == AutoTuning && c.KeepScansInEffect() >= c.Scans:
		return bad("KeepScans", c.KeepScans, fmt.Sprintf("automatic tuning runs in the scans before the kept ones; keep fewer than all %d scans", c.Scans))
	case c.Tuning == PaperTuning && c.TunePath && (!(c.LearningRate > 0) || math.IsInf(c.LearningRate, 0)):
		return bad("LearningRate", c.LearningRate, "learning rate must be positive and finite")
	case c.TunePath && c.Gradient != BlockGradient && c.Gradient != FullGradient:
		return bad("Gradient", c.Gradient, "unknown gradient form")
	case c.KeepScans < 0:
		return bad("KeepScans", c.KeepScans, "must be 0 (the last half) or positive")
	case c.Workers < 0:
		return bad("Workers", c.Workers, "must be 0 (all CPUs) or positive")
	case c.Algorithm != NRPT && c.Algorithm != Reversible:
		return bad("Algorithm", c.Algorithm, "unknown algorithm")
	}
	if err := c.validateLegs(); err != nil {
		return err
	}
	for i, s := range c.Statistics {
		if s == nil {
			return bad("Statistics", fmt.Sprintf("[%d] = nil", i), "no statistic")
		}
	}
	if c.TunePath && c.Gradient == FullGradient {
		if mem := float64(c.Iterations/c.Scans) * float64(2*c.Chains) * float64(c.Replicates+7) * 8; mem > 4<<30 {
			return bad("Scans", c.Scans, fmt.Sprintf("the full-covariance gradient would record %.1f GiB of energies per scan; use more scans", mem/(1<<30)))
		}
	}
	return nil
}

// validateLegs returns a *ConfigError for a bad second leg
// (VariationalLeg).
func (c *Config) validateLegs() error {
	bad := func(v any, why string) error { return &ConfigError{"VariationalLeg", v, why} }
	switch {
	case c.VariationalLeg == 0 && models.IsStabilized(c.Model):
		return bad(0, "the stabilized reference needs a second leg of at least 2 chains")
	case c.VariationalLeg == 0:
		return nil
	case c.VariationalLeg < 2:
		return bad(c.VariationalLeg, "a second leg needs at least 2 chains (0 for none)")
	case c.Chains-c.VariationalLeg < 2:
		return bad(c.VariationalLeg, fmt.Sprintf("leaves %d of the %d chains to the first leg, which needs at least 2", c.Chains-c.VariationalLeg, c.Chains))
	case models.IsExact(c.Model):
		return bad(c.VariationalLeg, "a second leg needs a model whose moves are not exact draws")
	}
	return nil
}

// leg1Chains returns C1, the chains of the first leg: Chains without a
// second leg.
func (c *Config) leg1Chains() int { return c.Chains - c.VariationalLeg }

// workers returns the number of worker goroutines for nb blocks.
func (c *Config) workers(nb int) int {
	w := c.Workers
	if w == 0 {
		w = runtime.NumCPU()
	}
	if w > nb {
		w = nb
	}
	return w
}
