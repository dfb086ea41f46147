package batch_test

import (
	"context"
	"fmt"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// ExampleDiagnostics runs 8 replicates of the Gaussian model and prints
// the headline figures (the tail round-trip rate and log Z, each ± its
// standard error across replicates) and the multi-chain diagnostics of
// the kept samples, the replicates being the chains.
func ExampleDiagnostics() {
	model, _ := models.NewGaussian(1, -1, 1, 0.3, 0.3)
	lz, dg := &batch.LogZ{FromScan: 20}, new(batch.Diagnostics)
	res, _ := batch.Run(context.Background(), batch.Config{Model: model, Chains: 20, Replicates: 8,
		Iterations: 20000, Scans: 20, TuneSchedule: true, Seed: 1, Statistics: []batch.Statistic{lz, dg}}, nil)
	rate, rateSE := res.TailRoundTripRate()
	logZ, logZSE := lz.Estimate()
	fmt.Printf("tail round-trip rate %.4f ± %.4f, log Z %.3f ± %.3f\n", rate, rateSE, logZ, logZSE)
	sums, errs := dg.Summaries()
	s := sums[0]
	fmt.Printf("x0: R-hat %.3f, bulk-ESS %.0f of %d draws, mean %.3f ± %.3f, error %v\n",
		s.Rhat, s.ESSBulk, s.Chains*s.Draws, s.Mean, s.MCSE, errs[0])
	// Output:
	// tail round-trip rate 0.0894 ± 0.0012, log Z -0.005 ± 0.019
	// x0: R-hat 1.000, bulk-ESS 79799 of 80000 draws, mean 1.001 ± 0.001, error <nil>
}
