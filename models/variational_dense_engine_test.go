package models_test

import (
	"context"
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// correlatedRun runs the correlated test target (d = 4, every correlation
// 0.9, mean 2·1, reference N(0, I); models.CorrelatedGaussian) with the
// variational reference of family, refitted over the first 8 of 12 scans,
// on the linear path with a tuned schedule: 12 chains, 8 replicates,
// 1800 iterations, AutoMALA. It returns Λ of the last scan and log Z ± se
// over the 4 kept scans.
func correlatedRun(t *testing.T, g *models.CorrelatedGaussian, family string) (lambda, logZ, se float64) {
	t.Helper()
	const scans, keep = 12, 4
	m, err := models.WithVariational("variational", family, g, scans-keep)
	if err != nil {
		t.Fatal(err)
	}
	lz := &batch.LogZ{FromScan: scans - keep + 1}
	cfg := batch.Config{Model: m, Chains: 12, Replicates: 8, Iterations: 1800, Scans: scans, KeepScans: keep,
		TuneSchedule: true, Knots: 1, Seed: 22, Workers: 2, Statistics: []batch.Statistic{lz}}
	res, err := batch.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	logZ, se = lz.Estimate()
	return res.Summary().Barrier, logZ, se
}

// TestVariationalDenseCorrelatedTarget checks, on a target whose four
// coordinates have correlation 0.9, that the dense fit's barrier Λ is
// far below (under a third of) the diagonal fit's, which matches the
// marginals alone, and that both estimate log Z within 3 standard errors
// of its closed form ½ log|Σ| (CorrelatedGaussian.ExactLogZ).
func TestVariationalDenseCorrelatedTarget(t *testing.T) {
	g := models.NewCorrelatedGaussian(t, 4, 0.9, 2, models.AutoMALA{})
	exact := g.ExactLogZ()
	dl, dz, dse := correlatedRun(t, g, models.DiagonalFamily)
	nl, nz, nse := correlatedRun(t, g, models.DenseFamily)
	t.Logf("diag: Λ = %.3f, log Z = %.4f ± %.4f; dense: Λ = %.3f, log Z = %.4f ± %.4f; exact log Z %.4f", dl, dz, dse, nl, nz, nse, exact)
	if !(nl < dl/3) {
		t.Errorf("Λ: dense %v, diagonal %v; want dense under a third of diagonal", nl, dl)
	}
	for _, c := range [][3]float64{{dz, dse}, {nz, nse}} {
		if !(math.Abs(c[0]-exact) <= 3*c[1]) {
			t.Errorf("log Z = %v ± %v, more than 3 se from the closed form %v", c[0], c[1], exact)
		}
	}
}
