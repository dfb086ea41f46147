package benchmarks

import (
	"fmt"
	"math"
	"strings"

	"github.com/ptbatch/ptbatch/batch"
)

// MaxChains is the most chains a workload may have: replica numbers are
// 32-bit.
const MaxChains = math.MaxInt32

// A WorkloadError refuses a workload: Field names the setting (the
// Workload field in lower case, as `ptbatch bench` names its flag) and
// Reason says what it needs.
type WorkloadError struct {
	Field, Reason string
}

// Error describes the refusal.
func (e *WorkloadError) Error() string { return "benchmarks: " + e.Field + ": " + e.Reason }

// WithModelDefaults returns w with its model's defaults
// (DefaultWorkloadFor): for a model other than the Gaussian, the model's
// Dim and Sigma, and its Chains and Iterations unless keepChains and
// keepIterations say they were chosen. An unknown model is a
// *WorkloadError.
func (w Workload) WithModelDefaults(keepChains, keepIterations bool) (Workload, error) {
	def, err := DefaultWorkloadFor(w.Model)
	if err != nil {
		return w, &WorkloadError{"model", "want one of " + strings.Join(ModelNames(), ", ")}
	}
	if w.isGaussian() {
		return w, nil
	}
	w.Dim, w.Sigma = def.Dim, def.Sigma
	if !keepChains {
		w.Chains = def.Chains
	}
	if !keepIterations {
		w.Iterations = def.Iterations
	}
	return w, nil
}

// Check returns a *WorkloadError for the first count out of range:
// chains (2 to MaxChains), replicates, iterations and repeats (at least
// 1), workers (0, all CPUs, or more). The Gaussian's dimension and σ are
// the model's to check (registry).
func (w Workload) Check() error {
	switch {
	case w.Chains < 2:
		return &WorkloadError{"chains", "need at least 2"}
	case w.Chains > MaxChains:
		return &WorkloadError{"chains", fmt.Sprintf("at most %d chains (replica numbers are 32-bit)", MaxChains)}
	case w.Replicates < 1:
		return &WorkloadError{"replicates", "need at least 1"}
	case w.Iterations < 1:
		return &WorkloadError{"iterations", "need at least 1"}
	case w.Workers < 0:
		return &WorkloadError{"workers", "need 0 (all CPUs) or more"}
	case w.Repeats < 1:
		return &WorkloadError{"repeats", "need at least 1"}
	}
	return nil
}

// Memory estimates the bytes Run needs for w, with Workers already
// resolved to a count: the larger of the engine's run and the tuned run
// (batch.EstimateMemory), the roofline's normals per worker and the
// scalar engine's state (8 arrays of Dim floats each), and 6 float64s of
// samples per repeat. It returns batch.ErrMemoryOverflow when the count
// does not fit in an int64.
func (w Workload) Memory() (int64, error) {
	cfg, _, tuned, err := w.Configs()
	if err != nil {
		return 0, err
	}
	need, err := batch.EstimateMemory(cfg)
	if err != nil {
		return 0, err
	}
	t, err := batch.EstimateMemory(tuned)
	if err != nil {
		return 0, err
	}
	roof, err1 := mulBytes(int64(w.Workers)+1, int64(w.Dim), 8*8)
	samples, err2 := mulBytes(int64(w.Repeats), 6*8)
	if err1 != nil || err2 != nil {
		return 0, batch.ErrMemoryOverflow
	}
	return addBytes(max(need, t), roof, samples)
}

// addBytes returns the sum of the terms, or batch.ErrMemoryOverflow.
func addBytes(terms ...int64) (int64, error) {
	s := int64(0)
	for _, t := range terms {
		if t < 0 || s > math.MaxInt64-t {
			return 0, batch.ErrMemoryOverflow
		}
		s += t
	}
	return s, nil
}

// mulBytes returns the product of the factors, or
// batch.ErrMemoryOverflow.
func mulBytes(factors ...int64) (int64, error) {
	p := int64(1)
	for _, f := range factors {
		if f < 0 || (f != 0 && p > math.MaxInt64/f) {
			return 0, batch.ErrMemoryOverflow
		}
		p *= f
	}
	return p, nil
}
