package batch_test

import (
	"context"
	"fmt"
	"math"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// A user's own model: a 2-D target with modes at ±(4, 4), sampled by NRPT
// with random-walk moves; the share of the kept target samples in the
// positive mode is ½. This is the README's program (section "Your own
// model"), with its output rounded so that it can be checked.
func Example() {
	sq := func(x []float64, mu float64) float64 { return (x[0]-mu)*(x[0]-mu) + (x[1]-mu)*(x[1]-mu) }
	model, _ := models.FromFuncs(models.Funcs{
		Dim:          2,
		LogReference: func(x []float64) float64 { return -sq(x, 0) / 2 }, // N(0, I)
		LogTarget: func(x []float64) float64 { // ½N(−4·1, 0.5² I) + ½N(4·1, 0.5² I)
			a, b := -2*sq(x, -4), -2*sq(x, 4)
			return math.Max(a, b) + math.Log1p(math.Exp(-math.Abs(a-b)))
		},
		SampleReference: func(rng models.Rand, x []float64) { x[0], x[1] = rng.Normal(), rng.Normal() },
	}, models.RandomWalk{})
	positive, kept := 0, 0
	samples := &batch.Samples{Write: func(replicate, iteration int, x []float64) error {
		if kept++; x[0] > 0 {
			positive++
		}
		return nil
	}}
	cfg := batch.DefaultConfig(model, 20000) // ptbatch run's defaults: automatic tuning, spline path
	cfg.Chains, cfg.Replicates, cfg.Statistics = 20, 16, []batch.Statistic{samples}
	res, _ := batch.Run(context.Background(), cfg, nil)
	fmt.Printf("%d %.2f %.3f\n", kept, float64(positive)/float64(kept), res.Summary().RoundTripRate)
	// Output:
	// 160000 0.50 0.056
}
