package batch

import (
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// meanSE returns the mean of x and its standard error across the values
// (sample standard deviation / √len).
func meanSE(x []float64) (mean, se float64) {
	n := float64(len(x))
	for _, v := range x {
		mean += v
	}
	mean /= n
	ss := 0.0
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / (n - 1) / n)
}

// checkLogZ runs cfg with a LogZ and checks its estimates against exact:
// the mean over replicates of the average of the forward and the reverse
// estimates within 4 standard errors (across replicates) of exact, the
// standard error below 0.1, and the forward and the reverse estimates
// agreeing within their error: the difference of their means within 4
// standard errors of it, √(SE_f² + SE_r²). (Their paired difference,
// Differences, has a much smaller standard error but is positive in
// expectation: it is the O(1/M) bias of the two one-sided estimates, which
// the test logs rather than tests.)
func checkLogZ(t *testing.T, name string, cfg Config, exact float64) {
	t.Helper()
	lz := new(LogZ)
	cfg.Statistics = []Statistic{lz}
	mustRun(t, cfg)
	if lz.Scan() != cfg.Scans || len(lz.Estimates()) != cfg.Replicates {
		t.Fatalf("%s: estimates of scan %d for %d replicates, want scan %d and %d", name, lz.Scan(), len(lz.Estimates()), cfg.Scans, cfg.Replicates)
	}
	est, se := meanSE(lz.Estimates())
	fwd, seF := meanSE(lz.Forward())
	rev, seR := meanSE(lz.Reverse())
	diff, seD := meanSE(lz.Differences())
	t.Logf("%s: exact %.5f, estimate %.5f ± %.5f (%.2f SE), forward %.5f ± %.5f, reverse %.5f ± %.5f, reverse - forward %.5f ± %.5f",
		name, exact, est, se, (est-exact)/se, fwd, seF, rev, seR, diff, seD)
	if math.Abs(est-exact) > 4*se {
		t.Errorf("%s: log Z estimate %.5f ± %.5f, exact %.5f: %.1f standard errors off", name, est, se, exact, math.Abs(est-exact)/se)
	}
	if !(se < 0.1) {
		t.Errorf("%s: standard error %.4f, want below 0.1", name, se)
	}
	if math.Abs(fwd-rev) > 4*math.Hypot(seF, seR) {
		t.Errorf("%s: forward %.5f ± %.5f and reverse %.5f ± %.5f disagree", name, fwd, seF, rev, seR)
	}
}

// TestLogZGaussian checks the stepping-stone estimate on the Gaussian pair
// N(-1·1, 0.5² I) → N(1·1, 0.3² I) in d = 4, on the linear path and on a
// tuned 4-knot spline path. Exact value: W_i(x) = -Σ_d (x_d-μ_i)²/(2σ_i²),
// so Z_i = ∫ exp(W_i) = Π_d ∫ exp(-(x_d-μ_i)²/(2σ_i²)) dx_d = (2πσ_i²)^{d/2}
// (a Gaussian integral per coordinate, independent of μ_i), and
//
//	log(Z_1/Z_0) = (d/2)·log(σ_1²/σ_0²) = d·ln(σ_1/σ_0) = 4 ln 0.6 = -2.0433.
//
// Setting: 30 chains, 32 replicates, 6 scans of 1000 iterations with the
// schedule tuned (and the path, for the spline); the estimate is from the
// last scan's 1000 iterations. The standard error across replicates is
// about 0.010 (linear) and 0.008 (spline).
func TestLogZGaussian(t *testing.T) {
	const d, sigma0, sigma1 = 4, 0.5, 0.3
	g, err := models.NewGaussian(d, -1, 1, sigma0, sigma1)
	if err != nil {
		t.Fatal(err)
	}
	exact := d * math.Log(sigma1/sigma0)
	base := Config{Model: g, Chains: 30, Replicates: 32, Iterations: 6000, Scans: 6, TuneSchedule: true, Knots: 1, Seed: 1}
	checkLogZ(t, "linear", base, exact)
	spline := base
	spline.Knots, spline.TunePath, spline.LearningRate = 4, true, 0.2
	checkLogZ(t, "spline K=4", spline, exact)
}

// lnBeta returns ln B(a, b) = ln Γ(a) + ln Γ(b) - ln Γ(a+b).
func lnBeta(a, b float64) float64 {
	x, _ := math.Lgamma(a)
	y, _ := math.Lgamma(b)
	z, _ := math.Lgamma(a + b)
	return x + y - z
}

// TestLogZBetaBinomial checks the estimate on the Beta-binomial, where
// W_0(p) = (A-1) ln p + (B-1) ln(1-p) and W_1 = W_0 + S ln p + F ln(1-p),
// so Z_0 = ∫_0^1 p^(A-1) (1-p)^(B-1) dp = B(A, B), Z_1 = B(A+S, B+F) and
//
//	log(Z_1/Z_0) = ln B(A+S, B+F) - ln B(A, B)
//
// (the log marginal likelihood without the binomial coefficients). Two
// settings, 4 scans of 2000 iterations with the schedule tuned: a small
// data set (prior Beta(2, 3), S = 30, F = 20; 20 chains, 32 replicates,
// log Z = -35.27, SE about 0.002) and the paper's (Beta(180, 840),
// S = 140000, F = 60000; 100 chains, 16 replicates, log Z = -122772.5, SE
// about 0.04), where W itself is about -10⁵ and the log weights ±Δ_n·W
// reach ∓1.9·10⁴ (measured; exp overflows beyond 709): only the log-space
// sums keep them finite.
func TestLogZBetaBinomial(t *testing.T) {
	for _, c := range []struct {
		a, b         float64
		s, f         int64
		chains, reps int
	}{{2, 3, 30, 20, 20, 32}, {180, 840, 140000, 60000, 100, 16}} {
		m, err := models.NewBetaBinomial(c.a, c.b, c.s, c.f)
		if err != nil {
			t.Fatal(err)
		}
		exact := lnBeta(c.a+float64(c.s), c.b+float64(c.f)) - lnBeta(c.a, c.b)
		cfg := Config{Model: m, Chains: c.chains, Replicates: c.reps, Iterations: 8000, Scans: 4, TuneSchedule: true, Knots: 1, Seed: 2}
		checkLogZ(t, "beta-binomial", cfg, exact)
	}
}

