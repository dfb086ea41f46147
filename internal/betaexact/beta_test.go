package betaexact

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/ptbatch/ptbatch/tune"
	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// paperPair is the paper's Beta-binomial: prior Beta(180, 840), S = 140000
// successes and F = 60000 failures, posterior Beta(140180, 60840).
var paperPair = BetaPair{A: 180, B: 840, S: 140000, F: 60000}

// TestGammaRatio checks h(x, y) = 2 log|Γ(x)| - 2 log|Γ(x+iy)| against the
// partial sums of its series up to n = 10⁶ plus the integral of the rest
// (whose error is below g(10⁶)/2 ≈ y²/(2·10¹²)), and against the closed
// form |Γ(1+iy)|² = πy/sinh(πy) (DLMF 5.4.3).
func TestGammaRatio(t *testing.T) {
	for _, c := range []struct{ x, y float64 }{
		{0.3, 0.5}, {1, 2}, {2.5, 40}, {15.9, 0.01}, {16, 3}, {200, 1000}, {140180, 5e4}, {1e5, 1e-3},
	} {
		sum := 0.0
		const n = 1000000
		for i := 0; i < n; i++ {
			r := c.y / (c.x + float64(i))
			sum += math.Log1p(r * r)
		}
		s := c.x + n
		r := c.y / s
		sum += 2*c.y*math.Atan(r) - s*math.Log1p(r*r)
		got := gammaRatio(c.x, c.y)
		if math.Abs(got-sum) > 1e-9*math.Abs(sum)+c.y*c.y/1e12 {
			t.Errorf("h(%v, %v) = %.15g, series %.15g", c.x, c.y, got, sum)
		}
	}
	for _, y := range []float64{0.1, 1, 3} {
		want := -math.Log(math.Pi * y / math.Sinh(math.Pi*y)) // -log|Γ(1+iy)|², Γ(1) = 1
		if got := gammaRatio(1, y); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("h(1, %v) = %.15g, want %.15g", y, got, want)
		}
	}
}

// TestLocalBarrierClosedForm checks λ where it has a closed form: with
// β = 1 and b = 0 (prior Beta(3, 1), no data), V = a log X and
// -log X ~ Exponential(α), so V(X) - V(X') is a/α times the difference of
// two independent Exponential(1) variables, whose mean absolute value is 1:
// λ = |a|/(2α).
func TestLocalBarrierClosedForm(t *testing.T) {
	p := BetaPair{A: 3, B: 1}
	for _, c := range []struct{ eta, dot [2]float64 }{
		{[2]float64{1, 0}, [2]float64{-1, 1}},
		{[2]float64{0.5, 0.2}, [2]float64{0.3, 0.1}},
		{[2]float64{3, 4}, [2]float64{-2, -1}},
	} {
		alpha, _, _ := p.Annealed(c.eta[0], c.eta[1])
		a := 2 * (c.dot[0] + c.dot[1])
		want := math.Abs(a) / (2 * alpha)
		if got := p.LocalBarrier(c.eta, c.dot); math.Abs(got-want) > 1e-9*want {
			t.Errorf("η %v, η' %v: λ = %.12g, want %.12g", c.eta, c.dot, got, want)
		}
	}
}

// TestLocalBarrierMonteCarlo checks λ = ½ E|V(X) - V(X')| against the mean
// over 200,000 pairs of independent Beta draws (gonum's distuv.Beta), on
// points of the paper's pair from the prior to the posterior and at a wide
// annealed density, within 5 standard errors of the sample mean.
func TestLocalBarrierMonteCarlo(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for _, c := range []struct{ eta, dot [2]float64 }{
		{[2]float64{1, 0}, [2]float64{-1, 1}},         // the linear path at the prior
		{[2]float64{0.5, 0.5}, [2]float64{-1, 1}},     // … halfway
		{[2]float64{0, 1}, [2]float64{-1, 1}},         // … at the posterior
		{[2]float64{1e-3, 1e-5}, [2]float64{-2, 0.5}}, // a wide Beta
		{[2]float64{2e-3, 3e-6}, [2]float64{0, 1e-3}}, // moving the data's weight only
	} {
		alpha, beta, _ := paperPair.Annealed(c.eta[0], c.eta[1])
		a := (c.dot[0]+c.dot[1])*(paperPair.A-1) + c.dot[1]*paperPair.S
		b := (c.dot[0]+c.dot[1])*(paperPair.B-1) + c.dot[1]*paperPair.F
		d := distuv.Beta{Alpha: alpha, Beta: beta, Src: rng}
		v := func() float64 {
			x := d.Rand()
			return a*math.Log(x) + b*math.Log1p(-x)
		}
		const n = 200000
		var s, s2 float64
		for i := 0; i < n; i++ {
			h := 0.5 * math.Abs(v()-v())
			s += h
			s2 += h * h
		}
		mean := s / n
		se := math.Sqrt((s2/n - mean*mean) / n)
		got := paperPair.LocalBarrier(c.eta, c.dot)
		if math.Abs(got-mean) > 5*se {
			t.Errorf("η %v, η' %v (Beta(%.4g, %.4g)): λ = %.6g, Monte Carlo %.6g ± %.2g", c.eta, c.dot, alpha, beta, got, mean, se)
		}
	}
}

