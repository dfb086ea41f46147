package sweep

import (
	"math"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/registry"
	"github.com/ptbatch/ptbatch/study"
	"github.com/ptbatch/ptbatch/tune"
)

// Spec is a sweep's settings as data: the grid's lists and the settings
// every cell shares. A Spec is checked by its maker (the CLI refuses bad
// flags one line each); Cells and Plan assume a checked Spec.
type Spec struct {
	// Model is registry.Gaussian (the pair N(Mu0·1, Sigma²I) →
	// N(Mu1·1, Sigma²I) of each dimension of Dims) or another registered
	// model with its defaults and its own dimension.
	Model string
	// Dims are the Gaussian's dimensions; other models have one cell
	// dimension, 1.
	Dims []int
	// Chains are the chain counts; nil is ⌈15√d⌉ per dimension d
	// (AutoChains, the paper's high-dimensional setting).
	Chains []int
	// Knots are the spline segment counts K (1: the linear path); a
	// reversible sweep has the linear path only.
	Knots []int
	// Seeds are the seeds, each a cell of its own.
	Seeds []uint64
	// Replicates, Iterations and Scans are every cell's.
	Replicates, Iterations, Scans int
	// LearningRate is the Adagrad rate of the knots with paper tuning.
	LearningRate float64
	// Sigma, Mu0 and Mu1 are the Gaussian pair's.
	Sigma, Mu0, Mu1 float64
	// Algorithm is "nrpt" or "reversible"; Tuning is "paper" or "auto".
	Algorithm, Tuning string
	// Given are the lists as the user wrote them, which summary.json
	// records.
	Given Lists
}

// Lists are a sweep's lists as text ("1,2,4"; Chains may be "auto").
type Lists struct {
	Dims, Chains, Knots, Seeds string
}

// Cell is one point of the grid.
type Cell struct {
	Dim, Chains, Knots int
	Seed               uint64
}

// AutoChains returns ⌈15√d⌉, the chains of dimension d when Spec.Chains
// is nil (the paper's Figure 5).
func AutoChains(d int) float64 { return math.Ceil(15 * math.Sqrt(float64(d))) }

// Gaussian reports whether the sweep is of the Gaussian pair.
func (s *Spec) Gaussian() bool { return s.Model == registry.Gaussian }

// GridDims returns the dimensions of the grid: Dims for the Gaussian, the
// single dimension 1 for any other model.
func (s *Spec) GridDims() []int {
	if !s.Gaussian() {
		return []int{1}
	}
	return s.Dims
}

// GridKnots returns the knots of the grid: Knots for nrpt, the linear
// path alone for reversible.
func (s *Spec) GridKnots() []int {
	if s.Algorithm == "reversible" {
		return []int{1}
	}
	return s.Knots
}

// ChainsOf returns the chain counts of dimension d: Chains, or
// AutoChains(d) when Chains is nil.
func (s *Spec) ChainsOf(d int) []int {
	if s.Chains == nil {
		return []int{int(AutoChains(d))}
	}
	return s.Chains
}

// Cells returns the grid in order: dimension, then chains, then knots,
// then seed (the seed varies fastest).
func (s *Spec) Cells() []Cell {
	var out []Cell
	for _, d := range s.GridDims() {
		for _, ch := range s.ChainsOf(d) {
			for _, k := range s.GridKnots() {
				for _, seed := range s.Seeds {
					out = append(out, Cell{d, ch, k, seed})
				}
			}
		}
	}
	return out
}

// Run returns a cell as a run of package study: the registry's model (the
// Gaussian pair of the cell's dimension, or Model with its defaults) and
// the cell's method, with the schedule tuned for nrpt.
func (s *Spec) Run(c Cell) study.Run {
	spec := study.ModelSpec{Name: s.Model}
	if s.Gaussian() {
		spec.Values = registry.Values{"dim": float64(c.Dim), "mu0": s.Mu0, "mu1": s.Mu1, "sigma0": s.Sigma, "sigma1": s.Sigma}
	}
	sched := s.Algorithm == "nrpt"
	meth := study.Method{Label: s.Algorithm, Algorithm: s.Algorithm, Tuning: s.Tuning, Chains: c.Chains, Scans: s.Scans,
		Knots: c.Knots, LearningRate: s.LearningRate, TuneSchedule: &sched}
	return study.Run{Model: spec, Method: meth, Seed: c.Seed, Iterations: s.Iterations, Replicates: s.Replicates}
}

// Config returns a cell's engine configuration with workers, not
// validated (a caller checks its memory before batch.Config.Validate asks
// a large model for its observables).
func (s *Spec) Config(c Cell, workers int) (batch.Config, error) {
	run := s.Run(c)
	m, err := run.NewModel()
	if err != nil {
		return batch.Config{}, err
	}
	cfg, err := run.ConfigUnchecked(m)
	cfg.Workers = workers
	return cfg, err
}

// Plan returns the sweep of cells as a study plan named "sweep": run k is
// cells[k], so the plan's units are the sweep's cell × replicate units.
func (s *Spec) Plan(cells []Cell) study.Plan {
	p := study.Plan{Name: "sweep"}
	for _, c := range cells {
		p.Runs = append(p.Runs, s.Run(c))
	}
	return p
}

// Bound returns the cell's linear-path bound on the round-trip rate: the
// Gaussian's closed form (LinearBound), NaN for other models.
func (s *Spec) Bound(c Cell) float64 {
	if !s.Gaussian() {
		return math.NaN()
	}
	return LinearBound(c.Dim, s.Mu0, s.Mu1, s.Sigma)
}

// LinearBound is the linear path's asymptotic round-trip rate 1/(2+2Λ)
// for the isotropic Gaussian pair N(μ0·1, σ²I) → N(μ1·1, σ²I) in
// dimension d. On the linear path π_t = N(μ_t·1, σ²I) and dW_t/dt(x) =
// Δμ Σ_d (x_d − m̄)/σ² (m̄ the midpoint), a N(·, dΔμ²/σ²) variable, so
// λ(t) = ½E|Y − Y'| with Y − Y' ~ N(0, 2dΔμ²/σ²): λ = √d·z/√π with
// z = |Δμ|/σ, and Λ = √d·z/√π (the paper's appendix proof of
// prop:badlinear, for d = 1).
func LinearBound(dim int, mu0, mu1, sigma float64) float64 {
	lambda := math.Sqrt(float64(dim)) * math.Abs(mu1-mu0) / sigma / math.Sqrt(math.Pi)
	return tune.RoundTripRate(lambda)
}
