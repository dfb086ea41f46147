package registry_test

import (
	"context"
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
)

// engineRun is what an oracle test reads from one run: log Z ± se over
// replicates from the kept scans, and the result.
type engineRun struct {
	logZ, logZSE float64
	res          *batch.Result
}

// runEngine runs the registered model name with values under ptbatch
// run's defaults (batch.DefaultConfig) but for chains, replicates,
// iterations and, with linear, the linear path with the schedule alone
// tuned; samples, if not nil, receives the kept target-chain states.
func runEngine(t *testing.T, name string, v registry.Values, chains, replicates, iterations int, linear bool, samples *batch.Samples) engineRun {
	t.Helper()
	m, err := registry.New(name, v, 1)
	if err != nil {
		t.Fatal(err)
	}
	cfg := batch.DefaultConfig(m, iterations)
	cfg.Chains, cfg.Replicates = chains, replicates
	if linear {
		cfg.Knots, cfg.TunePath = 1, false
	}
	lz := &batch.LogZ{FromScan: cfg.Scans - cfg.KeepScansInEffect() + 1}
	cfg.Statistics = []batch.Statistic{lz}
	if samples != nil {
		cfg.Statistics = append(cfg.Statistics, samples)
	}
	res, err := batch.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	mean, se := lz.Estimate()
	return engineRun{mean, se, res}
}

// checkWithin fails t unless |got − want| ≤ 4·se and se ≤ maxSE.
func checkWithin(t *testing.T, what string, got, se, want, maxSE float64) {
	t.Helper()
	if !(math.Abs(got-want) <= 4*se) || !(se <= maxSE) {
		t.Errorf("%s = %.5g ± %.2g, exact %.5g (want within 4 se, se ≤ %g)", what, got, se, want, maxSE)
	} else {
		t.Logf("%s = %.5g ± %.2g, exact %.5g", what, got, se, want)
	}
}

// TestToyMVNOracles runs toymvn in d = 4 with precision 100 (its own
// parameters, not the defaults: log Z = −2 ln 100 = −9.21, Λ = 3.45) on
// the linear path with 40 chains, 32 replicates, 40000 iterations. log Z
// must be within 4 se of ExactLogZ with se ≤ 0.02: then a log Z off by
// 0.08 fails, far less than ½ ln 100 = 2.3, what a dimension off by one
// would change. The barrier, Σ_n r_n of the last scan (mean ± se over
// replicates), must be within 4 se of ExactBarrier plus the
// discretisation allowance 0.01 (r_n = Λ(t_n, t_{n+1}) + O(Δt³), Syed et
// al. 2021 Thm 2, so the sum errs by O(Δt²) ≈ 1/40² times a constant of
// order Λ), with se ≤ 0.025: then a barrier off by 3.5% fails, while the
// closed form at d = 5 instead of 4 is 12% higher.
func TestToyMVNOracles(t *testing.T) {
	v := registry.Values{"dim": 4, "precision": 100}
	r := runEngine(t, registry.ToyMVN, v, 40, 32, 40000, true, nil)
	m, _ := registry.New(registry.ToyMVN, v, 1)
	checkWithin(t, "toymvn log Z", r.logZ, r.logZSE, m.(models.ExactLogZ).ExactLogZ(), 0.02)
	sums := make([]float64, len(r.res.Rejections))
	for b, rej := range r.res.Rejections {
		for _, x := range rej {
			sums[b] += x
		}
	}
	mean, se := batch.MeanSE(sums)
	exact := m.(models.ExactBarrier).ExactBarrier()
	if !(math.Abs(mean-exact) <= 4*se+0.01) || !(se <= 0.025) {
		t.Errorf("toymvn Λ = %.5g ± %.2g, exact %.5g", mean, se, exact)
	} else {
		t.Logf("toymvn Λ = %.5g ± %.2g, exact %.5g", mean, se, exact)
	}
}

// TestUnidLogZ runs unid with n = 1000, y = 300 (its own parameters; log Z
// = −6.72, LogZPath(1)) with the random walk (the cheapest explorer: the
// slice sampler takes ten times longer), ptbatch run's automatic tuning
// and spline path, 16 chains, 16 replicates. log Z must be within 4 se of
// ExactLogZ with se ≤ 0.03: then an estimate off by 0.12 fails, while
// leaving out the −ln s density of the product (a uniform prior on s
// instead of on p1, p2) would move log Z by ln(ψ(n+2) − ψ(y+1)) = 0.18.
func TestUnidLogZ(t *testing.T) {
	v := registry.Values{"n": 1000, "y": 300, "explorer": 0}
	r := runEngine(t, registry.Unid, v, 16, 16, 6000, false, nil)
	m, _ := registry.New(registry.Unid, v, 1)
	checkWithin(t, "unid log Z", r.logZ, r.logZSE, m.(models.ExactLogZ).ExactLogZ(), 0.03)
}

