package benchmarks

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/models"
)

// TestScalarIsing checks the scalar baseline against the exact mean bond
// sum of the 4 × 4 torus at β = 0.44, d log Z/dβ by a central difference
// of Kaufman's log Z (step 1e-5: truncation error about 1e-9), within 4.5
// standard errors of 16 independent runs of 20000 sweeps (the first
// mean's burn-in from random spins is part of each run, a bias far below
// the se).
func TestScalarIsing(t *testing.T) {
	const size, beta, h = 4, 0.44, 1e-5
	want := (models.IsingKaufmanLogZ(size, size, beta+h) - models.IsingKaufmanLogZ(size, size, beta-h)) / (2 * h)
	var runs []float64
	for seed := uint64(1); seed <= 16; seed++ {
		runs = append(runs, ScalarIsing(size, beta, 20000, seed))
	}
	mean, se := batch.MeanSE(runs)
	t.Logf("mean bond sum %.4f ± %.4f, exact %.4f", mean, se, want)
	if !(math.Abs(mean-want) <= 4.5*se) {
		t.Errorf("mean bond sum %.4f ± %.4f, exact %.4f", mean, se, want)
	}
}

// BenchmarkIsingSweep times one checkerboard Metropolis sweep of the L = 64
// torus at β = 0.44 (near critical), in one goroutine: "batched" is
// models.Ising's Explore on a block of rows × 8 replicates (one row: 8
// replicates, 4: 32), energies recounted as the engine needs them;
// "scalar" is ScalarIsing, one replicate. It reports spin-flip attempts
// per nanosecond (attempts/ns, wall clock; attempts/cpu-ns, CPU time of
// the process), L² per replicate and sweep.
func BenchmarkIsingSweep(b *testing.B) {
	const size, beta = 64, 0.44
	m, err := models.NewIsing(size, beta, 0)
	if err != nil {
		b.Fatal(err)
	}
	for _, rows := range []int{1, 4} {
		b.Run(fmt.Sprintf("batched/replicates=%d", rows*layout.Lanes), func(b *testing.B) {
			n := rows * layout.Lanes
			blk := m.NewBlock(models.BlockSpec{Rows: rows})
			out := models.Energies{W0: make([]float64, n), W1: make([]float64, n)}
			eta0, eta1, chain := make([]float64, n), make([]float64, n), make([]int32, n)
			for i := range eta1 {
				eta1[i], chain[i] = 1, int32(i/layout.Lanes)
			}
			rs := models.Rows{Eta0: eta0, Eta1: eta1, Chain: chain}
			rng := kernel.NewStream(1, 0)
			blk.Init(rng, rs, out)
			sweeps := 0
			cpu0, _ := processCPU()
			for b.Loop() {
				blk.Explore(rng, rs, out)
				sweeps++
			}
			reportAttempts(b, sweeps*size*size*n, cpu0)
		})
	}
	b.Run("scalar/replicates=1", func(b *testing.B) {
		sweeps := 0
		cpu0, _ := processCPU()
		for b.Loop() {
			ScalarIsing(size, beta, 1, 1)
			sweeps++
		}
		reportAttempts(b, sweeps*size*size, cpu0)
	})
}

// reportAttempts reports attempts spin-flip attempts per nanosecond of the
// wall clock (attempts/ns) and, where the process's CPU time is known,
// per nanosecond of CPU time since cpu0 (attempts/cpu-ns: per core, as the
// benchmark runs in one goroutine, and what the machine's other work does
// not dilute).
func reportAttempts(b *testing.B, attempts int, cpu0 time.Duration) {
	b.ReportMetric(float64(attempts)/float64(b.Elapsed().Nanoseconds()), "attempts/ns")
	if cpu1, ok := processCPU(); ok && cpu1 > cpu0 {
		b.ReportMetric(float64(attempts)/float64((cpu1-cpu0).Nanoseconds()), "attempts/cpu-ns")
	}
}
