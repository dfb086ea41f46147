package asm

import "math"

// The schedule update's root finding (eq:equicrit): the inversion of the
// monotone cubic interpolant of the cumulative barrier Λ(t) at the targets
// Λ·n/N, one target per element, every target independent of the others.
// Package tune (its newtonTargets) finds each target's segment and falls
// back to a safeguarded solve where the result is NaN.

// The constants of SolveCubicsAtGeneric's iteration.
const (
	// SolveHalleySteps is the number of Halley steps before the last,
	// Newton step: from the secant guess, two steps of Halley's cubic
	// convergence bring all but a few in a thousand of the scan-end solves
	// to a last step small enough (SolveTol), as three Newton steps do,
	// with one division fewer.
	SolveHalleySteps = 2
	// SolveTol bounds the estimate of the error left after the last step,
	// as an absolute error in t ∈ [0, 1]: about one unit in the last place
	// of t near 1.
	SolveTol = 1e-16
	// SolveMaxSlope bounds the slopes at which the Halley steps are
	// trusted: above 2^511 the square r'² overflows and the step is lost
	// (only schedules squeezed to widths near 1e-300 have such slopes).
	SolveMaxSlope = 0x1p511
)

// SolveCubicsAtGeneric solves, for every i, r(dx) = a1·dx + a2·dx² +
// a3·dx³ − u = 0 on segment s = segs[i] of a fitted piecewise cubic (knots
// (xs[k], ys[k]), segment k's coefficients a1 = d[k], a2[k] and a3[k]),
// the segment [x0, x1] = [xs[s], xs[s+1]] of width h = x1 − x0 whose cubic
// rises by dy = ys[s+1] − ys[s], at the height u = targets[i] − ys[s],
// and writes the root x0 + dx to t[i], or NaN where the iteration did not
// converge:
//
//	b2, b3 := 2*a2, 3*a3
//	dx := (h*u) / dy                                     // the secant guess
//	SolveHalleySteps times:                              // Halley's method
//	    r, d, c := r(dx), r'(dx), r''(dx)/2              // Horner's rule
//	    dx = dx - (r*d) / (d*d - r*c)
//	    if 0 > dx { dx = 0 }; if h < dx { dx = h }        // kept in the segment
//	r, d := r(dx), r'(dx)
//	δ := r / d; dx = dx - δ                              // the last, Newton step
//	m := |a2| + |b3|*h                                   // bounds |r''/2| on the segment
//	ok := d > 0 && d < SolveMaxSlope && (m*δ)*δ <= SolveTol*d && dx >= 0 && dx <= h
//	t = x0 + dx; if x1 < t { t = x1 }; if !ok { t = NaN }
//
// with r = ((a3·dx + a2)·dx + a1)·dx − u, v = b3·dx, d = (v + b2)·dx + a1
// and c = a2 + v. Every product is rounded before it is added (no fused
// multiply-add), so that the assembly twins, which make the same
// operations in the same order, agree bit for bit; they gather each
// target's segment from the columns. ok tests the error M·δ² of Newton's
// quadratic convergence after a last step δ, M bounding half the second
// derivative over the first on the segment. segs and targets have t's
// length, a multiple of 8 for the assembly twins, and every segment s
// satisfies 0 ≤ s, s+1 < len(xs), len(ys) and s < len(d), len(a2),
// len(a3) (the checked layer in package kernel guarantees both).
func SolveCubicsAtGeneric(t []float64, segs []int, targets, xs, ys, d, a2, a3 []float64) {
	segs, targets = segs[:len(t)], targets[:len(t)]
	for i, s := range segs {
		a0, x0, x1 := ys[s], xs[s], xs[s+1]
		t[i] = SolveCubic(d[s], a2[s], a3[s], targets[i]-a0, x1-x0, ys[s+1]-a0, x0, x1)
	}
}