// stateRecorder is a test Statistic that records, during one scan, the
// energies and coefficients of every chain of lane 0 after every
// iteration's communication step: iteration i, chain n at
// (i*chains+n)*4 + (w0, w1, eta0, eta1).
type stateRecorder struct {
	scan int
	rows []float64
}

func (s *stateRecorder) NewObserver(BlockInfo) Observer { return s }

func (s *stateRecorder) Iterate(v *View) {
	if v.Scan != s.scan || v.FirstReplicate() != 0 {
		return
	}
	for n := 0; n < v.Chains(); n++ {
		w0, w1 := v.Energies(n, 0)
		e0, e1 := v.Coefficients(n, 0)
		s.rows = append(s.rows, w0, w1, e0, e1)
	}
}

func (s *stateRecorder) EndScan(*View) {}

// TestLogZMatchesDirectComputation checks, on a small run, that the
// estimates are the stepping-stone sums over the last scan's states
// computed directly (each mean shifted by its largest term after the
// fact), and that FromScan = Scans, which accumulates the last scan only,
// gives the same numbers.
func TestLogZMatchesDirectComputation(t *testing.T) {
	g, _ := models.NewGaussian(2, -1, 1, 0.5, 0.3)
	const chains, scans = 6, 3
	rec := &stateRecorder{scan: scans}
	lz, last := new(LogZ), &LogZ{FromScan: scans}
	cfg := Config{Model: g, Chains: chains, Replicates: 1, Iterations: 300, Scans: scans, TuneSchedule: true,
		Knots: 3, TunePath: true, LearningRate: 0.2, Seed: 4, Workers: 1, Statistics: []Statistic{rec, lz, last}}
	mustRun(t, cfg)
	iters := len(rec.rows) / (4 * chains)
	if iters != 100 {
		t.Fatalf("recorded %d iterations, want 100", iters)
	}
	at := func(i, n, k int) float64 { return rec.rows[(i*chains+n)*4+k] }
	logMeanExp := func(f func(i int) float64) float64 {
		m := math.Inf(-1)
		for i := 0; i < iters; i++ {
			m = math.Max(m, f(i))
		}
		s := 0.0
		for i := 0; i < iters; i++ {
			s += math.Exp(f(i) - m)
		}
		return m + math.Log(s/float64(iters))
	}
	fwd, rev := 0.0, 0.0
	for n := 0; n+1 < chains; n++ {
		d0 := at(0, n+1, 2) - at(0, n, 2)
		d1 := at(0, n+1, 3) - at(0, n, 3)
		fwd += logMeanExp(func(i int) float64 { return d0*at(i, n, 0) + d1*at(i, n, 1) })
		rev -= logMeanExp(func(i int) float64 { return -(d0*at(i, n+1, 0) + d1*at(i, n+1, 1)) })
	}
	for _, s := range []*LogZ{lz, last} {
		if f, r := s.Forward()[0], s.Reverse()[0]; math.Abs(f-fwd) > 1e-9 || math.Abs(r-rev) > 1e-9 {
			t.Errorf("FromScan %d: forward %.12f, reverse %.12f; direct %.12f, %.12f", s.FromScan, f, r, fwd, rev)
		}
		if e, d := s.Estimates()[0], s.Differences()[0]; math.Abs(e-(fwd+rev)/2) > 1e-9 || math.Abs(d-(rev-fwd)) > 1e-9 {
			t.Errorf("FromScan %d: estimate %.12f, difference %.12f", s.FromScan, e, d)
		}
	}
}

// TestAddLogWeight checks the streaming log-sum-exp on weights whose
// exponentials overflow or underflow float64, with -∞ and NaN weights.
func TestAddLogWeight(t *testing.T) {
	sum := func(ws ...float64) float64 {
		m, s := math.Inf(-1), 0.0
		for _, w := range ws {
			addLogWeight(&m, &s, w)
		}
		return m + math.Log(s)
	}
	for _, c := range []struct {
		ws   []float64
		want float64
	}{
		{[]float64{1e5, 1e5}, 1e5 + math.Ln2},
		{[]float64{-1e5, 1e5, -1e5}, 1e5},
		{[]float64{1e5 - 1, 1e5, 1e5 + 1}, 1e5 + math.Log(math.Exp(-1)+1+math.E)},
		{[]float64{-2000, -2000 + math.Log(3)}, -2000 + math.Log(4)},
		{[]float64{math.Inf(-1), math.Inf(-1), 0}, 0},
		{[]float64{0, math.Inf(-1)}, 0},
		{[]float64{math.Inf(-1)}, math.Inf(-1)},
	} {
		if got := sum(c.ws...); math.Abs(got-c.want) > 1e-12*math.Max(1, math.Abs(c.want)) && got != c.want {
			t.Errorf("log Σ exp %v = %.15g, want %.15g", c.ws, got, c.want)
		}
	}
	if got := sum(0, math.NaN(), 1); !math.IsNaN(got) {
		t.Errorf("a NaN weight gives %g, want NaN", got)
	}
}
