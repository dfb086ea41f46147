package batch

import (
	"fmt"
	"testing"

	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/models"
)

// TestIterationAllocatesNothing checks that a steady-state iteration of a
// block allocates no memory.
func TestIterationAllocatesNothing(t *testing.T) {
	g, _ := models.NewGaussian(8, -1, 1, 0.1, 0.1)
	for _, alg := range []Algorithm{NRPT, Reversible} {
		cfg := Config{Model: g, Chains: 16, Replicates: 8, Algorithm: alg, Iterations: 100, Scans: 1, Knots: 1}
		b := newBlock(&cfg, 0, 100)
		m := 0
		allocs := testing.AllocsPerRun(50, func() {
			m++
			b.iterate(cfg.Algorithm, m, m%100)
		})
		if allocs != 0 {
			t.Errorf("%s: %.1f allocations per iteration, want 0", alg, allocs)
		}
	}
}

// BenchmarkIteration measures one iteration of all chains of R replicates
// on one goroutine; chain-steps/s counts replicates × chains per iteration.
func BenchmarkIteration(b *testing.B) {
	for _, c := range []struct{ dim, chains, reps int }{{1, 50, 64}, {16, 60, 64}, {256, 240, 64}} {
		g, _ := models.NewGaussian(c.dim, -1, 1, 0.1, 0.1)
		name := fmt.Sprintf("model=gaussian/d=%d/chains=%d/R=%d", c.dim, c.chains, c.reps)
		b.Run(name, func(b *testing.B) {
			cfg := Config{Model: g, Chains: c.chains, Replicates: c.reps, Iterations: 1, Scans: 1, Knots: 1}
			var blocks []*block
			for i := 0; i < c.reps/layout.Lanes; i++ {
				blocks = append(blocks, newBlock(&cfg, i*layout.Lanes, 1))
			}
			m := 0
			b.ReportAllocs()
			for b.Loop() {
				m++
				for _, blk := range blocks {
					blk.iterate(NRPT, m, 0)
				}
			}
			steps := float64(b.N) * float64(c.reps*c.chains)
			b.ReportMetric(steps/b.Elapsed().Seconds(), "chain-steps/s")
			b.ReportMetric(b.Elapsed().Seconds()*1e9/(steps*float64(c.dim)), "ns/element")
		})
	}
}
