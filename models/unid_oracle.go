package models

import "math"

// ExactLogZ returns the log evidence log Z = LogZPath(1) = ln C(n, y) +
// ln B(y+1, n−y+1) + ln(ψ(n+2) − ψ(y+1)).
func (u *Unid) ExactLogZ() float64 { return u.LogZPath(1) }

// LogZPath returns log(Z(t)/Z(0)) along the linear path π_t ∝ exp(W0 +
// t(W1 − W0)), t ∈ [0, 1], in closed form:
//
//	log Z(t) = t ln C(n, y) + ln B(ty+1, t(n−y)+1) + ln(ψ(tn+2) − ψ(ty+1)).
//
// Derivation. W1 − W0 is the log likelihood ln L(s) = ln C(n, y) +
// y ln s + (n−y) ln(1−s) of the product s = p1 p2 alone, and under the
// reference (p1, p2 uniform on the square) s has density −ln s on (0, 1)
// (P(p1 p2 ≤ s) = s − s ln s). So, with a = ty+1 and b = t(n−y)+1,
//
//	Z(t) = ∫_0^1 L(s)^t (−ln s) ds = C(n, y)^t ∫_0^1 s^{a−1} (1−s)^{b−1} (−ln s) ds
//	     = C(n, y)^t B(a, b) (ψ(a+b) − ψ(a)),
//
// the last step because −E[ln S] = ψ(a+b) − ψ(a) for S ~ Beta(a, b); a+b =
// tn+2. At t = 0 it is ln B(1, 1) + ln(ψ(2) − ψ(1)) = 0, and at t = 1 the
// issue's formula. The difference of digammas is taken by digammaDiff,
// accurate where the two arguments are large and close. t outside
// [0, 1] gives NaN.
func (u *Unid) LogZPath(t float64) float64 {
	if !(t >= 0 && t <= 1) {
		return math.NaN()
	}
	n, y := float64(u.N), float64(u.Y)
	a, b := t*y+1, t*(n-y)+1
	return t*u.lnChoose + lnBeta(a, b) + math.Log(digammaDiff(a, a+b))
}

// digammaDiff returns ψ(c) − ψ(a) for c ≥ a > 0 without the cancellation
// of subtracting two digammas: both arguments are raised by the recurrence
// ψ(x) = ψ(x+1) − 1/x until a ≥ 20, each step adding 1/a − 1/c =
// (c−a)/(ac), and then the asymptotic series ψ(x) = ln x − 1/(2x) −
// Σ_k B_{2k}/(2k x^{2k}) (Abramowitz & Stegun 6.3.18), through x⁻¹⁰,
// whose remainder is below 1e-16 at x ≥ 20, is differenced term by term,
// ln(c/a) as log1p((c−a)/a).
func digammaDiff(a, c float64) float64 {
	d := c - a
	s := 0.0
	for a < 20 {
		s += d / (a * c)
		a++
		c++
	}
	// ψ(x) = ln x − 1/(2x) − 1/(12x²) + 1/(120x⁴) − 1/(252x⁶) + 1/(240x⁸) − 1/(132x¹⁰).
	tail := func(x float64) float64 {
		z := 1 / (x * x)
		return z * (-1.0/12 + z*(1.0/120+z*(-1.0/252+z*(1.0/240-z/132))))
	}
	return s + math.Log1p(d/a) + d/(2*a*c) + tail(c) - tail(a)
}
