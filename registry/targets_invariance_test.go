package registry_test

import (
	"context"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/registry"
)

// TestTargetsInvariance checks that each benchmark target's runs do not
// depend on the number of workers or on the company a replicate keeps:
// 9 replicates (more than one block of lanes) with 1 and with 2 workers,
// and replicate 5 run alone (FirstReplicate 5), must give the same log Z
// estimates and last-scan rejections bit for bit (short runs: 8 chains,
// 200 iterations, defaults otherwise).
func TestTargetsInvariance(t *testing.T) {
	for _, name := range []string{registry.ToyMVN, registry.Unid, registry.CornerMix, registry.Banana} {
		run := func(workers, first, reps int) ([]float64, [][]float64) {
			m, err := registry.New(name, nil, 1)
			if err != nil {
				t.Fatal(err)
			}
			cfg := batch.DefaultConfig(m, 200)
			cfg.Chains, cfg.Replicates, cfg.FirstReplicate, cfg.Workers = 8, reps, first, workers
			lz := &batch.LogZ{}
			cfg.Statistics = []batch.Statistic{lz}
			res, err := batch.Run(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			return lz.Estimates(), res.Rejections
		}
		z1, r1 := run(1, 0, 9)
		z2, r2 := run(2, 0, 9)
		za, ra := run(1, 5, 1)
		for b := range z1 {
			if z1[b] != z2[b] {
				t.Errorf("%s replicate %d: log Z %v with 1 worker, %v with 2", name, b, z1[b], z2[b])
			}
			for n := range r1[b] {
				if r1[b][n] != r2[b][n] {
					t.Errorf("%s replicate %d pair %d: rejection %v with 1 worker, %v with 2", name, b, n, r1[b][n], r2[b][n])
				}
			}
		}
		if za[0] != z1[5] {
			t.Errorf("%s: replicate 5 alone gives log Z %v, in the batch %v", name, za[0], z1[5])
		}
		for n := range ra[0] {
			if ra[0][n] != r1[5][n] {
				t.Errorf("%s: replicate 5 alone gives rejection %v at pair %d, in the batch %v", name, ra[0][n], n, r1[5][n])
			}
		}
	}
}
