// Package betaexact holds the exact communication barrier of the paper's
// Beta-binomial experiment on a spline path, for the reports and tests
// that compare the tuned paths with the family's best, as
// internal/gaussexact does for the Gaussian: every annealed density of the
// Beta-binomial model is a Beta density, and the local barrier λ of
// Theorem thm:general_GCB is a one-dimensional integral of the
// characteristic function of the energy difference, which is a product of
// Gamma functions of complex argument.
//
// References:
//
//   - S. Syed, V. Romaniello, T. Campbell, A. Bouchard-Côté. Parallel
//     tempering on optimized paths. ICML 2021 (the Beta-binomial
//     experiment of the appendix "Experimental details"; Theorem
//     thm:general_GCB, eq:nrpt_rtr).
//   - NIST Digital Library of Mathematical Functions, 5.8.3 (the product
//     |Γ(x+iy)/Γ(x)|² = Π_n (1 + y²/(x+n)²)^{-1}) and 2.10.1 (the
//     Euler–Maclaurin formula).
//   - Z. Sasvári. Multivariate Characteristic and Correlation Functions.
//     De Gruyter 2013 (E|D| = (2/π) ∫_0^∞ (1 - Re φ_D(u))/u² du).
package betaexact

import (
	"fmt"
	"math"

	"github.com/ptbatch/ptbatch/internal/gaussexact"
	"github.com/ptbatch/ptbatch/tune"
	"gonum.org/v1/gonum/mathext"
)

// BetaPair is the Beta-binomial model of models.BetaBinomial: a Beta(A, B)
// prior on p and binomial data with S successes and F failures, with
//
//	W0(p) = (A-1) log p + (B-1) log(1-p),
//	W1(p) = W0(p) + S log p + F log(1-p),
//
// so that the annealed density exp(η0 W0 + η1 W1) is Beta(α, β) with
//
//	α = (η0+η1)(A-1) + η1 S + 1,  β = (η0+η1)(B-1) + η1 F + 1.
type BetaPair struct {
	A, B float64
	S, F float64
}

// Validate returns an error naming the first bad field of p, or nil.
func (p BetaPair) Validate() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case !(p.A > 0) || !finite(p.A) || !(p.B > 0) || !finite(p.B):
		return fmt.Errorf("betaexact: prior shapes must be positive and finite, got %v, %v", p.A, p.B)
	case !(p.S >= 0) || !finite(p.S) || !(p.F >= 0) || !finite(p.F):
		return fmt.Errorf("betaexact: data counts must be non-negative and finite, got %v, %v", p.S, p.F)
	}
	return nil
}

// Annealed returns the shapes α, β of the annealed Beta density at
// η = (eta0, eta1), and ok = false when one is not positive.
func (p BetaPair) Annealed(eta0, eta1 float64) (alpha, beta float64, ok bool) {
	alpha = (eta0+eta1)*(p.A-1) + eta1*p.S + 1
	beta = (eta0+eta1)*(p.B-1) + eta1*p.F + 1
	return alpha, beta, alpha > 0 && beta > 0
}

// LocalBarrier returns the local communication barrier
//
//	λ = ½ E|V(X) - V(X')|,  V = etaDot·W,  X, X' iid π_eta,
//
// of §3 (Theorem thm:general_GCB) at the point eta of a path with velocity
// etaDot, NaN where π_eta is improper. V(x) = a log x + b log(1-x) with
// (a, b) the derivatives of (α, β) along etaDot, so the characteristic
// function of V(X) is φ(u) = E[X^{iua} (1-X)^{iub}] = B(α+iua, β+iub)/B(α, β)
// and, by DLMF 5.8.3,
//
//	-log |φ(u)|² = h(α, ua) + h(β, ub) - h(α+β, u(a+b)),
//	h(x, y) = Σ_{n≥0} log(1 + y²/(x+n)²)
//
// (gammaRatio). The difference D = V(X) - V(X') is symmetric with
// characteristic function |φ|², so E|D| = (2/π) ∫_0^∞ (1 - |φ(u)|²)/u² du;
// the substitution u = c tan θ, c = 1/sd(V) (sd(V)² = a² ψ′(α) + b² ψ′(β)
// - (a+b)² ψ′(α+β), ψ′ the trigamma function) maps it to a bounded
// integrand on [0, π/2], integrated by adaptive Gauss–Legendre
// quadrature. λ is homogeneous of degree one in etaDot.
func (p BetaPair) LocalBarrier(eta, etaDot [2]float64) float64 {
	alpha, beta, ok := p.Annealed(eta[0], eta[1])
	if !ok {
		return math.NaN()
	}
	a := (etaDot[0]+etaDot[1])*(p.A-1) + etaDot[1]*p.S
	b := (etaDot[0]+etaDot[1])*(p.B-1) + etaDot[1]*p.F
	if a == 0 && b == 0 {
		return 0
	}
	trigamma := func(x float64) float64 { return mathext.Zeta(2, x) }
	variance := a*a*trigamma(alpha) + b*b*trigamma(beta) - (a+b)*(a+b)*trigamma(alpha+beta)
	if !(variance > 0) {
		// Rounding of the cancelling terms; any positive scale is exact.
		variance = a*a/alpha + b*b/beta
	}
	c := 1 / math.Sqrt(variance)
	f := func(theta float64) float64 {
		sn := math.Sin(theta)
		if sn == 0 {
			return 1 // the limit (1 - |φ|²)/(c tan θ)² → Var(V) c² = 1 near θ = 0, to first order
		}
		u := c * math.Tan(theta)
		logPhi2 := -(gammaRatio(alpha, u*a) + gammaRatio(beta, u*b) - gammaRatio(alpha+beta, u*(a+b)))
		return -math.Expm1(logPhi2) / (sn * sn)
	}
	// E|D| = (2/π)(1/c) ∫_0^{π/2} (1 - |φ|²)/sin²θ dθ, and λ = E|D|/2.
	// The integrand is of order 1 (1 at both ends) and computed to about
	// 1e-11 (the three sums of -log|φ|² cancel): ask for 1e-9.
	integral := gaussexact.Integrate(f, 0, math.Pi/2, 4, 1e-9)
	return integral / (math.Pi * c)
}