// SolveCubic is one element of SolveCubicsAtGeneric: the root of the
// segment's cubic at height u, or NaN where the iteration did not
// converge.
func SolveCubic(a1, a2, a3, u, h, dy, x0, x1 float64) float64 {
	b2, b3 := 2*a2, 3*a3
	dx := float64(h*u) / dy
	var r, d float64
	for k := 0; ; k++ {
		q := float64(a3*dx) + a2
		q = float64(q*dx) + a1
		r = float64(q*dx) - u
		v := float64(b3 * dx)
		d = float64((v+b2)*dx) + a1
		if k == SolveHalleySteps {
			break
		}
		dx -= float64(r*d) / (float64(d*d) - float64(r*(a2+v)))
		if 0 > dx {
			dx = 0
		}
		if h < dx {
			dx = h
		}
	}
	delta := r / d
	dx -= delta
	m := math.Abs(a2) + float64(math.Abs(b3)*h)
	ok := d > 0 && d < SolveMaxSlope && float64(float64(m*delta)*delta) <= float64(SolveTol*d) && dx >= 0 && dx <= h
	t := x0 + dx
	if x1 < t {
		t = x1
	}
	if !ok {
		return math.NaN()
	}
	return t
}

// The Fritsch–Butland fit of the same interpolant (Fritsch and Butland
// 1984, as gonum's interp.FritschButland), in three passes over its
// points (xs[i], ys[i]): the secant slopes, the derivatives at the
// interior knots, and each segment's cubic coefficients. Package tune
// (monotoneCubic.fit) computes the two end knots' derivatives and checks
// the abscissae between them.

// fitTinyStep is the step below which a segment's reciprocal is not taken
// (its cube would overflow): CubicSlopesGeneric marks it with inv = 0 and
// CubicCoeffsGeneric divides by the step instead.
const fitTinyStep = 1e-100

// fitMinNormal is the smallest positive normal float64, 2^-1022.
const fitMinNormal = 0x1p-1022

// CubicSlopesGeneric writes, for every segment i < len(slopes), the
// reciprocal of its step and its secant slope:
//
//	dx, dy := xs[i+1]-xs[i], ys[i+1]-ys[i]
//	if dx >= 1e-100 { invs[i] = 1/dx; slopes[i] = dy*invs[i] }
//	else            { invs[i] = 0;    slopes[i] = dy/dx }
//
// len(invs) == len(slopes), a multiple of 8 for the assembly twins, and
// len(xs) == len(ys) == len(slopes)+1 (the checked layer in package
// kernel guarantees it).
func CubicSlopesGeneric(slopes, invs, xs, ys []float64) {
	n := len(slopes)
	invs, xs, ys = invs[:n], xs[:n+1], ys[:n+1]
	for i := range slopes {
		dx := xs[i+1] - xs[i]
		dy := ys[i+1] - ys[i]
		if dx >= fitTinyStep {
			inv := 1 / dx
			invs[i], slopes[i] = inv, float64(dy*inv)
		} else {
			invs[i], slopes[i] = 0, dy/dx
		}
	}
}

// CubicDerivsGeneric writes to d[i] the Fritsch–Butland derivative at the
// interior knot i+1, for i < len(d): from the slopes s0 = slopes[i] and
// s1 = slopes[i+1] of the segments on either side and the knots
// x0, x1, x2 = xs[i], xs[i+1], xs[i+2], the weighted harmonic mean of the
// slopes when they have the same sign and 0 otherwise,
//
//	p := s0*s1
//	if p > 0 {
//	    w0, w1, h := (2*x2 - x0) - x1, (x2 + x1) - 2*x0, 3*(x2 - x0)
//	    num, den := h*p, w0*s1 + w1*s0
//	    d = num/den     where p, num, |den| are normal and finite,
//	    d = h / (w0/s0 + w1/s1)    otherwise (gonum's form)
//	} else { d = 0 }
//
// each product rounded before it is added. len(slopes) == len(d)+1,
// len(xs) == len(d)+2, len(d) a multiple of 8 for the assembly twins.
func CubicDerivsGeneric(d, slopes, xs []float64) {
	n := len(d)
	slopes, xs = slopes[:n+1], xs[:n+2]
	for i := range d {
		s0, s1 := slopes[i], slopes[i+1]
		x0, x1, x2 := xs[i], xs[i+1], xs[i+2]
		v := 0.0
		if p := s0 * s1; p > 0 {
			w0 := float64(2*x2) - x0 - x1
			w1 := x2 + x1 - float64(2*x0)
			h := 3 * (x2 - x0)
			num := float64(h * p)
			den := float64(w0*s1) + float64(w1*s0)
			if p >= fitMinNormal && num <= math.MaxFloat64 && math.Abs(den) >= fitMinNormal && math.Abs(den) <= math.MaxFloat64 {
				v = num / den
			} else {
				v = h / (w0/s0 + w1/s1)
			}
		}
		d[i] = v
	}
}

