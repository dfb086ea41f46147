package batch

import (
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

// Config is everything a run needs.
type Config struct {
	Model      models.Model
	Chains     int // number of chains N+1 (schedule points t_0..t_N)
	Replicates int // independent PT runs
	Algorithm  Algorithm
	Iterations int // total iterations, split into Scans equal scans
	Scans      int
	// TuneSchedule updates the schedule after every scan (eq:equicrit).
	TuneSchedule bool
	// Knots is the number K of spline segments; 1 is the linear path.
	Knots int
	// TunePath takes an SKL gradient step on the knots after every scan
	// (alg:PT_tuning); it needs Knots >= 2.
	TunePath     bool
	LearningRate float64
	Gradient     GradientForm
	Seed         uint64
	Workers      int  // goroutines; 0 means runtime.NumCPU()
	Pin          bool // pin workers to CPUs, NUMA-aware
}

// ConfigError is a bad configuration value.
type ConfigError struct {
	Field string // the flag-style name of the setting
	Value any
	Why   string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("invalid --%s %v: %s", e.Field, e.Value, e.Why)
}

// Validate returns a *ConfigError for the first bad setting.
func (c *Config) Validate() error {
	bad := func(f string, v any, why string) error { return &ConfigError{f, v, why} }
	switch {
	case c.Model == nil:
		return bad("model", "<nil>", "no model")
	case c.Chains < 2:
		return bad("chains", c.Chains, "need at least 2 chains")
	case c.Replicates < 1:
		return bad("replicates", c.Replicates, "need at least 1 replicate")
	case c.Scans < 1:
		return bad("scans", c.Scans, "need at least 1 scan")
	case c.Iterations < c.Scans:
		return bad("iterations", c.Iterations, fmt.Sprintf("need at least one iteration per scan (scans = %d)", c.Scans))
	case c.Knots < 1:
		return bad("knots", c.Knots, "need at least 1 spline segment")
	case c.TunePath && c.Knots < 2:
		return bad("knots", c.Knots, "path tuning needs at least 2 knots")
	case c.TunePath && (!(c.LearningRate > 0) || math.IsInf(c.LearningRate, 0)):
		return bad("lr", c.LearningRate, "learning rate must be positive and finite")
	case c.Workers < 0:
		return bad("workers", c.Workers, "must be 0 (all CPUs) or positive")
	case c.Algorithm != NRPT && c.Algorithm != Reversible:
		return bad("algorithm", c.Algorithm, "unknown algorithm")
	}
	if c.TunePath && c.Gradient == FullGradient {
		if mem := float64(c.Iterations/c.Scans) * float64(2*c.Chains) * float64(c.Replicates+7) * 8; mem > 4<<30 {
			return bad("scans", c.Scans, fmt.Sprintf("the full-covariance gradient would record %.1f GiB of energies per scan; use more scans", mem/(1<<30)))
		}
	}
	return nil
}

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