// TestCornerMixOracles runs cornermix in d = 3 with μ = 2.5, sd = 0.4 (its
// own parameters: 8 modes 12.5 sd apart, log Z = −3.4) with the random
// walk, which never crosses between modes by itself, on ptbatch run's
// automatic tuning, 20 chains, 16 replicates. log Z must be within 4 se of
// ExactLogZ with se ≤ 0.03 (one mode lost would move log Z by ln(7/8) =
// −0.13). Each replicate's kept target samples give its fraction in each
// of the 8 orthants; their mean over replicates must be within 4 se of
// OrthantMass = 1/8 with se ≤ 0.01, so that an orthant visited at half
// its rate (off by 0.0625) fails.
func TestCornerMixOracles(t *testing.T) {
	v := registry.Values{"dim": 3, "mu": 2.5, "sd": 0.4, "explorer": 0}
	const reps = 16
	counts := make([][8]float64, reps)
	samples := &batch.Samples{Write: func(replicate, _ int, x []float64) error {
		o := 0
		for i, xi := range x[:3] {
			if xi >= 0 {
				o |= 1 << i
			}
		}
		counts[replicate][o]++
		return nil
	}}
	r := runEngine(t, registry.CornerMix, v, 20, reps, 6000, false, samples)
	m, _ := registry.New(registry.CornerMix, v, 1)
	c := m.(*models.CornerMix)
	checkWithin(t, "cornermix log Z", r.logZ, r.logZSE, c.ExactLogZ(), 0.03)
	for o := range 8 {
		frac := make([]float64, reps)
		for b := range counts {
			total := 0.0
			for _, n := range counts[b] {
				total += n
			}
			frac[b] = counts[b][o] / total
		}
		corner := []float64{float64(o&1)*2 - 1, float64(o>>1&1)*2 - 1, float64(o>>2&1)*2 - 1}
		mean, se := batch.MeanSE(frac)
		checkWithin(t, "cornermix mass of orthant "+string(rune('0'+o)), mean, se, c.OrthantMass(corner), 0.01)
	}
}

// TestBananaOracles runs the banana in d = 3 with curvature 0.05 (its own
// parameters) with the random walk on ptbatch run's automatic tuning, 16
// chains, 16 replicates. log Z must be within 4 se of ExactLogZ = 0 with
// se ≤ 0.03. Each replicate's kept target samples give its fraction below
// four points of each of x1 and x2 (the exact marginals' 10%, 30%, 60% and
// 90% quantiles, found by bisection on MarginalCDF); their mean over
// replicates must be within 4 se of the exact CDF there, with se ≤ 0.02,
// so that a marginal CDF off by 0.08 fails: the untwisted reference's x2
// ~ N(0, 1) is off by more than 0.1 at its 10% quantile.
// (Replicates are independent, so these are valid tests where a KS test
// on a replicate's autocorrelated draws would not be.)
func TestBananaOracles(t *testing.T) {
	v := registry.Values{"dim": 3, "curvature": 0.05, "explorer": 0}
	m, _ := registry.New(registry.Banana, v, 1)
	ban := m.(*models.Banana)
	var points [2][4]float64
	for i := range 2 {
		for k, q := range []float64{0.1, 0.3, 0.6, 0.9} {
			lo, hi := -1000.0, 1000.0
			for range 60 {
				if mid := (lo + hi) / 2; ban.MarginalCDF(i, mid) < q {
					lo = mid
				} else {
					hi = mid
				}
			}
			points[i][k] = (lo + hi) / 2
		}
	}
	const reps = 16
	below := make([][2][4]float64, reps)
	kept := make([]float64, reps)
	samples := &batch.Samples{Write: func(b, _ int, x []float64) error {
		kept[b]++
		for i := range 2 {
			for k, a := range points[i] {
				if x[i] <= a {
					below[b][i][k]++
				}
			}
		}
		return nil
	}}
	r := runEngine(t, registry.Banana, v, 16, reps, 12000, false, samples)
	checkWithin(t, "banana log Z", r.logZ, r.logZSE, ban.ExactLogZ(), 0.03)
	for i := range 2 {
		for k, a := range points[i] {
			frac := make([]float64, reps)
			for b := range frac {
				frac[b] = below[b][i][k] / kept[b]
			}
			mean, se := batch.MeanSE(frac)
			checkWithin(t, "banana P(x"+string(rune('1'+i))+" ≤ quantile)", mean, se, ban.MarginalCDF(i, a), 0.02)
		}
	}
}

