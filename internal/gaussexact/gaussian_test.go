package gaussexact

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/ptbatch/ptbatch/tune"
)

// paperPair is the Gaussian experiment of the paper's appendix
// "Experimental details": N(-1, 0.01²) → N(1, 0.01²), d = 1.
var paperPair = GaussianPair{Dim: 1, Mu0: -1, Mu1: 1, Sigma0: 0.01, Sigma1: 0.01}

// testPair and testPath are a 1-D Gaussian pair with unequal scales and a
// bent K = 3 spline, so that every term of the gradient is exercised (the
// same fixtures as tune's SKL tests).
var testPair = GaussianPair{Dim: 1, Mu0: -1, Mu1: 1, Sigma0: 0.5, Sigma1: 0.3}

func testPath(t testing.TB) *tune.Spline {
	s := tune.NewSpline(3)
	if err := s.SetKnots([][2]float64{{1, 0}, {0.5, 0.15}, {0.2, 0.6}, {0, 1}}); err != nil {
		t.Fatal(err)
	}
	return s
}

// testSched is a non-uniform schedule with a point on a knot (t = 2/3).
var testSched = []float64{0, 0.1, 0.3, 0.5, 2.0 / 3, 0.85, 1}

func mustSetKnots(t *testing.T, s *tune.Spline, knots [][2]float64) {
	t.Helper()
	if err := s.SetKnots(knots); err != nil {
		t.Fatal(err)
	}
}

// TestMomentsDerivative checks the exponential-family identity
// ∂E_η[W]/∂η = Cov_η(W) on the closed forms of Moments by central finite
// differences (step 1e-6, truncation error ~1e-12 relative).
func TestMomentsDerivative(t *testing.T) {
	for _, g := range []GaussianPair{testPair, {Dim: 3, Mu0: 0.5, Mu1: -2, Sigma0: 2, Sigma1: 0.7}} {
		for _, eta := range [][2]float64{{1, 0}, {0, 1}, {0.3, 0.4}, {0.05, 0.9}, {2, 0.01}} {
			_, cov := g.Moments(eta[0], eta[1])
			for j := 0; j < 2; j++ {
				h := 1e-6
				ep, em := eta, eta
				ep[j] += h
				em[j] -= h
				mp, _ := g.Moments(ep[0], ep[1])
				mm, _ := g.Moments(em[0], em[1])
				for i := 0; i < 2; i++ {
					fd := (mp[i] - mm[i]) / (2 * h)
					if math.Abs(fd-cov[i][j]) > 1e-6*(math.Abs(cov[i][j])+1) {
						t.Errorf("%+v η=%v: ∂E[W_%d]/∂η_%d = %v, Cov = %v", g, eta, i, j, fd, cov[i][j])
					}
				}
			}
		}
	}
}

// TestMomentsMonteCarlo checks Moments against sample moments of 2e5 exact
// draws (d = 3), within 5 standard errors; the standard error of a sample
// covariance is estimated from the fourth moments of the same draws.
func TestMomentsMonteCarlo(t *testing.T) {
	g := GaussianPair{Dim: 3, Mu0: 0.5, Mu1: -2, Sigma0: 2, Sigma1: 0.7}
	eta := [2]float64{0.4, 0.3}
	mean, cov := g.Moments(eta[0], eta[1])
	m, s, _ := g.Annealed(eta[0], eta[1])
	const n = 200000
	rng := rand.New(rand.NewPCG(11, 12))
	w := make([][2]float64, n)
	var sm [2]float64
	for k := range w {
		for d := 0; d < g.Dim; d++ {
			x := m + s*rng.NormFloat64()
			w[k][0] -= (x - g.Mu0) * (x - g.Mu0) / (2 * g.Sigma0 * g.Sigma0)
			w[k][1] -= (x - g.Mu1) * (x - g.Mu1) / (2 * g.Sigma1 * g.Sigma1)
		}
		sm[0] += w[k][0] / n
		sm[1] += w[k][1] / n
	}
	for i := 0; i < 2; i++ {
		se := math.Sqrt(cov[i][i] / n)
		if math.Abs(sm[i]-mean[i]) > 5*se {
			t.Errorf("E[W_%d]: sample %v, exact %v, se %v", i, sm[i], mean[i], se)
		}
		for j := 0; j < 2; j++ {
			var c, c2 float64
			for k := range w {
				p := (w[k][i] - sm[i]) * (w[k][j] - sm[j])
				c += p
				c2 += p * p
			}
			c /= n
			se := math.Sqrt((c2/n - c*c) / n)
			if math.Abs(c-cov[i][j]) > 5*se {
				t.Errorf("Cov(W_%d, W_%d): sample %v, exact %v, se %v", i, j, c, cov[i][j], se)
			}
		}
	}
}

