package models_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// isingNRPT runs NRPT (batch.DefaultConfig: automatic tuning, a tuned
// 4-knot spline path) on the Ising model of size L at (β, h) with the
// given chains, replicates and iterations, and returns the stepping-stone
// log Z estimate (batch.LogZ, every scan since the tuner froze) and its
// standard error across replicates.
func isingNRPT(t *testing.T, size int, beta, h float64, chains, reps, iters int) (est, se float64, m *models.Ising) {
	t.Helper()
	m, err := models.NewIsing(size, beta, h)
	if err != nil {
		t.Fatal(err)
	}
	cfg := batch.DefaultConfig(m, iters)
	cfg.Chains, cfg.Replicates, cfg.Seed, cfg.Workers = chains, reps, 11, 2
	lz := new(batch.LogZ)
	cfg.Statistics = []batch.Statistic{lz}
	if _, err := batch.Run(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	est, se = lz.Estimate()
	return est, se, m
}

// isingCase is one NRPT check of the Ising oracle: the model, the run,
// and δ, the relative shift of β that 4 standard errors must resolve.
type isingCase struct {
	size                int
	beta, h             float64
	chains, reps, iters int
	delta               float64
}

// checkIsingLogZ runs c and checks the estimate within 4 standard errors
// of ExactLogZ, and that the test means something: 4·se must be below
// |log Z(β(1+δ)) − log Z(β)|, so that a sampler whose target is δ off in
// β (or an error of that size in the energies) would fail it.
func checkIsingLogZ(t *testing.T, c isingCase) {
	t.Helper()
	est, se, m := isingNRPT(t, c.size, c.beta, c.h, c.chains, c.reps, c.iters)
	exact := m.ExactLogZ()
	shifted, err := models.NewIsing(c.size, c.beta*(1+c.delta), c.h)
	if err != nil {
		t.Fatal(err)
	}
	resolve := math.Abs(shifted.ExactLogZ() - exact)
	t.Logf("L=%d β=%v h=%v: exact %.5f, estimate %.5f ± %.5f (%.2f se); log Z moves by %.4f for β %.1f%% off",
		c.size, c.beta, c.h, exact, est, se, (est-exact)/se, resolve, 100*c.delta)
	if !(math.Abs(est-exact) <= 4*se) {
		t.Errorf("L=%d β=%v h=%v: log Z estimate %.5f ± %.5f, exact %.5f: %.1f standard errors off",
			c.size, c.beta, c.h, est, se, exact, math.Abs(est-exact)/se)
	}
	if !(4*se < resolve) {
		t.Errorf("L=%d β=%v h=%v: 4 se = %.4f does not resolve β %.1f%% off (%.4f)", c.size, c.beta, c.h, 4*se, 100*c.delta, resolve)
	}
}

// TestIsingLogZEnumerated checks NRPT's log Z on the 4 × 4 torus, whose
// exact value is the sum over its 2^16 configurations (ExactLogZ), at
// β = 0.3, 0.44 (near the critical 0.4407) and 0.6, and at β = 0.44 with a
// field h = 0.1 (no closed form: enumeration only). Run: 10 chains, 16
// replicates, 8000 iterations under DefaultConfig's automatic tuning
// (measured: se 0.002 to 0.0065, against log Z from 1.7 to 9.0; with 4000
// iterations β = 0.3 sat 2.4 se low, the O(1/M) bias of the stepping
// stone). δ = 1%: log Z moves by 0.04 to 0.18 for β 1% off, 17 to 28 se.
func TestIsingLogZEnumerated(t *testing.T) {
	for _, c := range [][2]float64{{0.3, 0}, {0.44, 0}, {0.6, 0}, {0.44, 0.1}} {
		checkIsingLogZ(t, isingCase{size: 4, beta: c[0], h: c[1], chains: 10, reps: 16, iters: 8000, delta: 0.01})
	}
}

// TestIsingLogZKaufman checks NRPT's log Z on the 16 × 16 torus against
// Kaufman's exact value (ExactLogZ) at β = 0.3, 0.44 and 0.6. Run: 30
// chains, 16 replicates, 4000 iterations under DefaultConfig's automatic
// tuning (measured: se 0.009, 0.015 and 0.024 against log Z of 25, 61 and
// 133). β = 0.6 is deep in the ordered phase, but at zero field its two
// ordered modes have the same energy distribution, so the stepping stone
// needs no mode switches at the target, and 30 chains were enough: the
// se is no larger than at criticality, relative to log Z. δ = 0.1%: log Z
// moves by 0.054, 0.165 and 0.29 for β 0.1% off, 6 to 12 se.
func TestIsingLogZKaufman(t *testing.T) {
	for _, beta := range []float64{0.3, 0.44, 0.6} {
		t.Run(fmt.Sprint("beta=", beta), func(t *testing.T) {
			checkIsingLogZ(t, isingCase{size: 16, beta: beta, chains: 30, reps: 16, iters: 4000, delta: 0.001})
		})
	}
}

// TestIsingRunInvariance checks that an NRPT run of the Ising model gives
// each replicate the same log Z estimate bit for bit whatever runs beside
// it: replicates 8 to 15 of a 16-replicate run with 2 workers, and the
// same replicates run alone (FirstReplicate 8, 8 replicates) with 1
// worker (L = 4, β = 0.44, h = 0.1, 10 chains, 600 iterations).
func TestIsingRunInvariance(t *testing.T) {
	m, err := models.NewIsing(4, 0.44, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	run := func(first, reps, workers int) []float64 {
		cfg := batch.DefaultConfig(m, 600)
		cfg.Chains, cfg.FirstReplicate, cfg.Replicates, cfg.Workers, cfg.Seed = 10, first, reps, workers, 3
		lz := new(batch.LogZ)
		cfg.Statistics = []batch.Statistic{lz}
		if _, err := batch.Run(context.Background(), cfg, nil); err != nil {
			t.Fatal(err)
		}
		return lz.Estimates()
	}
	all, alone := run(0, 16, 2), run(8, 8, 1)
	for b, v := range alone {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("replicate %d: log Z %v", 8+b, v)
		}
		if math.Float64bits(v) != math.Float64bits(all[8+b]) {
			t.Errorf("replicate %d: log Z %v alone, %v in the batch", 8+b, v, all[8+b])
		}
	}
}