// TestLocalBarrierGaussianLimit checks λ against the Gaussian limit where
// V is close to linear in a concentrated X: then V(X) - V(X') is close to
// N(0, 2 Var V), whose mean absolute value is 2 sd(V)/√π, so λ → sd(V)/√π
// with sd(V)² = a² ψ′(α) + b² ψ′(β) - (a+b)² ψ′(α+β). At the posterior
// Beta(140180, 60840) of the paper's pair (sd 0.001) with η' = (1, 0),
// V = 179 log p + 839 log(1-p) has slope -2516 and curvature -9528 at the
// mean, so its quadratic part is 0.2% of its linear part and the two agree
// to 1e-3. (Along η' = (-1, 1) the curvature term is of the linear term's
// size and the limit is 3.5% off.)
func TestLocalBarrierGaussianLimit(t *testing.T) {
	eta, dot := [2]float64{0, 1}, [2]float64{1, 0}
	alpha, beta, _ := paperPair.Annealed(eta[0], eta[1])
	a := (dot[0]+dot[1])*(paperPair.A-1) + dot[1]*paperPair.S
	b := (dot[0]+dot[1])*(paperPair.B-1) + dot[1]*paperPair.F
	tg := func(x float64) float64 { return mathext.Zeta(2, x) }
	sd := math.Sqrt(a*a*tg(alpha) + b*b*tg(beta) - (a+b)*(a+b)*tg(alpha+beta))
	want := sd / math.Sqrt(math.Pi)
	if got := paperPair.LocalBarrier(eta, dot); math.Abs(got-want) > 1e-3*want {
		t.Errorf("λ = %.8g, Gaussian limit %.8g", got, want)
	}
}

// TestBarrierLinearHomogeneous checks Barrier's segment integral: the
// linear path cut into K equal segments (the K-knot spline through the
// linear path's points) has the linear path's Λ.
func TestBarrierLinearHomogeneous(t *testing.T) {
	lin := paperPair.Barrier(tune.NewSpline(1))
	for _, k := range []int{2, 5} {
		if got := paperPair.Barrier(tune.NewSpline(k)); math.Abs(got-lin) > 1e-7*lin {
			t.Errorf("K = %d linear spline: Λ = %.10g, one segment %.10g", k, got, lin)
		}
	}
}

// TestOptimalKnotsReport prints Λ of the linear path, the best Λ of the
// K = 2 and K = 4 spline families for the paper's Beta-binomial and the
// round-trip rate 1/(2 + 2Λ/(1 - Λ/(C-1))) with C = 50 chains at equal
// rejections (tune.EquiRejectionRate), and checks that the optima beat the
// linear path. It takes about a minute, so it runs only when
// PTBATCH_TUNE_REPORT is set.
func TestOptimalKnotsReport(t *testing.T) {
	if os.Getenv("PTBATCH_TUNE_REPORT") == "" {
		t.Skip("set PTBATCH_TUNE_REPORT=1 to run")
	}
	lin := paperPair.Barrier(tune.NewSpline(1))
	t.Logf("linear: Λ = %.4f", lin)
	for _, k := range []int{2, 4} {
		p, l := paperPair.OptimalKnots(k)
		t.Logf("K=%d: Λ* = %.4f, rate(C=50) = %.5f, knots %v", k, l, tune.EquiRejectionRate(l, 50), p.Knots())
		if !(l < lin) {
			t.Errorf("K=%d: Λ* = %v not below the linear path's %v", k, l, lin)
		}
	}
}