// TestUnidLogZPathByEngine checks Unid.LogZPath at t = 0.25 by sampling:
// the model whose target is unid's π_t, W0 + t·ln L with the likelihood
// written out here, on p = σ(u) (n = 1000, y = 300), is run like
// TestUnidLogZ (random walk, automatic tuning, 16 chains, 16 replicates),
// and its log Z must be within 4 se of LogZPath(0.25) = −3.34 with se ≤
// 0.02: the curve's slope there, the mean log likelihood under π_t, is
// −5.6 (LogZPath's central difference), so that a curve off by 0.02 in t
// would move log Z by 0.11 and fail.
func TestUnidLogZPathByEngine(t *testing.T) {
	const n, y, tt = 1000.0, 300.0, 0.25
	lc := func() float64 {
		a, _ := math.Lgamma(n + 1)
		b, _ := math.Lgamma(y + 1)
		c, _ := math.Lgamma(n - y + 1)
		return a - b - c
	}()
	logPrior := func(x []float64) float64 {
		s := 0.0
		for _, u := range x {
			p := 1 / (1 + math.Exp(-u))
			s += math.Log(p) + math.Log1p(-p)
		}
		return s
	}
	m, err := models.FromFuncs(models.Funcs{
		Dim:          2,
		LogReference: logPrior,
		LogTarget: func(x []float64) float64 {
			s := 1 / (1 + math.Exp(-x[0])) / (1 + math.Exp(-x[1]))
			return logPrior(x) + tt*(lc+y*math.Log(s)+(n-y)*math.Log1p(-s))
		},
		SampleReference: func(r models.Rand, x []float64) {
			for i := range x {
				v := r.Uniform()
				for v >= 1 {
					v = r.Uniform()
				}
				x[i] = math.Log(v / (1 - v))
			}
		},
	}, models.RandomWalk{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := batch.DefaultConfig(m, 6000)
	cfg.Chains, cfg.Replicates = 16, 16
	lz := &batch.LogZ{FromScan: cfg.Scans - cfg.KeepScansInEffect() + 1}
	cfg.Statistics = []batch.Statistic{lz}
	if _, err := batch.Run(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	u, _ := models.NewUnid(n, y, models.RandomWalk{})
	mean, se := lz.Estimate()
	checkWithin(t, "unid log Z(0.25)", mean, se, u.LogZPath(tt), 0.02)
}

// TestGaussianAndBetaBinomialLogZ checks the two older closed forms now
// behind models.ExactLogZ by sampling, on parameters of their own: the
// Gaussian pair in d = 3 from N(−1, 1) to N(1, 0.3²) (log Z = 3 ln 0.3 =
// −3.61) and the Beta-binomial with prior Beta(2, 3) and 70 successes in
// 100 trials (log Z = ln B(72, 33) − ln B(2, 3) = −63.51), each with 24
// chains, 16 replicates and 4000 iterations of exact draws. Each must be
// within 4 se with se ≤ 0.02: a dimension off by one (ln 0.3 = −1.2) or a
// success or failure miscounted (about ln(0.3) or ln(0.7) = −0.36 at the
// posterior mean 0.69) would fail.
func TestGaussianAndBetaBinomialLogZ(t *testing.T) {
	for _, c := range []struct {
		name string
		v    registry.Values
	}{
		{registry.Gaussian, registry.Values{"dim": 3, "mu0": -1, "mu1": 1, "sigma0": 1, "sigma1": 0.3}},
		{registry.BetaBinomial, registry.Values{"prior-a": 2, "prior-b": 3, "successes": 70, "total-trials": 100}},
	} {
		r := runEngine(t, c.name, c.v, 24, 16, 4000, false, nil)
		m, _ := registry.New(c.name, c.v, 1)
		checkWithin(t, c.name+" log Z", r.logZ, r.logZSE, m.(models.ExactLogZ).ExactLogZ(), 0.02)
	}
}
