package batch

import (
	"fmt"
	"testing"
	"time"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/models"
)

// TestIterationAllocatesNothing checks that a steady-state iteration of a
// block allocates no memory, under both algorithms and for the built-in
// models, among them those explored lane by lane through FromFuncs with
// each explorer (which allocated three times per move: the lane's random
// source boxed as a Rand, the energies handed to the explorer by pointer,
// and the guard's name built at every move) and the Ising model (whose
// kernel scratch was a local array).
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
	must := func(m models.Model, err error) models.Model {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	bb, err := models.NewBetaBinomial(1, 1, 50, 50)
	ising, err2 := models.NewIsing(8, 0.4, 0)
	if err != nil || err2 != nil {
		t.Fatal(err, err2)
	}
	named := map[string]models.Model{
		"galaxy":       models.NewGalaxy(),
		"betabinomial": bb,
		"ising":        ising,
		"banana":       must(models.NewBanana(3, 1, models.MALA{})),
		"unid":         must(models.NewUnid(100, 50, models.SliceSampler{})),
	}
	for _, ex := range []models.Explorer{models.RandomWalk{}, models.MALA{}, models.HMC{}, models.HMC{Auto: true},
		models.AutoMALA{}, models.SliceSampler{}} {
		named["funnel/"+ex.Name()] = must(models.NewFunnel(4, 3, ex))
	}
	for name, m := range named {
		cfg := Config{Model: m, Chains: 12, Replicates: 8, Iterations: 100, Scans: 1, Knots: 1}
		b := newBlock(&cfg, 0, 100)
		i := 0
		allocs := testing.AllocsPerRun(20, func() {
			i++
			b.iterate(NRPT, 1, i, i%100)
		})
		if allocs != 0 {
			t.Errorf("%s: %.1f allocations per iteration, want 0", name, allocs)
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

// BenchmarkScanEnd times whole scans of one block (8 replicates) of the
// Gaussian at d = 1 with 50 chains and the paper's tuning (schedule and
// K = 4 path, lr 0.2): 100 iterations, then the end of the scan (the
// history of scans kept within its first allocation). It reports
// the end of a scan per lane (tune-ns/lane), an iteration of the block
// (iter-ns/block) and the end's share of the scan (tunefrac), which is what
// `ptbatch bench` reports as tuning_fraction.
func BenchmarkScanEnd(b *testing.B) {
	g, _ := models.NewGaussian(1, -1, 1, 0.1, 0.1)
	const perScan, scans = 100, 1 << 20
	cfg := Config{Model: g, Chains: 50, Replicates: 8, Iterations: perScan * scans, Scans: scans, Knots: 4, Seed: 1,
		Workers: 1, TuneSchedule: true, TunePath: true, LearningRate: 0.2}
	blk := newBlock(&cfg, 0, perScan)
	s := 0
	var iter, end time.Duration
	for b.Loop() {
		if s == scans {
			b.Fatal("more scans than configured")
		}
		s++
		if s%histPrealloc == 0 {
			// The history's room for histPrealloc scans, reused: a run of
			// 2^20 scans, which no run makes, would grow it (and copy it)
			// at the ends of scans, a cost that is not the tuning's.
			for j := range blk.hist {
				blk.hist[j] = blk.hist[j][:0]
			}
		}
		t0 := time.Now()
		for m := 0; m < perScan; m++ {
			blk.iterate(NRPT, s, (s-1)*perScan+m+1, m)
		}
		t1 := time.Now()
		blk.endScan(&cfg, s, perScan)
		end += time.Since(t1)
		iter += t1.Sub(t0)
	}
	b.ReportMetric(float64(end.Nanoseconds())/float64(b.N)/layout.Lanes, "tune-ns/lane")
	b.ReportMetric(float64(iter.Nanoseconds())/float64(b.N)/perScan, "iter-ns/block")
	b.ReportMetric(float64(end)/float64(end+iter), "tunefrac")
}

// BenchmarkNew measures New for the configuration of `ptbatch bench --dim 1
// --chains 50 --replicates 64 --iterations 2000` (8 blocks of the Gaussian
// at d = 1, σ = 0.1) with one and two workers: the fixed cost that a short
// run's Result.Elapsed includes.
func BenchmarkNew(b *testing.B) {
	g, _ := models.NewGaussian(1, -1, 1, 0.1, 0.1)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("d=1/chains=50/R=64/workers=%d", workers), func(b *testing.B) {
			cfg := Config{Model: g, Chains: 50, Replicates: 64, Iterations: 2000, Scans: 1, Knots: 1, Seed: 1, Workers: workers}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := New(cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