// emStart is the least x+n from which gammaRatio sums its terms by the
// Euler–Maclaurin formula: the remainder after the g⁽⁷⁾ term is below
// B_10/10! · 9!/s¹⁰ ≈ 2e-15 relative to the terms at s = 16.
const emStart = 16

// gammaRatio returns h(x, y) = Σ_{n≥0} log(1 + y²/(x+n)²) =
// 2 log|Γ(x)| - 2 log|Γ(x+iy)| for x > 0 (DLMF 5.8.3): the terms below
// x+n = emStart one by one, the rest by the Euler–Maclaurin formula
// (DLMF 2.10.1) with the integral
//
//	∫_s^∞ log(1 + y²/t²) dt = 2y arctan(y/s) - s log(1 + y²/s²)
//
// and the derivatives of g(t) = log(1 + y²/t²) = 2 Re log(t+iy) - 2 log t,
// g⁽ᵏ⁾(t) = 2 (-1)^{k-1} (k-1)! (Re (t+iy)^{-k} - t^{-k}).
func gammaRatio(x, y float64) float64 {
	y = math.Abs(y)
	if y == 0 {
		return 0
	}
	h := 0.0
	s := x
	for ; s < emStart; s++ {
		r := y / s
		h += math.Log1p(r * r)
	}
	r := y / s
	g := math.Log1p(r * r)
	tail := 2*y*math.Atan(r) - s*g
	// Re (s+iy)^{-k} = cos(kθ)/ρ^k with s+iy = ρ e^{iθ}.
	rho, th := math.Hypot(s, y), math.Atan2(y, s)
	deriv := func(k int) float64 {
		fact := 1.0
		for i := 2; i < k; i++ {
			fact *= float64(i)
		}
		sign := 1.0
		if k%2 == 0 {
			sign = -1
		}
		return 2 * sign * fact * (math.Cos(float64(k)*th)/math.Pow(rho, float64(k)) - math.Pow(s, -float64(k)))
	}
	// Σ_{n≥0} g(s+n) = ∫_s^∞ g + g(s)/2 - Σ_k B_{2k}/(2k)! g^{(2k-1)}(s).
	em := g/2 - deriv(1)/12 + deriv(3)/720 - deriv(5)/30240 + deriv(7)/1209600
	return h + tail + em
}

// Barrier returns the global communication barrier Λ = ∫_0^1 λ(t) dt of the
// path, λ from LocalBarrier, integrated segment by segment by adaptive
// Gauss–Legendre quadrature (as gaussexact.GaussianPair.Barrier).
func (p BetaPair) Barrier(path *tune.Spline) float64 {
	return p.knotsBarrier(path.Knots())
}

// knotsBarrier is Barrier for the spline with the given knots: on segment
// k, η(u) = φ_{k-1} + u(φ_k - φ_{k-1}) and ∫ λ(t) dt = ∫_0^1 λ(η(u), φ_k -
// φ_{k-1}) du.
func (p BetaPair) knotsBarrier(knots [][2]float64) float64 {
	total := 0.0
	for k := 1; k < len(knots); k++ {
		a, b := knots[k-1], knots[k]
		d := [2]float64{b[0] - a[0], b[1] - a[1]}
		f := func(u float64) float64 {
			return p.LocalBarrier([2]float64{a[0] + u*d[0], a[1] + u*d[1]}, d)
		}
		// λ is accurate to about 1e-9 relative (LocalBarrier): ask for
		// 1e-8 of a first, coarse estimate of the segment's barrier.
		coarse := gaussexact.Integrate(f, 0, 1, 4, math.Inf(1))
		total += gaussexact.Integrate(f, 0, 1, 4, 1e-8*math.Abs(coarse))
	}
	return total
}

// OptimalKnots returns the K-knot spline with the smallest Λ found by
// gaussexact.OptimalKnotsOf (Nelder–Mead from several starts), and that Λ:
// an upper bound on the family's best.
func (p BetaPair) OptimalKnots(numKnots int) (*tune.Spline, float64) {
	return gaussexact.OptimalKnotsOf(numKnots, p.knotsBarrier)
}
