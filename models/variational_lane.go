package models

import "math"

// variationalLane is one replicate's variational reference: whether it
// is fitted, its means m and standard deviations s, and the open scan's
// sums of the target chain's states (shifted by the scan's first state).
type variationalLane struct {
	fitted  bool
	m, s    []float64
	logNorm float64 // Σ_d log s_d + (Dim/2)·log 2π − log Z0
	f       Funcs   // the model's functions with the fitted reference

	n                 int
	shift, sum1, sum2 []float64
}

// newVariationalLane returns an unfitted lane whose Funcs read its m, s.
func newVariationalLane(v *variationalModel, own Funcs) *variationalLane {
	d := own.Dim
	l := &variationalLane{m: make([]float64, d), s: make([]float64, d),
		shift: make([]float64, d), sum1: make([]float64, d), sum2: make([]float64, d)}
	l.f = own
	l.f.LogReference = l.logDensity
	l.f.SampleReference = l.sample
	if own.GradLogReference != nil {
		l.f.GradLogReference = l.grad
	}
	return l
}

// logDensity is the fitted W0: log N(x; m, diag(s²)) + log Z0.
func (l *variationalLane) logDensity(x []float64) float64 {
	q := 0.0
	for d, v := range x {
		z := (v - l.m[d]) / l.s[d]
		q = math.FMA(z, z, q)
	}
	return -0.5*q - l.logNorm
}

// grad writes ∇W0(x) = −(x − m)/s².
func (l *variationalLane) grad(x, g []float64) {
	for d, v := range x {
		g[d] = -(v - l.m[d]) / (l.s[d] * l.s[d])
	}
}

// sample draws x_d = m_d + s_d·z_d, one normal per coordinate in order.
func (l *variationalLane) sample(r Rand, x []float64) {
	for d := range x {
		x[d] = math.FMA(l.s[d], r.Normal(), l.m[d])
	}
}

// add accumulates one target-chain state.
func (l *variationalLane) add(x []float64) {
	if l.n == 0 {
		copy(l.shift, x)
	}
	for d, v := range x {
		e := v - l.shift[d]
		l.sum1[d] += e
		l.sum2[d] += e * e
	}
	l.n++
}

// fit sets m and s to the scan's moments if every variance is finite and
// positive, and reports whether it did; it clears the sums either way.
func (l *variationalLane) fit(logZ0 float64) bool {
	defer l.clear()
	if l.n < 2 {
		return false
	}
	n := float64(l.n)
	m, s := make([]float64, len(l.m)), make([]float64, len(l.s))
	for d := range m {
		mean := l.sum1[d] / n
		v := (l.sum2[d] - n*mean*mean) / (n - 1)
		if !(v > 0) || math.IsInf(v, 0) || math.IsNaN(mean) {
			return false
		}
		m[d], s[d] = l.shift[d]+mean, math.Sqrt(v)
	}
	copy(l.m, m)
	copy(l.s, s)
	l.fitted = true
	l.setNorm(logZ0)
	return true
}

// setNorm computes logNorm from s.
func (l *variationalLane) setNorm(logZ0 float64) {
	sum := 0.0
	for _, s := range l.s {
		sum += math.Log(s)
	}
	l.logNorm = sum + 0.5*float64(len(l.s))*math.Log(2*math.Pi) - logZ0
}

func (l *variationalLane) clear() {
	l.n = 0
	clear(l.sum1)
	clear(l.sum2)
}
