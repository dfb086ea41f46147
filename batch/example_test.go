package batch_test

import (
	"context"
	"fmt"
	"math"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// logNormal is the log density of N(mu·1, sd² I) at x, up to a constant.
func logNormal(x []float64, mu, sd float64) (s float64) {
	for _, v := range x {
		s -= (v - mu) * (v - mu) / (2 * sd * sd)
	}
	return s - float64(len(x))*math.Log(sd)
}

// A user's own model in a few lines: a 2-D target with modes at ±(4, 4),
// sampled by NRPT with random-walk moves, and the share of the kept target
// samples in the positive mode.
func Example() {
	model, err := models.FromFuncs(models.Funcs{
		Dim:          2,
		LogReference: func(x []float64) float64 { return logNormal(x, 0, 1) },
		LogTarget: func(x []float64) float64 {
			a, b := logNormal(x, -4, 0.5), logNormal(x, 4, 0.5)
			return math.Max(a, b) + math.Log1p(math.Exp(-math.Abs(a-b)))
		},
		SampleReference: func(rng models.Rand, x []float64) {
			for d := range x {
				x[d] = rng.Normal()
			}
		},
	}, models.RandomWalk{})
	if err != nil {
		panic(err)
	}
	positive, kept := 0, 0
	samples := &batch.Samples{Write: func(replicate, iteration int, x []float64) error {
		kept++
		if x[0] > 0 {
			positive++
		}
		return nil
	}}
	res, err := batch.Run(context.Background(), batch.Config{Model: model, Chains: 20, Replicates: 16,
		Iterations: 20000, Scans: 20, TuneSchedule: true, Seed: 1, Statistics: []batch.Statistic{samples}}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d kept samples, %.2f in the positive mode, %.3f round trips per iteration\n",
		kept, float64(positive)/float64(kept), res.Summary().RoundTripRate)
	// Output:
	// 160000 kept samples, 0.50 in the positive mode, 0.052 round trips per iteration
}