// TestExactSKLGradientFiniteDiff checks ExactSKLGradient against central
// finite differences of ExactSKL, for the test path and a K = 4 path on the
// paper's pair with an equi-barrier schedule (relative tolerance 1e-6; the
// finite differences are accurate to ~1e-9 relative here).
func TestExactSKLGradientFiniteDiff(t *testing.T) {
	p4 := tune.NewSpline(4)
	mustSetKnots(t, p4, [][2]float64{{1, 0}, {0.01, 0.002}, {1e-4, 2e-4}, {0.003, 0.2}, {0, 1}})
	cases := []struct {
		g     GaussianPair
		path  *tune.Spline
		sched []float64
	}{
		{testPair, testPath(t), testSched},
		{GaussianPair{Dim: 5, Mu0: 1, Mu1: 0, Sigma0: 1, Sigma1: 0.2}, testPath(t), tune.UniformSchedule(9)},
		{paperPair, p4, paperPair.EquiBarrierSchedule(p4, 50)},
	}
	for ci, c := range cases {
		fd := c.g.ExactSKLFiniteDiff(c.path, c.sched)
		got := make([]float64, len(fd))
		c.g.ExactSKLGradient(c.path, c.sched, got)
		for i := range fd {
			if math.Abs(got[i]-fd[i]) > 1e-6*math.Abs(fd[i])+1e-9 {
				t.Errorf("case %d component %d: analytic %v, finite differences %v", ci, i, got[i], fd[i])
			}
		}
	}
}

// TestExactSKLIsSymmetricKL checks ExactSKL, which is tune.SKLEstimate on
// the exact means, against an independent closed form: the annealed
// densities are N(m·1, s² I_d), and
//
//	KL(p_a‖p_b) + KL(p_b‖p_a)
//	  = d/2 (s_a²/s_b² + s_b²/s_a² + (m_a - m_b)²(1/s_a² + 1/s_b²) - 2),
//
// which for an exponential family equals (η_b - η_a)·(E_b[W] - E_a[W]), the
// term of eq:bound. Relative tolerance 1e-9 (both sides are closed forms;
// the differences seen are below 4e-16 relative).
func TestExactSKLIsSymmetricKL(t *testing.T) {
	p4 := tune.NewSpline(4)
	mustSetKnots(t, p4, [][2]float64{{1, 0}, {0.01, 0.002}, {1e-4, 2e-4}, {0.003, 0.2}, {0, 1}})
	cases := []struct {
		g     GaussianPair
		path  *tune.Spline
		sched []float64
	}{
		{testPair, testPath(t), testSched},
		{GaussianPair{Dim: 5, Mu0: 1, Mu1: 0, Sigma0: 1, Sigma1: 0.2}, testPath(t), tune.UniformSchedule(9)},
		{paperPair, p4, paperPair.EquiBarrierSchedule(p4, 50)},
	}
	for ci, c := range cases {
		want := 0.0
		for n := 0; n+1 < len(c.sched); n++ {
			ma, sa, _ := c.g.Annealed(c.path.Eta(c.sched[n]))
			mb, sb, _ := c.g.Annealed(c.path.Eta(c.sched[n+1]))
			va, vb, dm := sa*sa, sb*sb, ma-mb
			want += float64(c.g.Dim) / 2 * (va/vb + vb/va + dm*dm*(1/va+1/vb) - 2)
		}
		got := c.g.ExactSKL(c.path, c.sched)
		t.Logf("case %d: ExactSKL %v, Σ symmetric KL %v, relative difference %.2g", ci, got, want, math.Abs(got-want)/want)
		if math.Abs(got-want) > 1e-9*want {
			t.Errorf("case %d: ExactSKL %v, Σ symmetric KL %v", ci, got, want)
		}
	}
}

