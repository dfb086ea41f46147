package models_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// logisticLogZ runs the regression with the reference ref (fitted over
// the first 6 of 10 scans when variational) and returns log Z ± se over
// the last 4 scans: 8 replicates, 10 chains, 2000 iterations, the linear
// path.
func logisticLogZ(t *testing.T, m models.Model, ref string) (float64, float64) {
	t.Helper()
	const scans, keep = 10, 4
	rm, err := models.WithReference(ref, m, scans-keep)
	if err != nil {
		t.Fatal(err)
	}
	lz := &batch.LogZ{FromScan: scans - keep + 1}
	cfg := batch.Config{Model: rm, Chains: 10, Replicates: 8, Iterations: 2000, Scans: scans, KeepScans: keep,
		TuneSchedule: true, Knots: 1, Seed: 22, Workers: 2, Statistics: []batch.Statistic{lz}}
	if _, err := batch.Run(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	return lz.Estimate()
}

// TestLogisticVariationalLogZ checks that the logistic regression is
// models.Unconstrained, with LogZ0 the normaliser (p/2)·log(2πσ²) of its
// prior N(0, σ² I) (p = 4 coefficients, σ = 2: 2·log(8π)), that
// WithReference wraps it in the variational reference, and that its
// log Z with the variational reference agrees with the fixed reference's
// within 4 combined standard errors (both estimate log(Z1/Z0) for the
// model's own W0 and W1): 200 observations of SimulateLogistic with 3
// covariates, seed 1.
func TestLogisticVariationalLogZ(t *testing.T) {
	m, err := models.NewLogistic(models.SimulateLogistic(200, 3, 1), 2, models.MALA{})
	if err != nil {
		t.Fatal(err)
	}
	u, ok := m.(models.Unconstrained)
	if !ok {
		t.Fatal("the logistic regression is not Unconstrained")
	}
	if want := 2 * math.Log(8*math.Pi); math.Abs(u.LogZ0()-want) > 1e-12 {
		t.Errorf("LogZ0 = %v, want 2·log(8π) = %v", u.LogZ0(), want)
	}
	v, err := models.WithReference("variational", m, 6)
	if d, ok := v.(models.Described); err != nil || !ok || !strings.Contains(d.Description(), "model=logistic") {
		t.Fatalf("WithReference(variational, logistic): %v, %T", err, v)
	}
	fz, fse := logisticLogZ(t, m, "fixed")
	vz, vse := logisticLogZ(t, m, "variational")
	t.Logf("log Z: fixed %.4f ± %.4f, variational %.4f ± %.4f", fz, fse, vz, vse)
	if !(math.Abs(fz-vz) <= 4*math.Hypot(fse, vse)) {
		t.Errorf("log Z: fixed %v ± %v, variational %v ± %v: more than 4 se apart", fz, fse, vz, vse)
	}
}
