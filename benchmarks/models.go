package benchmarks

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
)

// Model names of Workload.Model.
const (
	Gaussian     = registry.Gaussian
	BetaBinomial = registry.BetaBinomial
	Galaxy       = registry.Galaxy
	Mixture      = registry.Mixture
)

// ModelNames lists the models `ptbatch bench --model` times.
func ModelNames() []string { return []string{Gaussian, BetaBinomial, Galaxy, Mixture} }

// DefaultWorkloadFor is the default workload of a model: DefaultWorkload
// for the Gaussian; for the others, the paper's chain counts (50 for the
// Beta-binomial, 35 for the mixtures), 64 replicates and iterations enough
// for about a tenth of a second of engine time per timed run.
func DefaultWorkloadFor(model string) (Workload, error) {
	w := DefaultWorkload()
	w.Model = model
	switch model {
	case Gaussian, "":
		w.Model = Gaussian
	case BetaBinomial:
		w.Dim, w.Chains, w.Iterations = 1, 50, 200
	case Galaxy:
		w.Dim, w.Chains, w.Iterations = 1, 35, 10
	case Mixture:
		w.Dim, w.Chains, w.Iterations = 1, 35, 4
	default:
		return w, fmt.Errorf("unknown model %q (want one of %v)", model, ModelNames())
	}
	return w, nil
}

// NewModel builds the workload's model from the registry: the Gaussian
// pair N(−1·1, σ²I) → N(1·1, σ²I) in dimension Dim, the paper's
// Beta-binomial preset (prior Beta(180, 840), 140,000 successes in 200,000
// trials), the galaxy mixture, or the two-component mixture simulated from
// Seed.
func (w Workload) NewModel() (models.Model, error) {
	switch w.Model {
	case Gaussian, "":
		return registry.New(registry.Gaussian, registry.Values{"dim": float64(w.Dim), "sigma0": w.Sigma, "sigma1": w.Sigma}, w.Seed)
	case BetaBinomial, Galaxy, Mixture:
		return registry.MustPreset(w.Model).NewModel(w.Seed)
	}
	return nil, fmt.Errorf("unknown model %q (want one of %v)", w.Model, ModelNames())
}

// isGaussian reports whether the workload times the Gaussian, whose
// elements are coordinates and whose scalar engine and roofline are the
// Gaussian's own.
func (w Workload) isGaussian() bool { return w.Model == "" || w.Model == Gaussian }

// ScalarModel runs NRPT on the linear path with the uniform schedule for a
// model's plain scalar reference (models.Scalar), one replicate after
// another, for iters iterations, and returns the total number of round
// trips: what a user would write around the reference, with math/rand/v2
// (PCG seeded with (seed, replicate)) as the random source. It checks ctx
// every few iterations and returns ctx's error, with the round trips so
// far, once ctx is done.
func ScalarModel(ctx context.Context, sc models.Scalar, replicates, chains, iters int, seed uint64) (int, error) {
	trips := 0
	eta0 := make([]float64, chains)
	eta1 := make([]float64, chains)
	chain := make([]int, chains)
	for n := range eta0 {
		t := float64(n) / float64(chains-1)
		eta0[n], eta1[n] = 1-t, t
		chain[n] = n
	}
	states := make([][]float64, chains)
	rep := make([]int, chains)
	var rt roundTrips
	for b := 0; b < replicates; b++ {
		rng := pcgLane{rand.New(rand.NewPCG(seed, uint64(b)))}
		init, _, _ := sc.Init(rng, chains)
		copy(states, init)
		rt.reset(rep)
		for m := 1; m <= iters; m++ {
			if err := ctx.Err(); err != nil {
				return trips, err
			}
			// Local exploration: row n holds the replica at chain n.
			w0, w1 := sc.Explore(rng, states, eta0, eta1, chain)
			// Communication: even or odd pairs; a swap exchanges the
			// states, so that row n stays at chain n.
			for n := m & 1; n < chains-1; n += 2 {
				lr := (eta0[n]-eta0[n+1])*(w0[n+1]-w0[n]) + (eta1[n]-eta1[n+1])*(w1[n+1]-w1[n])
				if math.IsNaN(lr) {
					continue
				}
				if rng.Uniform() < math.Exp(math.Min(0, lr)) {
					states[n], states[n+1] = states[n+1], states[n]
					w0[n], w0[n+1] = w0[n+1], w0[n]
					w1[n], w1[n+1] = w1[n+1], w1[n]
					rep[n], rep[n+1] = rep[n+1], rep[n]
				}
			}
			trips += rt.count(rep)
		}
	}
	return trips, nil
}

// pcgLane is a math/rand/v2 generator as a models.Lane.
type pcgLane struct{ r *rand.Rand }

// Uniform returns a uniform draw on (0, 1].
func (l pcgLane) Uniform() float64 { return 1 - l.r.Float64() }

// ModelRoofline is the roofline of a model's workload: the model's block
// moves alone (Explore on every row of every block, Iterations times, on
// the linear path's coefficients), with the engine's workers and no engine
// logic (no swaps, round trips, statistics or tuning). Its workers check
// ctx between moves and return ctx's error once it is done.
func ModelRoofline(ctx context.Context, w Workload, m models.Model) error {
	blocks := (w.Replicates + layout.Lanes - 1) / layout.Lanes
	workers := w.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = min(workers, blocks)
	var wg sync.WaitGroup
	for k := 0; k < workers; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			lo, hi := k*blocks/workers, (k+1)*blocks/workers
			n := w.Chains * layout.Lanes
			rows := models.Rows{Eta0: make([]float64, n), Eta1: make([]float64, n), Chain: make([]int32, n)}
			for r := 0; r < w.Chains; r++ {
				t := float64(r) / float64(w.Chains-1)
				for j := 0; j < layout.Lanes; j++ {
					i := r*layout.Lanes + j
					rows.Eta0[i], rows.Eta1[i], rows.Chain[i] = 1-t, t, int32(r)
				}
			}
			out := models.Energies{W0: make([]float64, n), W1: make([]float64, n)}
			for b := lo; b < hi; b++ {
				rng := kernel.NewStream(w.Seed, b*layout.Lanes)
				blk := m.NewBlock(models.BlockSpec{FirstReplicate: b * layout.Lanes, Rows: w.Chains})
				blk.Init(rng, rows, out)
				for it := 0; it < w.Iterations; it++ {
					if ctx.Err() != nil {
						return
					}
					blk.Explore(rng, rows, out)
				}
			}
		}(k)
	}
	wg.Wait()
	return ctx.Err()
}
