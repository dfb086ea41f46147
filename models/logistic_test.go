package models

import (
	"math"
	"testing"
)

// logisticStates returns n states of p coordinates (state j in column j)
// drawn as 0.3·N(0, 1) around the true coefficients of SimulateLogistic
// from stream (7, 0), and the same states one slice each.
func logisticStates(n, p int) ([]float64, [][]float64) {
	r := NewRand(7, 0)
	beta := SimulatedLogisticCoefs(p - 1)
	x, cols := make([]float64, p*n), make([][]float64, n)
	for j := range cols {
		cols[j] = make([]float64, p)
		for k := range cols[j] {
			cols[j][k] = beta[k] + 0.3*r.Normal()
			x[k*n+j] = cols[j][k]
		}
	}
	return x, cols
}

// TestLogisticBatchMatchesFuncs checks the batched logistic model against
// LogisticFuncs, the one-state-at-a-time form with math.Log1p(math.Exp):
// energies and gradients agree to 1e-12 relative to the log-likelihood's
// scale, at 150 states (three column tiles, the last partial) over 300
// observations (three row tiles, the last partial).
func TestLogisticBatchMatchesFuncs(t *testing.T) {
	d := SimulateLogistic(300, 4, 11)
	const n, sd = 150, 2.5
	p := d.NumCoefs()
	b, f := LogisticBatch(d, sd), LogisticFuncs(d, sd)
	x, cols := logisticStates(n, p)
	w0, w1, g0, g1 := make([]float64, n), make([]float64, n), make([]float64, p*n), make([]float64, p*n)
	b.Gradients(x, n, w0, w1, g0, g1)
	e0, e1 := make([]float64, n), make([]float64, n)
	b.Energies(x, n, e0, e1)
	gf0, gf1 := make([]float64, p), make([]float64, p)
	for j, c := range cols {
		// 300 terms of size ≤ 10: a rounding error of 1e-12 relative to
		// |W1| is a thousand times what the sums' reordering gives.
		tol := 1e-12 * (1 + math.Abs(w1[j]))
		if d0, d1 := math.Abs(w0[j]-f.LogReference(c)), math.Abs(w1[j]-f.LogTarget(c)); d0 > tol || d1 > tol {
			t.Fatalf("state %d: energies (%v, %v), funcs (%v, %v)", j, w0[j], w1[j], f.LogReference(c), f.LogTarget(c))
		}
		if e0[j] != w0[j] || e1[j] != w1[j] {
			t.Fatalf("state %d: Energies (%v, %v) differ from Gradients' (%v, %v)", j, e0[j], e1[j], w0[j], w1[j])
		}
		f.GradLogReference(c, gf0)
		f.GradLogTarget(c, gf1)
		for k := 0; k < p; k++ {
			if math.Abs(g0[k*n+j]-gf0[k]) > tol || math.Abs(g1[k*n+j]-gf1[k]) > tol {
				t.Fatalf("state %d coef %d: gradients (%v, %v), funcs (%v, %v)", j, k, g0[k*n+j], g1[k*n+j], gf0[k], gf1[k])
			}
		}
	}
}

// TestLogisticBatchIndependentOfCompanions checks that a state's energies
// and gradients are the same bits evaluated alone (n = 1) as among 150
// states: what invariance across replicates and workers needs.
func TestLogisticBatchIndependentOfCompanions(t *testing.T) {
	d := SimulateLogistic(300, 4, 11)
	const n = 150
	p := d.NumCoefs()
	b := LogisticBatch(d, 2.5)
	x, cols := logisticStates(n, p)
	w0, w1, g0, g1 := make([]float64, n), make([]float64, n), make([]float64, p*n), make([]float64, p*n)
	b.Gradients(x, n, w0, w1, g0, g1)
	a0, a1, h0, h1 := make([]float64, 1), make([]float64, 1), make([]float64, p), make([]float64, p)
	for j, c := range cols {
		b.Gradients(c, 1, a0, a1, h0, h1)
		if !sameBitsAll(a0, w0[j:j+1]) || !sameBitsAll(a1, w1[j:j+1]) {
			t.Fatalf("state %d: alone (%v, %v), in the batch (%v, %v)", j, a0[0], a1[0], w0[j], w1[j])
		}
		for k := 0; k < p; k++ {
			if math.Float64bits(h1[k]) != math.Float64bits(g1[k*n+j]) {
				t.Fatalf("state %d coef %d: gradient alone %v, in the batch %v", j, k, h1[k], g1[k*n+j])
			}
		}
	}
}
