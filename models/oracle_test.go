package models_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// TestGaussianExactLogZByQuadrature checks Gaussian.ExactLogZ against
// Simpson's rule: in d = 1 the integrals ∫exp(W_i) over μ_i ± 12σ_i (the
// tails beyond hold e^{−72} of the mass) on 2000 intervals, and in d = 3
// the product of three such integrals (the integrand factorises). The
// quadrature's relative error is below 1e-10 here, the tolerance.
func TestGaussianExactLogZByQuadrature(t *testing.T) {
	for _, p := range []struct{ mu0, mu1, s0, s1 float64 }{{-1, 1, 0.5, 2}, {3, 0, 1.7, 0.03}} {
		g, err := models.NewGaussian(1, p.mu0, p.mu1, p.s0, p.s1)
		if err != nil {
			t.Fatal(err)
		}
		z := func(mu, s float64) float64 {
			return models.SimpsonRule(func(x float64) float64 { return math.Exp(-(x - mu) * (x - mu) / (2 * s * s)) }, mu-12*s, mu+12*s, 2000)
		}
		want := math.Log(z(p.mu1, p.s1) / z(p.mu0, p.s0))
		if got := g.ExactLogZ(); math.Abs(got-want) > 1e-10 {
			t.Errorf("%+v: ExactLogZ = %.15g, quadrature %.15g", p, got, want)
		}
		g3, _ := models.NewGaussian(3, p.mu0, p.mu1, p.s0, p.s1)
		if got := g3.ExactLogZ(); math.Abs(got-3*want) > 3e-10 {
			t.Errorf("%+v, d = 3: ExactLogZ = %.15g, quadrature %.15g", p, got, 3*want)
		}
	}
}

// TestBetaBinomialExactLogZByQuadrature checks BetaBinomial.ExactLogZ
// against Simpson's rule on p ∈ [0, 1] with 20000 intervals, for shapes
// ≥ 2 and small totals (the integrands vanish at both ends and are smooth,
// so the rule's relative error is far below the 1e-9 tolerance).
func TestBetaBinomialExactLogZByQuadrature(t *testing.T) {
	for _, p := range []struct {
		a, b float64
		s, f int64
	}{{2, 3, 7, 4}, {5.5, 2, 0, 12}, {3, 3, 30, 10}} {
		m, err := models.NewBetaBinomial(p.a, p.b, p.s, p.f)
		if err != nil {
			t.Fatal(err)
		}
		w0 := func(x float64) float64 { return math.Pow(x, p.a-1) * math.Pow(1-x, p.b-1) }
		w1 := func(x float64) float64 { return w0(x) * math.Pow(x, float64(p.s)) * math.Pow(1-x, float64(p.f)) }
		want := math.Log(models.SimpsonRule(w1, 0, 1, 20000) / models.SimpsonRule(w0, 0, 1, 20000))
		if got := m.ExactLogZ(); math.Abs(got-want) > 1e-9 {
			t.Errorf("%+v: ExactLogZ = %.15g, quadrature %.15g", p, got, want)
		}
	}
}

// TestToyMVNBarrierByMonteCarlo checks ToyMVN.ExactBarrier against its
// definition, Λ = ∫_0^1 ½E_t|V(X) − V(X′)| dt, estimated without the
// closed form: t uniform on (0, 1), X and X′ independent exact draws of
// N(0, I/p(t)), and the mean of ½|V(X) − V(X′)| over 200000 such triples
// (an unbiased estimate of Λ), whose standard error (about 0.3% of Λ) the
// test computes; the closed form must lie within 4 of them. Seeds fixed.
func TestToyMVNBarrierByMonteCarlo(t *testing.T) {
	for _, p := range []struct {
		dim  int
		prec float64
	}{{1, 10}, {3, 10}, {20, 0.01}} {
		m, err := models.NewToyMVN(p.dim, p.prec)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(7, uint64(p.dim))) // math/rand/v2: independent of the code under test
		const n = 200000
		var s, s2 float64
		for i := 0; i < n; i++ {
			tt := rng.Float64()
			prec := 1 + tt*(p.prec-1)
			var q, q2 float64
			for d := 0; d < p.dim; d++ {
				a, b := rng.NormFloat64(), rng.NormFloat64()
				q += a * a / prec
				q2 += b * b / prec
			}
			l := 0.5 * math.Abs(0.5*(p.prec-1)*(q-q2))
			s += l
			s2 += l * l
		}
		mean := s / n
		se := math.Sqrt((s2/n - mean*mean) / n)
		if got := m.ExactBarrier(); math.Abs(got-mean) > 4*se || se > 0.01*got {
			t.Errorf("%+v: ExactBarrier = %.5g, Monte Carlo %.5g ± %.2g", p, got, mean, se)
		}
	}
}