// TestBarrierLinear checks Barrier on the linear path with σ0 = σ1 = σ:
// V = η'·W = (μ1 - μ0) Σ_j x_j/σ² + const is linear, V(X) - V(X') ~
// N(0, 2d (μ1-μ0)²/σ²), so λ = ½ E|V(X) - V(X')| = √d z/√π with
// z = |μ1 - μ0|/σ, constant in t (Syed et al. 2019, Gaussian example).
// μ0 = -1, μ1 = 1, σ = 0.1: z = 20, Λ = 20/√π = 11.2838.
func TestBarrierLinear(t *testing.T) {
	for _, c := range []struct {
		g    GaussianPair
		want float64
	}{
		{GaussianPair{Dim: 1, Mu0: -1, Mu1: 1, Sigma0: 0.1, Sigma1: 0.1}, 20 / math.Sqrt(math.Pi)},
		{GaussianPair{Dim: 4, Mu0: -1, Mu1: 1, Sigma0: 0.1, Sigma1: 0.1}, 2 * 20 / math.Sqrt(math.Pi)},
		{paperPair, 200 / math.Sqrt(math.Pi)},
	} {
		for _, numKnots := range []int{1, 3} { // K = 3 linear: same path
			got := c.g.Barrier(tune.NewSpline(numKnots))
			if math.Abs(got-c.want) > 1e-9*c.want {
				t.Errorf("%+v K=%d: Λ = %v, want %v", c.g, numKnots, got, c.want)
			}
		}
	}
	if got := (GaussianPair{Dim: 1, Mu0: -1, Mu1: 1, Sigma0: 0.1, Sigma1: 0.1}).Barrier(tune.NewSpline(1)); math.Abs(got-11.2838) > 1e-3*11.2838 {
		t.Errorf("Λ = %v, want 11.28", got)
	}
}

