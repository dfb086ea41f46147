package asm

import "math"

// The schedule update's root finding (eq:equicrit): the inversion of the
// monotone cubic interpolant of the cumulative barrier Λ(t) at the targets
// Λ·n/N, one target per element, every target independent of the others.
// Package tune (its newtonTargets) fills the rows and falls back to a
// safeguarded solve where the result is NaN.

// The constants of SolveCubicsGeneric's iteration.
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

// SolveCubicsGeneric solves, for every i, r(dx) = a1·dx + a2·dx² + a3·dx³ − u
// = 0 on the segment [x0[i], x1[i]] of width h[i] = x1[i] − x0[i] whose
// cubic rises by dy[i] (all rows indexed by i; a1[i] is a1, and so on),
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
// operations in the same order, agree bit for bit. ok tests the error
// M·δ² of Newton's quadratic convergence after a last step δ, M bounding
// half the second derivative over the first on the segment. All slices
// have t's length, a multiple of 8 for the assembly twins (the checked
// layer in package kernel guarantees it); t may alias dy.
func SolveCubicsGeneric(t, a1, a2, a3, u, h, dy, x0, x1 []float64) {
	n := len(t)
	a1, a2, a3, u, h, dy, x0, x1 = a1[:n], a2[:n], a3[:n], u[:n], h[:n], dy[:n], x0[:n], x1[:n]
	for i := range t {
		t[i] = solveCubic(a1[i], a2[i], a3[i], u[i], h[i], dy[i], x0[i], x1[i])
	}
}

// solveCubic is one element of SolveCubicsGeneric.
func solveCubic(a1, a2, a3, u, h, dy, x0, x1 float64) float64 {
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