// TestCornerMixOraclesByQuadrature checks CornerMix.ExactLogZ against
// Simpson's rule on each coordinate's integrals (the densities factorise,
// so log(Z1/Z0) is Dim times the 1-D log ratio), over ±(μ + 12·max(sd,
// s0)) on 4000 intervals (relative error far below the 1e-9 tolerance),
// and OrthantMass against the 1-D mass of the positive half-line by the
// same rule, raised to the power Dim.
func TestCornerMixOraclesByQuadrature(t *testing.T) {
	for _, p := range []struct {
		dim    int
		mu, sd float64
	}{{1, 2, 0.5}, {3, 1, 1}, {5, 0, 0.2}} {
		c, err := models.NewCornerMix(p.dim, p.mu, p.sd, models.RandomWalk{})
		if err != nil {
			t.Fatal(err)
		}
		s0 := math.Hypot(p.mu, p.sd)
		w1 := func(x float64) float64 {
			return math.Exp(-(x-p.mu)*(x-p.mu)/(2*p.sd*p.sd)) + math.Exp(-(x+p.mu)*(x+p.mu)/(2*p.sd*p.sd))
		}
		w0 := func(x float64) float64 { return math.Exp(-x * x / (2 * s0 * s0)) }
		r := p.mu + 12*math.Max(p.sd, s0)
		z1 := models.SimpsonRule(w1, -r, r, 4000)
		want := float64(p.dim) * math.Log(z1/models.SimpsonRule(w0, -r, r, 4000))
		if got := c.ExactLogZ(); math.Abs(got-want) > 1e-9 {
			t.Errorf("%+v: ExactLogZ = %.15g, quadrature %.15g", p, got, want)
		}
		half := models.SimpsonRule(w1, 0, r, 4000) / z1
		corner := make([]float64, p.dim)
		corner[0] = -1
		if got, want := c.OrthantMass(corner), math.Pow(half, float64(p.dim)); math.Abs(got-want) > 1e-9*want {
			t.Errorf("%+v: OrthantMass = %.15g, quadrature %.15g", p, got, want)
		}
	}
}

// TestFunnelExactLogZByQuadrature checks the funnel's ExactLogZ in D = 2
// against a two-dimensional Simpson rule on Z1 = ∫∫ exp(W1) dx dv (W1
// written out from NewFunnel's definition) over v ∈ ±12·scale and, at
// each v, x ∈ ±12e^{v/2} (12 standard deviations of x | v), 800 intervals
// each way; Z0 = 2π. Tolerance 1e-7 on log Z, the rule's accuracy here.
func TestFunnelExactLogZByQuadrature(t *testing.T) {
	for _, scale := range []float64{0.5, 1.5} {
		m, err := models.NewFunnel(2, scale, models.RandomWalk{})
		if err != nil {
			t.Fatal(err)
		}
		w1 := func(v, x float64) float64 {
			return math.Exp(-v*v/(2*scale*scale) - x*x*math.Exp(-v)/2 - v/2)
		}
		z1 := models.SimpsonRule(func(v float64) float64 {
			h := 12 * math.Exp(v/2)
			return models.SimpsonRule(func(x float64) float64 { return w1(v, x) }, -h, h, 800)
		}, -12*scale, 12*scale, 800)
		want := math.Log(z1 / (2 * math.Pi))
		if got := m.(models.ExactLogZ).ExactLogZ(); math.Abs(got-want) > 1e-7 {
			t.Errorf("scale %g: ExactLogZ = %.12g, quadrature %.12g", scale, got, want)
		}
	}
}
