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
// positive mode is ½, and the headlines follow: the tail round-trip rate
// and log(Z1/Z0) (ln ½: Z0 = 2π, Z1 = 2·π/2), each ± its standard error
// across replicates. This is the README's program (section "Your own
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
	cfg := batch.DefaultConfig(model, 20000)                             // ptbatch run's defaults: automatic tuning, spline path
	lz := &batch.LogZ{FromScan: cfg.Scans - cfg.KeepScansInEffect() + 1} // the kept scans, on the tuned path
	cfg.Chains, cfg.Replicates, cfg.Statistics = 20, 16, []batch.Statistic{samples, lz}
	res, _ := batch.Run(context.Background(), cfg, nil)
	rate, rateSE := res.TailRoundTripRate() // round trips per iteration, mean ± se over replicates
	logZ, logZSE := lz.Estimate()           // log(Z1/Z0) = ln(π/2π) = −0.693 here
	fmt.Printf("%d %.2f\n", kept, float64(positive)/float64(kept))
	fmt.Printf("round-trip rate %.3f ± %.3f, log Z %.2f ± %.2f\n", rate, rateSE, logZ, logZSE)
	// Output:
	// 160000 0.50
	// round-trip rate 0.071 ± 0.001, log Z -0.70 ± 0.01
}
