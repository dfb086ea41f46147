package models

import "math"

// variationalLane is one replicate's variational reference: whether it
// is fitted, its means m and its scale s, and the open scan's sums of the
// target chain's states (shifted by the scan's first state). In the
// diagonal family s holds the Dim standard deviations and sum2 the sums
// of squares; in the dense family (dense) s holds the lower Cholesky
// factor L of Σ = LLᵀ and sum2 the lower triangle of the sums of outer
// products, both Dim×Dim row-major (variational_dense.go).
type variationalLane struct {
	dense   bool
	fitted  bool
	m, s    []float64
	logNorm float64 // Σ_d log s_d (or log L_dd) + (Dim/2)·log 2π − log Z0
	f       Funcs   // the model's functions with the fitted reference

	n                 int
	shift, sum1, sum2 []float64
	y                 []float64 // dense: scratch of the triangular solves
}

// newVariationalLane returns an unfitted lane of v's family whose Funcs
// read its m, s.
func newVariationalLane(v *variationalModel, own Funcs) *variationalLane {
	d, d2 := own.Dim, own.Dim
	if v.dense {
		d2 = d * d
	}
	l := &variationalLane{dense: v.dense, m: make([]float64, d), s: make([]float64, d2),
		shift: make([]float64, d), sum1: make([]float64, d), sum2: make([]float64, d2)}
	l.f = own
	l.f.LogReference, l.f.SampleReference = l.logDensity, l.sample
	if own.GradLogReference != nil {
		l.f.GradLogReference = l.grad
	}
	if v.dense {
		l.y = make([]float64, d)
		l.f.LogReference, l.f.SampleReference = l.logDensityDense, l.sampleDense
		if own.GradLogReference != nil {
			l.f.GradLogReference = l.gradDense
		}
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
	if l.dense {
		l.addDense(x)
		return
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
	if l.dense {
		return l.fitDense(logZ0)
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

// setNorm computes logNorm from s: the log of the determinant of the
// scale, Σ_d log s_d, or Σ_d log L_dd in the dense family.
func (l *variationalLane) setNorm(logZ0 float64) {
	sum, d := 0.0, len(l.m)
	for i := range d {
		if l.dense {
			sum += math.Log(l.s[i*d+i])
		} else {
			sum += math.Log(l.s[i])
		}
	}
	l.logNorm = sum + 0.5*float64(d)*math.Log(2*math.Pi) - logZ0
}

func (l *variationalLane) clear() {
	l.n = 0
	clear(l.sum1)
	clear(l.sum2)
}