// TestMeanSqrtNoncentral checks the quadrature for E√(Σ_j Y_j²) used for
// Dim > 1: for d = 1 it must equal the folded-normal mean E|Y|; with
// sd = 0 it is √d |mu|; for d = 3 it is compared with 1e6 Monte Carlo
// draws (5 standard errors).
func TestMeanSqrtNoncentral(t *testing.T) {
	for _, c := range [][2]float64{{0, 1}, {1, 1}, {3, 0.1}, {0.01, 5}, {-2, 0.7}, {1e-3, 1e3}} {
		got := meanSqrtNoncentral(1, c[0], c[1])
		want := meanAbsNormal(c[0], c[1])
		if math.Abs(got-want) > 1e-9*want {
			t.Errorf("d=1 mu=%v sd=%v: %v, want %v", c[0], c[1], got, want)
		}
	}
	if got, want := meanSqrtNoncentral(7, 2, 0), math.Sqrt(7)*2; math.Abs(got-want) > 1e-9*want {
		t.Errorf("sd=0: %v, want %v", got, want)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	const n = 1000000
	mu, sd := 0.8, 1.3
	sum, sum2 := 0.0, 0.0
	for k := 0; k < n; k++ {
		s := 0.0
		for j := 0; j < 3; j++ {
			y := mu + sd*rng.NormFloat64()
			s += y * y
		}
		v := math.Sqrt(s)
		sum += v
		sum2 += v * v
	}
	mean := sum / n
	se := math.Sqrt((sum2/n - mean*mean) / n)
	if got := meanSqrtNoncentral(3, mu, sd); math.Abs(got-mean) > 5*se {
		t.Errorf("d=3: quadrature %v, Monte Carlo %v ± %v", got, mean, se)
	}
}

// TestRejectionEqualSigma checks Rejection on the linear path with
// σ0 = σ1 = σ against the closed form: between t and t + δ,
// lr = V(X') - V(X) ~ N(-κ², 2κ²) with κ = δ z, z = |μ1 - μ0|/σ, and for
// lr ~ N(-s²/2, s²), E[min(1, e^{lr})] = 2Φ(-s/2), so
// r = 1 - 2Φ(-κ/√2) = erf(κ/2) = erf(δz/2).
func TestRejectionEqualSigma(t *testing.T) {
	g := GaussianPair{Dim: 1, Mu0: -1, Mu1: 1, Sigma0: 0.1, Sigma1: 0.1}
	for _, c := range [][2]float64{{0, 0.1}, {0.3, 0.31}, {0.5, 0.5001}, {0.2, 0.9}, {0.95, 1}} {
		a := [2]float64{1 - c[0], c[0]}
		b := [2]float64{1 - c[1], c[1]}
		got, err := g.Rejection(a, b)
		if err != nil {
			t.Fatal(err)
		}
		want := math.Erf((c[1] - c[0]) * 20 / 2)
		if math.Abs(got-want) > 1e-6*want {
			t.Errorf("t=%v: r = %v, want erf(δz/2) = %v", c, got, want)
		}
	}
	if r, err := g.Rejection([2]float64{0.5, 0.5}, [2]float64{0.5, 0.5}); r != 0 || err != nil {
		t.Errorf("same point: %v %v", r, err)
	}
	if _, err := (GaussianPair{Dim: 2, Mu0: -1, Mu1: 1, Sigma0: 1, Sigma1: 1}).Rejection([2]float64{1, 0}, [2]float64{0, 1}); err != ErrDim {
		t.Errorf("Dim=2: err = %v, want ErrDim", err)
	}
}

// TestRejectionMonteCarlo checks Rejection where V = Δ·W is a genuine
// quadratic (unequal scales, bent η) against 1e6 Monte Carlo swaps: the
// average of 1 - min(1, e^{lr}) must lie within 4.5 standard errors. It
// also checks the symmetry r(a, b) = r(b, a), which exercises both choices
// of the outer variable.
func TestRejectionMonteCarlo(t *testing.T) {
	cases := []struct {
		g    GaussianPair
		a, b [2]float64
	}{
		{testPair, [2]float64{0.6, 0.2}, [2]float64{0.3, 0.5}},
		{testPair, [2]float64{1, 0}, [2]float64{0.02, 0.03}},
		{paperPair, [2]float64{1e-4, 1.2e-4}, [2]float64{0.9e-4, 1.6e-4}},
		{GaussianPair{Dim: 1, Mu0: 0, Mu1: 3, Sigma0: 1, Sigma1: 0.05}, [2]float64{0.7, 0.01}, [2]float64{0.5, 0.03}},
	}
	rng := rand.New(rand.NewPCG(13, 14))
	for ci, c := range cases {
		got, err := c.g.Rejection(c.a, c.b)
		if err != nil {
			t.Fatal(err)
		}
		back, _ := c.g.Rejection(c.b, c.a)
		if math.Abs(got-back) > 1e-10 {
			t.Errorf("case %d: r(a,b) = %v, r(b,a) = %v", ci, got, back)
		}
		ma, sa, _ := c.g.Annealed(c.a[0], c.a[1])
		mb, sb, _ := c.g.Annealed(c.b[0], c.b[1])
		w := func(x float64) (float64, float64) {
			return -(x - c.g.Mu0) * (x - c.g.Mu0) / (2 * c.g.Sigma0 * c.g.Sigma0),
				-(x - c.g.Mu1) * (x - c.g.Mu1) / (2 * c.g.Sigma1 * c.g.Sigma1)
		}
		const n = 1000000
		sum, sum2 := 0.0, 0.0
		for k := 0; k < n; k++ {
			x := ma + sa*rng.NormFloat64()
			xp := mb + sb*rng.NormFloat64()
			w0, w1 := w(x)
			v0, v1 := w(xp)
			lr := (c.a[0]-c.b[0])*(v0-w0) + (c.a[1]-c.b[1])*(v1-w1)
			r := 1 - math.Min(1, math.Exp(lr))
			sum += r
			sum2 += r * r
		}
		mean := sum / n
		se := math.Sqrt((sum2/n - mean*mean) / n)
		t.Logf("case %d: r = %.6f, Monte Carlo %.6f ± %.2g", ci, got, mean, se)
		if math.Abs(got-mean) > 4.5*se {
			t.Errorf("case %d: r = %v, Monte Carlo %v ± %v", ci, got, mean, se)
		}
	}
}

// lambdaT is λ(t) computed from Eta and the spline's slope, independently
// of the segment parametrisation of Barrier.
func lambdaT(g GaussianPair, path *tune.Spline, t float64) float64 {
	k, _ := path.Segment(t)
	kn := path.Knots()
	numKnots := float64(path.K())
	e0, e1 := path.Eta(t)
	d := [2]float64{numKnots * (kn[k][0] - kn[k-1][0]), numKnots * (kn[k][1] - kn[k-1][1])}
	return g.LocalBarrier([2]float64{e0, e1}, d)
}

// TestRejectionSumsToBarrier checks Rejection against LocalBarrier: on a
// fine schedule Σ_n r(t_n, t_{n+1}) → Λ (Theorem thm:general_GCB, with an
// error O(δ²) per unit length), here 2000 equal steps on a bent path,
// tolerance 1e-4 relative. It also checks that EquiBarrierSchedule makes
// ∫_{t_n}^{t_{n+1}} λ equal to Λ/(C-1), integrating λ(t) directly in t.
func TestRejectionSumsToBarrier(t *testing.T) {
	path := testPath(t)
	g := testPair
	barrier := g.Barrier(path)
	sched := tune.UniformSchedule(2001)
	rej, err := g.ScheduleRejections(path, sched)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, r := range rej {
		sum += r
	}
	t.Logf("Λ = %v, Σ r on 2000 steps = %v", barrier, sum)
	if math.Abs(sum-barrier) > 1e-4*barrier {
		t.Errorf("Σ r = %v, Λ = %v", sum, barrier)
	}

	const numChains = 12
	eq := g.EquiBarrierSchedule(path, numChains)
	if eq[0] != 0 || eq[numChains-1] != 1 {
		t.Fatalf("schedule endpoints %v", eq)
	}
	for n := 0; n+1 < numChains; n++ {
		part := 0.0
		// Split at the knots, where λ jumps.
		cuts := []float64{eq[n]}
		for k := 1; k < path.K(); k++ {
			if x := float64(k) / float64(path.K()); x > eq[n] && x < eq[n+1] {
				cuts = append(cuts, x)
			}
		}
		cuts = append(cuts, eq[n+1])
		for i := 0; i+1 < len(cuts); i++ {
			part += adaptiveIntegrate(func(x float64) float64 { return lambdaT(g, path, x) }, cuts[i], cuts[i+1], 4, 1e-12)
		}
		if want := barrier / (numChains - 1); math.Abs(part-want) > 1e-8*want {
			t.Errorf("interval %d [%v, %v]: ∫λ = %v, want %v", n, eq[n], eq[n+1], part, want)
		}
	}
}

// TestGradientVarianceReport prints the per-component variance of one
// gradient estimate (block and full forms) in the paper's setting: C = 50
// chains, M = 300 exact draws per chain, K = 4, on the linear path with a
// uniform schedule (the start of Algorithm 2) and on the Λ-optimal path
// with its equi-barrier schedule (the end). Both forms are unbiased
// (tune's TestGradientUnbiased), so the means must agree within 5 standard errors.
// It runs only when PTBATCH_TUNE_REPORT is set.
func TestGradientVarianceReport(t *testing.T) {
	if os.Getenv("PTBATCH_TUNE_REPORT") == "" {
		t.Skip("set PTBATCH_TUNE_REPORT=1 to run")
	}
	const reps, iters, numChains = 200, 300, 50
	g := paperPair
	opt, _ := g.OptimalKnots(4)
	for _, c := range []struct {
		name  string
		path  *tune.Spline
		sched []float64
	}{
		{"linear/uniform", tune.NewSpline(4), tune.UniformSchedule(numChains)},
		{"optimal/equi-barrier", opt, g.EquiBarrierSchedule(opt, numChains)},
	} {
		exact := make([]float64, 6)
		g.ExactSKLGradient(c.path, c.sched, exact)
		energies := make([]float64, iters*2*numChains)
		rng := rand.New(rand.NewPCG(42, 43))
		var ws tune.SKLWorkspace
		var sum, sum2 [2][6]float64
		grad := make([]float64, 6)
		for rep := 0; rep < reps; rep++ {
			g.SampleEnergies(rng, c.path, c.sched, iters, energies)
			for form := 0; form < 2; form++ {
				ws.Gradient(grad, energies, iters, c.sched, c.path, form == 1)
				for i, v := range grad {
					sum[form][i] += v
					sum2[form][i] += v * v
				}
			}
		}
		for i := 0; i < 6; i++ {
			var mean, variance [2]float64
			for form := 0; form < 2; form++ {
				mean[form] = sum[form][i] / reps
				variance[form] = (sum2[form][i] - reps*mean[form]*mean[form]) / (reps - 1)
				if se := math.Sqrt(variance[form] / reps); math.Abs(mean[form]-exact[i]) > 5*se {
					t.Errorf("%s form %d component %d: mean %v exact %v se %v", c.name, form, i, mean[form], exact[i], se)
				}
			}
			t.Logf("%s component %d: exact %.5g  block mean %.5g var %.4g  full mean %.5g var %.4g  ratio %.2f",
				c.name, i, exact[i], mean[0], variance[0], mean[1], variance[1], variance[1]/variance[0])
		}
	}
}

// TestStepExactGradientDescends runs Algorithm 2's path step with the exact
// SKL gradient on the paper's pair (K = 4, C = 50, fixed uniform schedule,
// lr = 0.2, 150 steps as in the appendix): ExactSKL must decrease at every
// step and Λ must fall well below the linear path's 112.8. (With
// |g̃| < 1, Adagrad moves each log-knot by at most lr Σ_{s≤150} 1/√s ≈ 4.6,
// so the knots cannot reach the Λ-optimal ~6e-5 in 150 steps; Λ ends near
// 17.5.)
func TestStepExactGradientDescends(t *testing.T) {
	g := paperPair
	p := tune.NewSpline(4)
	sched := tune.UniformSchedule(50)
	grad := make([]float64, 6)
	prev := g.ExactSKL(p, sched)
	for s := 1; s <= 150; s++ {
		g.ExactSKLGradient(p, sched, grad)
		p.Step(grad, 0.2)
		cur := g.ExactSKL(p, sched)
		if !(cur < prev) {
			t.Fatalf("step %d: SKL %v after %v", s, cur, prev)
		}
		prev = cur
	}
	barrier := g.Barrier(p)
	t.Logf("after 150 exact steps: SKL %v, Λ %v, knots %v", prev, barrier, p.Knots())
	if !(barrier < 20) {
		t.Errorf("Λ = %v after 150 exact steps, want < 20", barrier)
	}
}

func TestGaussianPairValidate(t *testing.T) {
	if err := paperPair.Validate(); err != nil {
		t.Errorf("paper pair: %v", err)
	}
	for _, g := range []GaussianPair{
		{Dim: 0, Mu0: -1, Mu1: 1, Sigma0: 1, Sigma1: 1},
		{Dim: 1, Mu0: math.NaN(), Mu1: 1, Sigma0: 1, Sigma1: 1},
		{Dim: 1, Mu0: -1, Mu1: math.Inf(1), Sigma0: 1, Sigma1: 1},
		{Dim: 1, Mu0: -1, Mu1: 1, Sigma0: 0, Sigma1: 1},
		{Dim: 1, Mu0: -1, Mu1: 1, Sigma0: 1, Sigma1: math.Inf(1)},
	} {
		if g.Validate() == nil {
			t.Errorf("%+v accepted", g)
		}
	}
	if _, _, ok := paperPair.Annealed(-1, 0.5); ok {
		t.Error("negative precision accepted")
	}
}
