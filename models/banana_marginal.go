package models

import "math"

// normalCDF is Φ(x).
func normalCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// normalPDF is φ(x).
func normalPDF(x float64) float64 { return math.Exp(-x*x/2) / math.Sqrt(2*math.Pi) }

// bananaIntervals is the number of Simpson intervals of MarginalCDF's
// quadrature: measured against 4000 intervals over a ∈ [−1000, 20] and
// b ∈ [0.0005, 10], 200 intervals err by 2e-9, 400 by 1e-10 and 800 by
// 7e-12 (Simpson's h⁴), so 400 leave an error near 1e-10.
const bananaIntervals = 400

// MarginalCDF returns P(x_i ≤ a) under the target, for coordinate i
// (0-based): Φ(a/10) for x1, Φ(a) for x_j with j ≥ 3, and for x2 = z2 −
// c(z1² − 1), c = 100b, a one-dimensional integral by Simpson's rule
// (error near 1e-10, see bananaIntervals):
//
//	b = 0:       Φ(a);
//	c < 0.1:     ∫ φ(z) Φ(a + c(z² − 1)) dz over |z| ≤ 12, an integrand
//	             varying on scales ≥ 1/(2c·12) ≥ 0.4;
//	otherwise:   P(z1² ≥ 1 + (z2 − a)/c) averaged over z2, which is 1 for
//	             z2 ≤ k = a − c and 2Φ(−√((z2 − k)/c)) above, so
//	             F(a) = Φ(k) + ∫ 2w φ(k + w²) 2Φ(−w/√c) dw
//	             after z2 = k + w², which removes the square root's kink,
//	             over the w where |k + w²| ≤ 12 (φ(12) < 1e-31).
//
// It panics if i is not a coordinate.
func (m *Banana) MarginalCDF(i int, a float64) float64 {
	switch {
	case i < 0 || i >= m.Dim:
		panic("models: Banana.MarginalCDF of a coordinate the banana does not have")
	case i == 0:
		return normalCDF(a / 10)
	case i >= 2 || m.Curvature == 0:
		return normalCDF(a)
	}
	c := 100 * m.Curvature
	if c < 0.1 {
		return simpsonRule(func(z float64) float64 { return normalPDF(z) * normalCDF(a+c*(z*z-1)) }, -12, 12, bananaIntervals)
	}
	k := a - c
	if k >= 12 {
		return 1
	}
	s := math.Sqrt(c)
	lo := math.Sqrt(max(0, -12-k)) // below it φ(k + w²) < φ(12)
	return normalCDF(k) + simpsonRule(func(w float64) float64 {
		return 4 * w * normalPDF(k+w*w) * normalCDF(-w/s)
	}, lo, math.Sqrt(12-k), bananaIntervals)
}

// simpsonRule returns ∫_lo^hi f by the composite Simpson rule on n (even)
// intervals.
func simpsonRule(f func(float64) float64, lo, hi float64, n int) float64 {
	h := (hi - lo) / float64(n)
	s := f(lo) + f(hi)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		s += w * f(lo+float64(i)*h)
	}
	return s * h / 3
}
