package paper

import (
	"fmt"
	"math"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
)

// The high-dimensional experiment (the paper's Figure 5): the Gaussian
// pair N(-1, 0.1² I_d) → N(1, 0.1² I_d) for d = 1 … 256 with ⌈15√d⌉
// chains, NRPT on the linear path and on the K = 4 spline, 50,000
// iterations in 500 scans, 5 replicates, learning rate 0.2.
const (
	HighDimIterations   = 50000
	HighDimScans        = 500
	HighDimReplicates   = 5
	HighDimLearningRate = 0.2
	HighDimMu0          = -1.0
	HighDimMu1          = 1.0
	HighDimSigma        = 0.1
)

// HighDimDims returns the dimensions of the paper's Figure 5.
func HighDimDims() []int { return []int{1, 2, 4, 8, 16, 32, 64, 128, 256} }

// HighDimKnots returns the spline segment counts of each dimension: the
// linear path and K = 4.
func HighDimKnots() []int { return []int{1, 4} }

// HighDimChains returns ⌈15√d⌉, the chains of dimension d.
func HighDimChains(d int) int { return int(math.Ceil(15 * math.Sqrt(float64(d)))) }

// HighDimLabel names the run of dimension d and k knots.
func HighDimLabel(d, k int) string { return fmt.Sprintf("highdim d=%d K=%d", d, k) }

// HighDimModel returns the Gaussian pair of dimension d.
func HighDimModel(d int) (models.Model, error) {
	return registry.New(registry.Gaussian, registry.Values{"dim": float64(d), "mu0": HighDimMu0, "mu1": HighDimMu1,
		"sigma0": HighDimSigma, "sigma1": HighDimSigma}, 0)
}

// HighDimConfig returns the configuration of the run of dimension d on
// model m (HighDimModel(d)) with k knots.
func (s Settings) HighDimConfig(m models.Model, d, k, workers int) batch.Config {
	return batch.Config{Model: m, Chains: HighDimChains(d), Replicates: s.Reps(HighDimReplicates),
		Iterations: s.Scaled(HighDimIterations, HighDimScans), Scans: HighDimScans, TuneSchedule: true, Knots: k,
		TunePath: k >= 2, LearningRate: HighDimLearningRate, Seed: s.Seed, Workers: workers}
}