// CubicCoeffsGeneric writes, for every segment i < len(a2), the
// coefficients a2 and a3 of its cubic p(x) = ((a3·dx + a2)·dx + a1)·dx + a0
// (a0 = ys[i], a1 = d[i]) that make p(xs[i+1]) = ys[i+1] and
// p'(xs[i+1]) = d[i+1]:
//
//	dx, dy := xs[i+1]-xs[i], ys[i+1]-ys[i]
//	p2 := 3*dy - (2*d[i] + d[i+1])*dx
//	p3 := -2*dy + (d[i] + d[i+1])*dx
//	if invs[i] != 0 { a2 = p2*inv²; a3 = (p3*inv²)*inv }   // inv² = invs[i]*invs[i]
//	else            { a2 = p2/dx/dx; a3 = p3/dx/dx/dx }
//
// each product rounded before it is added. len(a3) == len(invs) ==
// len(a2), a multiple of 8 for the assembly twins, and len(d) == len(xs)
// == len(ys) == len(a2)+1.
func CubicCoeffsGeneric(a2, a3, d, xs, ys, invs []float64) {
	n := len(a2)
	a3, d, xs, ys, invs = a3[:n], d[:n+1], xs[:n+1], ys[:n+1], invs[:n]
	for i := range a2 {
		d0, d1 := d[i], d[i+1]
		dx := xs[i+1] - xs[i]
		dy := ys[i+1] - ys[i]
		p2 := float64(3*dy) - float64((float64(2*d0)+d1)*dx)
		p3 := float64(-2*dy) + float64((d0+d1)*dx)
		if inv := invs[i]; inv != 0 {
			inv2 := float64(inv * inv)
			a2[i] = float64(p2 * inv2)
			a3[i] = float64(float64(p3*inv2) * inv)
		} else {
			a2[i] = p2 / dx / dx
			a3[i] = p3 / dx / dx / dx
		}
	}
}

// TargetIndicesGeneric writes to g[i] the index k of the first of the
// schedule update's targets k·step, k = 1 … num−1, above the knot value
// ys[i] (eq:equicrit), or num when none is: from the guess ⌊ys[i]·inv⌋ + 1
// (inv = 1/step; 1 for values below step, num for values whose guess
// reaches num or NaN), corrected by comparisons with the targets
// themselves, k·step, so that it is exact whatever the guess's rounding.
// g and ys have one length, a multiple of 8 for the assembly twins, which
// hold k as a float64 (an exact integer) until they store it (the checked
// layer in package kernel guarantees the lengths and 1 ≤ num < 2^31).
func TargetIndicesGeneric(g []int, ys []float64, step, inv float64, num int) {
	ys = ys[:len(g)]
	for i, y := range ys {
		k := num
		if x := y * inv; x < float64(num) {
			k = 1
			if x >= 1 {
				k = int(x) + 1
			}
			for k > 1 && float64(k-1)*step > y {
				k--
			}
			for k < num && float64(k)*step <= y {
				k++
			}
		}
		g[i] = k
	}
}
