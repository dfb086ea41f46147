package registry_test

import (
	"context"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/registry"
)

// BenchmarkTargets times one run of each benchmark target with its
// defaults (16 chains, 8 replicates, 400 iterations, one worker) and
// reports ns per chain step: one local move of one replica, its share of
// the swaps and of the tuning. unid, cornermix and banana run FromFuncs's
// lane-by-lane plain Go loops with their default explorers; toymvn runs
// the Gaussian's batched exact draws (kernel.GaussEnergy).
func BenchmarkTargets(b *testing.B) {
	for _, name := range []string{registry.ToyMVN, registry.Unid, registry.CornerMix, registry.Banana} {
		b.Run(name, func(b *testing.B) {
			m, err := registry.New(name, nil, 1)
			if err != nil {
				b.Fatal(err)
			}
			const chains, reps, iters = 16, 8, 400
			for b.Loop() {
				cfg := batch.DefaultConfig(m, iters)
				cfg.Chains, cfg.Replicates, cfg.Workers = chains, reps, 1
				if _, err := batch.Run(context.Background(), cfg, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chains*reps*iters), "ns/chain-step")
		})
	}
}
