package models

import "testing"

// BenchmarkLogisticGradients times the batched logistic model's energies
// and gradients per call of 64 states, n = 1000, d = 10 + intercept (the
// bench workload's shape); BenchmarkLogisticFuncs the same 64 states
// through LogisticFuncs one at a time (LogTarget then GradLogTarget, as a
// gradient explorer calls them).
func BenchmarkLogisticGradients(b *testing.B) {
	d := SimulateLogistic(1000, 10, 1)
	bt := LogisticBatch(d, 5)
	const n = 64
	p := d.NumCoefs()
	x, _ := logisticStates(n, p)
	w0, w1, g0, g1 := make([]float64, n), make([]float64, n), make([]float64, p*n), make([]float64, p*n)
	for b.Loop() {
		bt.Gradients(x, n, w0, w1, g0, g1)
	}
}

func BenchmarkLogisticFuncs(b *testing.B) {
	d := SimulateLogistic(1000, 10, 1)
	f := LogisticFuncs(d, 5)
	const n = 64
	p := d.NumCoefs()
	_, cols := logisticStates(n, p)
	g := make([]float64, p)
	for b.Loop() {
		for _, c := range cols {
			f.LogTarget(c)
			f.GradLogTarget(c, g)
		}
	}
}
