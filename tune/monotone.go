package tune

import (
	"math"
	"slices"
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
	// copies); ys[i] is the value at the knot xs[i].
	xs, ys []float64
	// coeffs holds a0, a1, a2, a3 of segment i in coeffs[i].
	coeffs [][4]float64
	// lastY and lastDyDx are the value and derivative at the last knot.
	lastY, lastDyDx float64
	// increasing reports xs[i] < xs[i+1] for all i (no NaN), which lets
	// segmentNear skip the binary search.
	increasing bool
	// slopes and invs are fit's scratch: the secant slopes and the
	// reciprocals of the steps (0 for a step below 1e-100, divided by
	// instead).
	slopes, invs []float64
}

// reserve gives c room for fits through n points.
func (c *monotoneCubic) reserve(n int) {
	c.slopes, c.invs = make([]float64, 0, n), make([]float64, 0, n)
	c.coeffs = make([][4]float64, 0, n)
}

// fit fits the interpolant to the points (xs[i], ys[i]), as gonum's
// FritschButland.Fit followed by PiecewiseCubic.FitWithDerivatives: the
// secant slopes s_i = (ys[i+1]-ys[i])/(xs[i+1]-xs[i]); the interior
// derivatives, the weighted harmonic mean of the two neighbouring slopes
// when they have the same sign and 0 otherwise,
//
//	d_i = 3(x_{i+1}-x_{i-1}) / (w0/s_{i-1} + w1/s_i)
//	    = 3(x_{i+1}-x_{i-1})·s_{i-1}·s_i / (w0·s_i + w1·s_{i-1}),
//	w0 = 2x_{i+1}-x_{i-1}-x_i, w1 = x_{i+1}+x_i-2x_{i-1},
//
// with one division by the right form (gonum's three divisions' number to
// a few ulps) where s_{i-1}·s_i is a normal number and the numerator and
// denominator are finite and normal, and gonum's left form otherwise;
//
// the edge derivatives of edgeDerivative; with two points both derivatives
// are the one slope. xs and ys are kept, not copied, until the next fit
// and must not change before it. It panics if len(xs) < 2,
// len(ys) != len(xs), or a step xs[i+1]-xs[i] is ≤ 0 (a NaN step is not
// caught, as in gonum).
func (c *monotoneCubic) fit(xs, ys []float64) {
	n := len(xs)
	if n < 2 {
		panic("tune: monotone cubic needs two points")
	}
	if len(ys) != n {
		panic("tune: monotone cubic length mismatch")
	}
	m := n - 1
	slopes := slices.Grow(c.slopes[:0], m)[:m]
	invs := slices.Grow(c.invs[:0], m)[:m]
	c.slopes, c.invs = slopes, invs
	// The steps' reciprocals and the secant slopes: one division per
	// segment (the divider bounded the fit at the end of a scan). Steps
	// below 1e-100, whose reciprocal's cube would overflow, are divided
	// by (invs[i] = 0 marks them).
	c.increasing = true
	for i := 0; i < m; i++ {
		dx := xs[i+1] - xs[i]
		if dx <= 0 {
			panic("tune: monotone cubic abscissae not increasing")
		}
		if !(xs[i] < xs[i+1]) {
			c.increasing = false
		}
		dy := ys[i+1] - ys[i]
		if dx >= 1e-100 {
			inv := 1 / dx
			invs[i], slopes[i] = inv, float64(dy*inv)
		} else {
			invs[i], slopes[i] = 0, dy/dx
		}
	}
	// The end knots' derivatives, then each segment's coefficients with
	// the derivative at its right knot (interiorDerivative, inlined) and
	// the one at its left carried over from the segment before.
	dFirst, dLast := slopes[0], slopes[0]
	if n > 2 {
		dFirst = edgeDerivative(slopes[0], slopes[1], xs[0], xs[1], xs[2], true)
		dLast = edgeDerivative(slopes[m-1], slopes[m-2], xs[m], xs[m-1], xs[m-2], false)
	}
	coeffs := slices.Grow(c.coeffs[:0], m)[:m]
	c.coeffs = coeffs
	d0 := dFirst
	for i := 0; i < m; i++ {
		d1 := dLast
		if i+1 < m {
			// interiorDerivative(slopes[i], slopes[i+1], xs[i], xs[i+1], xs[i+2]).
			s0, s1 := slopes[i], slopes[i+1]
			x0, x1, x2 := xs[i], xs[i+1], xs[i+2]
			d1 = 0
			if p := s0 * s1; p > 0 {
				w0 := float64(2*x2) - x0 - x1
				w1 := x2 + x1 - float64(2*x0)
				h := 3 * (x2 - x0)
				num := float64(h * p)
				den := float64(w0*s1) + float64(w1*s0)
				if p >= minNormal && num <= math.MaxFloat64 && math.Abs(den) >= minNormal && math.Abs(den) <= math.MaxFloat64 {
					d1 = num / den
				} else {
					d1 = h / (w0/s0 + w1/s1)
				}
			}
		}
		dx := xs[i+1] - xs[i]
		dy := ys[i+1] - ys[i]
		a := &coeffs[i]
		a[0] = ys[i]
		a[1] = d0
		// gonum divides by dx two and three times; the reciprocal, its
		// square and cube give the same coefficients to a few ulps.
		p2 := float64(3*dy) - float64((float64(2*d0)+d1)*dx)
		p3 := float64(-2*dy) + float64((d0+d1)*dx)
		if inv := invs[i]; inv != 0 {
			inv2 := float64(inv * inv)
			a[2] = float64(p2 * inv2)
			a[3] = float64(float64(p3*inv2) * inv)
		} else {
			a[2] = p2 / dx / dx
			a[3] = p3 / dx / dx / dx
		}
		d0 = d1
	}
	c.lastDyDx = dLast
	c.xs, c.ys = xs, ys
	c.lastY = ys[m]
}

// minNormal is the smallest positive normal float64, 2^-1022.
const minNormal = 0x1p-1022

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
		return c.coeffs[0][0]
	}
	m := len(c.xs) - 1
	if x == c.xs[i] {
		if i < m {
			return c.coeffs[i][0]
		}
		return c.lastY
	}
	if i == m {
		return c.lastY
	}
	a := &c.coeffs[i]
	return cubicValue(a[0], a[1], a[2], a[3], x-c.xs[i])
}

// predictDerivative returns the interpolant's derivative at x, as gonum's
// PiecewiseCubic.PredictDerivative, for x in segment i = findSegment(x).
func (c *monotoneCubic) predictDerivative(i int, x float64) float64 {
	if i < 0 {
		return c.coeffs[0][1]
	}
	m := len(c.xs) - 1
	if x == c.xs[i] {
		if i < m {
			return c.coeffs[i][1]
		}
		return c.lastDyDx
	}
	if i == m {
		return c.lastDyDx
	}
	a := &c.coeffs[i]
	return cubicSlope(a[1], a[2], a[3], x-c.xs[i])
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
