package tune

import (
	"math"
	"slices"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// monotoneCubic is the monotone piecewise-cubic interpolant of Fritsch and
// Butland (1984) through points (xs[i], ys[i]), the Λ(t) of the schedule
// update (eq:equicrit). It computes the numbers of gonum's
// interp.FritschButland (v0.17) to a few ulps, with two divisions per
// segment where gonum makes nine (issue 23): the secant slopes dy·(1/dx),
// the interior derivatives with one division (see fit), the edge
// derivatives with gonum's operations, and the cubic coefficients a2 and
// a3 multiplied by 1/dx where gonum divides by dx two and three times; it
// evaluates them with gonum's expressions and boundary rules (at a knot the knot's own value, before
// xs[0] the first value, from the last knot on the last value). Unlike
// gonum it keeps its buffers between fits and can be evaluated on a
// segment the caller already knows, without a binary search.
//
// Every product is converted, float64(x*y), before it is added or
// subtracted, which forbids the compiler to fuse the two into one
// multiply-add (Go spec, "Floating-point operators"): the results are the
// same on every platform, and within a few ulps of gonum's where the
// compiler fuses none of gonum's (amd64 at its default GOAMD64=v1, on
// which the tests compare the two; GOAMD64=v3 or arm64 fuse some,
// depending on where the operands live).
//
// On segment i, for xs[i] ≤ x < xs[i+1] and dx = x - xs[i],
//
//	p(x) = ((a3·dx + a2)·dx + a1)·dx + a0,
//
// where a0 = ys[i], a1 = d_i, and a2, a3 make p(xs[i+1]) = ys[i+1] and
// p'(xs[i+1]) = d_{i+1} for the derivatives d_i of fit.
type monotoneCubic struct {
	// xs and ys are the points of the last fit (the caller's slices, not
	// copies); ys[i] is the value at the knot xs[i], the coefficient a0
	// of segment i.
	xs, ys []float64
	// derivs holds the derivative d_i at knot i, the coefficient a1 of
	// segment i; a2s and a3s hold a2 and a3 of segment i (each padded to
	// a whole number of the kernels' rows).
	derivs, a2s, a3s []float64
	// lastY and lastDyDx are the value and derivative at the last knot.
	lastY, lastDyDx float64
	// increasing reports xs[i] < xs[i+1] for all i (no NaN), which lets
	// segmentNear skip the binary search.
	increasing bool
	// slopes and invs are fit's scratch: the secant slopes and the
	// reciprocals of the steps (0 for a step below 1e-100, divided by
	// instead); xpad and ypad hold copies of the points when the caller's
	// slices have no room for the kernels' padding.
	slopes, invs, xpad, ypad []float64
}

// fitPad returns the number of segments fit's kernels compute for m
// segments: m rounded up to a whole number of rows of layout.Lanes.
func fitPad(m int) int { return (m + layout.Lanes - 1) / layout.Lanes * layout.Lanes }

// reserve gives c room for fits through n points.
func (c *monotoneCubic) reserve(n int) {
	p := fitPad(n)
	c.slopes, c.invs = make([]float64, p+1), make([]float64, p)
	c.derivs, c.a2s, c.a3s = make([]float64, p+1), make([]float64, p), make([]float64, p)
}

// coeff returns the coefficients a0, a1, a2, a3 of segment i.
func (c *monotoneCubic) coeff(i int) (a0, a1, a2, a3 float64) {
	return c.ys[i], c.derivs[i], c.a2s[i], c.a3s[i]
}

// padded returns x cut to n values, with room for the kernels to read
// past its end: x itself when its capacity allows (the values past its
// length are read and their results thrown away), else a copy in *buf.
func padded(x []float64, n int, buf *[]float64) []float64 {
	if cap(x) >= n {
		return x[:n]
	}
	*buf = append(slices.Grow((*buf)[:0], n), x...)
	return (*buf)[:n]
}

// fit fits the interpolant to the points (xs[i], ys[i]), as gonum's
// FritschButland.Fit followed by PiecewiseCubic.FitWithDerivatives: the
// secant slopes s_i = (ys[i+1]-ys[i])/(xs[i+1]-xs[i]) (by the reciprocal
// of the step); the interior derivatives, the weighted harmonic mean of
// the two neighbouring slopes when they have the same sign and 0
// otherwise,
//
//	d_i = 3H / (w0/s_{i-1} + w1/s_i) = 3H·s_{i-1}·s_i / (w0·s_i + w1·s_{i-1}),
//
// with H = x_{i+1}-x_{i-1}, w0 = 2x_{i+1}-x_{i-1}-x_i and
// w1 = x_{i+1}+x_i-2x_{i-1}, by the second form (one division, gonum's
// three) where its product and denominator are normal and finite; the
// edge derivatives of edgeDerivative; with two points both derivatives
// are the one slope. Slopes, interior derivatives and coefficients are
// kernel.CubicSlopes, CubicDerivs and CubicCoeffs, a row of segments at a
// time. xs and ys are kept, not copied, until the next fit and must not
// change before it. It panics if len(xs) < 2, len(ys) != len(xs), or a
// step xs[i+1]-xs[i] is ≤ 0 (a NaN step is not caught, as in gonum).
func (c *monotoneCubic) fit(xs, ys []float64) {
	n := len(xs)
	if n < 2 {
		panic("tune: monotone cubic needs two points")
	}
	if len(ys) != n {
		panic("tune: monotone cubic length mismatch")
	}
	increasing := true
	for i := 0; i < n-1; i++ {
		dx := xs[i+1] - xs[i]
		if dx <= 0 {
			panic("tune: monotone cubic abscissae not increasing")
		}
		if !(dx > 0) { // a NaN step: xs[i] < xs[i+1] is false
			increasing = false
		}
	}
	c.fitChecked(xs, ys, increasing)
}

// fitChecked is fit for abscissae the caller has checked: increasing
// reports that no step is NaN (every step is positive); no step is ≤ 0.
// appendBarrierPoints makes such points, and the schedule update fits
// them without fit's pass over the steps.
func (c *monotoneCubic) fitChecked(xs, ys []float64, increasing bool) {
	n := len(xs)
	m := n - 1
	c.increasing = increasing
	// The kernels compute p segments, past the last real one on whatever
	// the slices hold there (results thrown away); CubicDerivs reads
	// xs[p+1].
	p := fitPad(m)
	xp, yp := padded(xs, p+2, &c.xpad), padded(ys, p+2, &c.ypad)
	slopes, invs := grow(c.slopes, p+1), grow(c.invs, p)
	derivs, a2s, a3s := grow(c.derivs, p+1), grow(c.a2s, p), grow(c.a3s, p)
	c.slopes, c.invs, c.derivs, c.a2s, c.a3s = slopes, invs, derivs, a2s, a3s
	kernel.CubicSlopes(slopes[:p], invs, xp[:p+1], yp[:p+1])
	// The end knots' derivatives, then the interior ones (knots 1 … m-1,
	// and past them), then each segment's coefficients.
	dFirst, dLast := slopes[0], slopes[0]
	if n > 2 {
		dFirst = edgeDerivative(slopes[0], slopes[1], xs[0], xs[1], xs[2], true)
		dLast = edgeDerivative(slopes[m-1], slopes[m-2], xs[m], xs[m-1], xs[m-2], false)
	}
	kernel.CubicDerivs(derivs[1:p+1], slopes, xp)
	derivs[0], derivs[m] = dFirst, dLast
	kernel.CubicCoeffs(a2s, a3s, derivs, xp[:p+1], yp[:p+1], invs)
	c.lastDyDx = dLast
	c.xs, c.ys = xs, ys
	c.lastY = ys[m]
}

// edgeDerivative returns the Fritsch–Butland derivative at an end knot xE,
// from the slope dE of the end segment [xE, xM] and the slope dI of the
// next one [xM, xI] (gonum's fritschButlandEdgeDerivative): the
// three-point estimate
//
//	g = (f·dE - hE·dI)/h,  hE = |xM-xE|, h = |xI-xE|, f = hE + h,
//
// set to 0 when its sign differs from dE's and to 3·dE when the slopes
// differ in sign and |g| > 3|dE|. left tells which end xE is.
func edgeDerivative(dE, dI, xE, xM, xI float64, left bool) float64 {
	var h, hE, f float64
	if left {
		hE = xM - xE
		h = xI - xE
		f = xM + xI - float64(2*xE)
	} else {
		hE = xE - xM
		h = xE - xI
		f = float64(2*xE) - xI - xM
	}
	g := (float64(f*dE) - float64(hE*dI)) / h
	if g*dE <= 0 {
		return 0
	}
	if dE*dI <= 0 && math.Abs(g) > 3*math.Abs(dE) {
		return 3 * dE
	}
	return g
}

// findSegment returns gonum's segment of x: the i with xs[i] ≤ x < xs[i+1]
// (with xs[len(xs)] = +∞), -1 when x < xs[0], found by the same binary
// search (slices.BinarySearch) so that it agrees on every input, NaN and
// unsorted xs included.
func (c *monotoneCubic) findSegment(x float64) int {
	i, found := slices.BinarySearch(c.xs, x)
	if !found {
		return i - 1
	}
	return i
}

// segmentNear returns findSegment(x) for an x expected in
// [xs[seg], xs[seg+1]]: seg, or seg+1 when x is the knot xs[seg+1], decided
// by two comparisons when the abscissae are increasing; any other x (or
// abscissae with a NaN) goes through the binary search.
func (c *monotoneCubic) segmentNear(x float64, seg int) int {
	if c.increasing {
		if x < c.xs[seg+1] {
			if x >= c.xs[seg] {
				return seg
			}
		} else if x == c.xs[seg+1] {
			return seg + 1
		}
	}
	return c.findSegment(x)
}

// predict returns the interpolant at x, as gonum's PiecewiseCubic.Predict,
// for x in segment i = findSegment(x) (i = -1 before the first knot).
func (c *monotoneCubic) predict(i int, x float64) float64 {
	if i < 0 {
		return c.ys[0]
	}
	m := len(c.xs) - 1
	if x == c.xs[i] {
		if i < m {
			return c.ys[i]
		}
		return c.lastY
	}
	if i == m {
		return c.lastY
	}
	a0, a1, a2, a3 := c.coeff(i)
	return cubicValue(a0, a1, a2, a3, x-c.xs[i])
}

// predictDerivative returns the interpolant's derivative at x, as gonum's
// PiecewiseCubic.PredictDerivative, for x in segment i = findSegment(x).
func (c *monotoneCubic) predictDerivative(i int, x float64) float64 {
	if i < 0 {
		return c.derivs[0]
	}
	m := len(c.xs) - 1
	if x == c.xs[i] {
		if i < m {
			return c.derivs[i]
		}
		return c.lastDyDx
	}
	if i == m {
		return c.lastDyDx
	}
	_, a1, a2, a3 := c.coeff(i)
	return cubicSlope(a1, a2, a3, x-c.xs[i])
}

// cubicValue returns ((a3·dx + a2)·dx + a1)·dx + a0, gonum's
// PiecewiseCubic.Predict on a segment, each product rounded before it is
// added (see monotoneCubic).
func cubicValue(a0, a1, a2, a3, dx float64) float64 {
	p := float64(a3*dx) + a2
	p = float64(p*dx) + a1
	return float64(p*dx) + a0
}

// cubicSlope returns (3·a3·dx + 2·a2)·dx + a1, the derivative of
// cubicValue, as gonum's PiecewiseCubic.PredictDerivative, each product
// rounded before it is added (see monotoneCubic).
func cubicSlope(a1, a2, a3, dx float64) float64 {
	q := float64(3*a3*dx) + float64(2*a2)
	return float64(q*dx) + a1
}
