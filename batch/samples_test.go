package batch

import (
	"math"
	"slices"
	"sort"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ptbatch/ptbatch/models"
)

// sample is one kept state.
type sample struct {
	b, m int
	x    []float64
}

// runSamples runs cfg with a Samples statistic, thinned by thin, and a
// TargetMoments, and returns what they measured.
func runSamples(t *testing.T, cfg Config, thin int) (*Result, []sample, *TargetMoments) {
	t.Helper()
	var got []sample
	s := &Samples{Thin: thin, Write: func(b, m int, x []float64) error {
		got = append(got, sample{b, m, slices.Clone(x)})
		return nil
	}}
	moments := new(TargetMoments)
	cfg.Statistics = []Statistic{s, moments}
	return mustRun(t, cfg), got, moments
}

// ksStatistic returns sup_x |F_n(x) - F(x)| of xs against the CDF cdf.
func ksStatistic(xs []float64, cdf func(float64) float64) float64 {
	xs = slices.Clone(xs)
	sort.Float64s(xs)
	n := float64(len(xs))
	d := 0.0
	for i, x := range xs {
		f := cdf(x)
		d = math.Max(d, math.Max(float64(i+1)/n-f, f-float64(i)/n))
	}
	return d
}

// TestSamplesMatchBetaPosterior checks the kept target samples of the
// paper's Beta-binomial against its exact posterior Beta(140180, 60840)
// (prior Beta(180, 840), S = 140000 of 200000): their mean and variance
// within Monte Carlo error, and a Kolmogorov–Smirnov test.
func TestSamplesMatchBetaPosterior(t *testing.T) {
	m, err := models.NewBetaBinomial(180, 840, 140000, 60000)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Model: m, Chains: 30, Replicates: 8, Iterations: 4000, Scans: 4, TuneSchedule: true, Knots: 1, Seed: 19}
	res, got, moments := runSamples(t, cfg, 4)
	// Kept: the last 2 of 4 scans (KeepScans 0 = the last half), every
	// 4th iteration: 8 replicates × 2000/4 = 4000 states.
	if res.KeptScans != 2 || len(got) != 8*500 {
		t.Fatalf("kept scans %d, %d samples; want 2 and 4000", res.KeptScans, len(got))
	}
	ps := make([]float64, len(got))
	for i, s := range got {
		if s.m <= 2000 || s.m%4 != 0 {
			t.Fatalf("sample %d from iteration %d: not a kept iteration", i, s.m)
		}
		ps[i] = s.x[0]
	}
	post := distuv.Beta{Alpha: 140180, Beta: 60840}
	mean, variance := post.Mean(), post.Variance()
	n := float64(len(ps))
	var sm, sv float64
	for _, p := range ps {
		sm += p
	}
	sm /= n
	for _, p := range ps {
		sv += (p - sm) * (p - sm)
	}
	sv /= n - 1
	// Exact draws, or states swapped in from the chain below (stationary,
	// nearly independent at a lag of 4): SE(mean) = sd/√n; allow 5 SE.
	// SE(var)/var ≈ √(2/n) = 2.2%; allow 5 SE.
	if math.Abs(sm-mean) > 5*math.Sqrt(variance/n) {
		t.Errorf("sample mean %.7f, posterior mean %.7f", sm, mean)
	}
	if math.Abs(sv/variance-1) > 5*math.Sqrt(2/n) {
		t.Errorf("sample variance %.4g, posterior variance %.4g", sv, variance)
	}
	// Kolmogorov–Smirnov at level 0.001: reject when D > 1.949/√n
	// (the asymptotic critical value, Smirnov 1948).
	if d := ksStatistic(ps, post.CDF); d > 1.949/math.Sqrt(n) {
		t.Errorf("KS statistic %.4f > %.4f: samples do not follow Beta(140180, 60840)", d, 1.949/math.Sqrt(n))
	}
	// TargetMoments sees the same kept scans, unthinned: 2000 states per
	// replicate.
	means, vars := moments.Means(), moments.Vars()
	for b := range means {
		if math.Abs(means[b][0]-mean) > 5*math.Sqrt(variance/2000) || math.Abs(vars[b][0]/variance-1) > 5*math.Sqrt(2.0/2000) {
			t.Errorf("replicate %d: kept target mean %.7f and variance %.4g, posterior %.7f and %.4g", b, means[b][0], vars[b][0], mean, variance)
		}
	}
}

// TestSamplesMatchGaussianTarget checks every coordinate of the kept
// target samples of a 3-dimensional Gaussian, N(1, 0.3²) per coordinate,
// against its mean and variance, and a KS test per coordinate.
func TestSamplesMatchGaussianTarget(t *testing.T) {
	g, err := models.NewGaussian(3, -1, 1, 0.5, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Model: g, Chains: 16, Replicates: 8, Iterations: 3000, Scans: 3, TuneSchedule: true, Knots: 1, Seed: 3}
	_, got, _ := runSamples(t, cfg, 3)
	n := float64(len(got))
	// Kept: scans 2 and 3 (the last half, rounded up), iterations 1001 to
	// 3000 that are multiples of 3.
	if want := 8 * (3000/3 - 1000/3); len(got) != want {
		t.Fatalf("%d samples, want %d", len(got), want)
	}
	target := distuv.Normal{Mu: 1, Sigma: 0.3}
	for d := 0; d < 3; d++ {
		xs := make([]float64, len(got))
		var sm, sv float64
		for i, s := range got {
			xs[i] = s.x[d]
			sm += s.x[d]
		}
		sm /= n
		for _, x := range xs {
			sv += (x - sm) * (x - sm)
		}
		sv /= n - 1
		if math.Abs(sm-1) > 5*0.3/math.Sqrt(n) || math.Abs(sv/0.09-1) > 5*math.Sqrt(2/n) {
			t.Errorf("coordinate %d: mean %.4f, variance %.4f; want 1 and 0.09", d, sm, sv)
		}
		if ks := ksStatistic(xs, target.CDF); ks > 1.949/math.Sqrt(n) {
			t.Errorf("coordinate %d: KS statistic %.4f", d, ks)
		}
	}
}

// TestSamplesInvariance checks that the samples written do not depend on
// the number of workers, and that replicates 0–7 of a 16-replicate run
// write what an 8-replicate run writes, for an exact and a stateful model.
func TestSamplesInvariance(t *testing.T) {
	g, _ := models.NewGaussian(2, -1, 1, 0.5, 0.3)
	for _, m := range []models.Model{g, twoModes(t, 2, models.RandomWalk{})} {
		cfg := Config{Model: m, Chains: 8, Replicates: 16, Iterations: 400, Scans: 4, TuneSchedule: true, Knots: 1, Seed: 9, Workers: 1}
		_, one, _ := runSamples(t, cfg, 1)
		cfg.Workers = 2
		_, two, _ := runSamples(t, cfg, 1)
		cfg.Replicates = 8
		_, eight, _ := runSamples(t, cfg, 1)
		if len(one) != 16*200 || !slices.EqualFunc(one, two, sameSample) {
			t.Errorf("%T: samples differ between 1 and 2 workers (%d, %d rows)", m, len(one), len(two))
		}
		var first8 []sample
		for _, s := range one {
			if s.b < 8 {
				first8 = append(first8, s)
			}
		}
		if !slices.EqualFunc(first8, eight, sameSample) {
			t.Errorf("%T: replicates 0–7 differ between 16 and 8 replicates", m)
		}
	}
}

func sameSample(a, b sample) bool {
	return a.b == b.b && a.m == b.m && slices.Equal(a.x, b.x)
}
