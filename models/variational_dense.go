package models

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/ptbatch/ptbatch/layout"
)

// VariationalDense is Variational in the dense Gaussian family: each
// replicate's reference is N(m, Σ), m and Σ the mean and the sample
// covariance (divisor n−1) of its target chain's states after each
// tuning scan's local explorations (moment matching, as in Surjanovic et
// al., NeurIPS 2022, with the full covariance in place of the variances),
// so that a target whose coordinates are correlated is matched where the
// diagonal family matches only its marginals.
//
// Σ is factorised as LLᵀ (gonum's mat.Cholesky); a Σ that is not
// positive definite (fewer states than coordinates, collinear or
// non-finite states), or whose condition number exceeds
// mat.ConditionTolerance, leaves the replicate's reference as it was.
// The reference chain draws exactly x = m + Lz, z standard normal, and
// W0(x) = log N(x; m, Σ) + log Z0 (Unconstrained.LogZ0), so that log Z
// keeps its meaning log(Z1/Z0) for the model's own W0 and W1. The fitted
// m and L are engine state: a checkpoint saves them, and a resumed run
// continues bit for bit. Freezing, refusals and explorers are
// Variational's.
func VariationalDense(m Model, ex Explorer, fitScans int) (Model, error) {
	return newVariational(m, ex, fitScans, true, false)
}

// denseVariationalModel is the Model of VariationalDense: a
// variationalModel whose memory estimate counts its lanes' Dim×Dim
// factors and sums (Sizer), so that a dense reference too large for the
// machine is refused before it is allocated.
type denseVariationalModel struct{ *variationalModel }

// BlockBytes counts the states of the block (one float64 per coordinate,
// row and lane, and two energies per row and lane) and every lane's
// factor L and sums of outer products, Dim×Dim each (Sizer).
func (v *denseVariationalModel) BlockBytes(rows int) (int64, error) {
	var c sizeCount
	d := v.inner.f.Dim
	c.add(rows, layout.Lanes, d, 8)
	c.add(rows, layout.Lanes, 16)
	c.add(layout.Lanes, 2, d, d, 8)
	c.add(layout.Lanes, 5, d, 8)
	if c.over {
		return 0, ErrSizeOverflow
	}
	return int64(c.n), nil
}

// addDense accumulates e = x − shift into sum1 and the lower triangle of
// e·eᵀ into sum2.
func (l *variationalLane) addDense(x []float64) {
	d := len(x)
	for i, v := range x {
		l.y[i] = v - l.shift[i]
		l.sum1[i] += l.y[i]
	}
	for i := range d {
		row := l.sum2[i*d : i*d+i+1]
		for j := range row {
			row[j] = math.FMA(l.y[i], l.y[j], row[j])
		}
	}
	l.n++
}

// fitDense sets m and the Cholesky factor L of the scan's sample
// covariance, if it is positive definite and well conditioned, and
// reports whether it did. l.n ≥ 2.
func (l *variationalLane) fitDense(logZ0 float64) bool {
	d, n := len(l.m), float64(l.n)
	mean := make([]float64, d)
	for i := range mean {
		mean[i] = l.sum1[i] / n
		if math.IsNaN(mean[i]) || math.IsInf(mean[i], 0) {
			return false
		}
	}
	cov := mat.NewSymDense(d, nil)
	for i := range d {
		for j := 0; j <= i; j++ {
			cov.SetSym(i, j, (l.sum2[i*d+j]-n*mean[i]*mean[j])/(n-1))
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(cov) || !(ch.Cond() <= mat.ConditionTolerance) {
		return false
	}
	var low mat.TriDense
	ch.LTo(&low)
	for i := range d {
		for j := range d {
			l.s[i*d+j] = low.At(i, j)
		}
		l.m[i] = l.shift[i] + mean[i]
	}
	l.fitted = true
	l.setNorm(logZ0)
	return true
}

// solveLower writes y = L⁻¹(x − m) (forward substitution) to l.y.
func (l *variationalLane) solveLower(x []float64) {
	d := len(x)
	for i, v := range x {
		acc := v - l.m[i]
		row := l.s[i*d : i*d+i]
		for j, a := range row {
			acc = math.FMA(-a, l.y[j], acc)
		}
		l.y[i] = acc / l.s[i*d+i]
	}
}

// logDensityDense is the fitted W0: log N(x; m, LLᵀ) + log Z0 =
// −|L⁻¹(x − m)|²/2 − logNorm.
func (l *variationalLane) logDensityDense(x []float64) float64 {
	l.solveLower(x)
	q := 0.0
	for _, y := range l.y {
		q = math.FMA(y, y, q)
	}
	return -0.5*q - l.logNorm
}

// gradDense writes ∇W0(x) = −Σ⁻¹(x − m) = −L⁻ᵀ L⁻¹(x − m): the forward
// solve, then the backward solve of Lᵀu = y.
func (l *variationalLane) gradDense(x, g []float64) {
	l.solveLower(x)
	d := len(x)
	for i := d - 1; i >= 0; i-- {
		acc := l.y[i]
		for j := i + 1; j < d; j++ {
			acc = math.FMA(-l.s[j*d+i], g[j], acc)
		}
		g[i] = acc / l.s[i*d+i]
	}
	for i := range g {
		g[i] = -g[i]
	}
}

// sampleDense draws x = m + Lz: the Dim normals z_0, …, z_{Dim−1} in
// order into x, then x_i = m_i + Σ_{j≤i} L_ij z_j from the last
// coordinate down, so that each x_i overwrites z_i after its last use.
func (l *variationalLane) sampleDense(r Rand, x []float64) {
	for i := range x {
		x[i] = r.Normal()
	}
	d := len(x)
	for i := d - 1; i >= 0; i-- {
		acc := l.m[i]
		for j, a := range l.s[i*d : i*d+i+1] {
			acc = math.FMA(a, x[j], acc)
		}
		x[i] = acc
	}
}

var _ Sizer = (*denseVariationalModel)(nil)
