package batch

import (
	"fmt"
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
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
			b.iterate(cfg.Algorithm, 1, m, m%100)
		})
		if allocs != 0 {
			t.Errorf("%s: %.1f allocations per iteration, want 0", alg, allocs)
		}
	}
}

// BenchmarkIteration measures one iteration of all chains of R replicates
// on one goroutine, under every kernel implementation this build and CPU
// offer; chain-steps/s counts replicates × chains per iteration and
// ns/element is per replicate × chain × coordinate.
func BenchmarkIteration(b *testing.B) {
	for _, c := range []struct{ dim, chains, reps int }{{1, 50, 64}, {16, 60, 64}, {256, 240, 64}} {
		for _, impl := range kernel.Impls() {
			benchmarkIteration(b, impl, c.dim, c.chains, c.reps)
		}
	}
}

// benchmarkIteration is one case of BenchmarkIteration.
func benchmarkIteration(b *testing.B, impl string, dim, chains, reps int) {
	g, _ := models.NewGaussian(dim, -1, 1, 0.1, 0.1)
	name := fmt.Sprintf("model=gaussian/d=%d/chains=%d/R=%d/impl=%s", dim, chains, reps, impl)
	b.Run(name, func(b *testing.B) {
		restore, err := kernel.SetImpl(impl)
		if err != nil {
			b.Fatal(err)
		}
		defer restore()
		cfg := Config{Model: g, Chains: chains, Replicates: reps, Iterations: 1, Scans: 1, Knots: 1, Seed: 1}
		var blocks []*block
		for i := 0; i < reps/layout.Lanes; i++ {
			blocks = append(blocks, newBlock(&cfg, i*layout.Lanes, 1))
		}
		m := 0
		b.ReportAllocs()
		for b.Loop() {
			m++
			for _, blk := range blocks {
				blk.iterate(NRPT, 1, m, 0)
			}
		}
		steps := float64(b.N) * float64(reps*chains)
		b.ReportMetric(steps/b.Elapsed().Seconds(), "chain-steps/s")
		b.ReportMetric(b.Elapsed().Seconds()*1e9/(steps*float64(dim)), "ns/element")
	})
}
