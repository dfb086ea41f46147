package batch

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// ar1 returns n draws of the stationary AR(1) series x_t = ρ x_{t-1} +
// √(1-ρ²) ε_t, x_0 ~ N(0, 1), ε_t ~ N(0, 1): unit variance, lag-k
// autocorrelation ρ^k, asymptotic variance (1+ρ)/(1-ρ), so its effective
// sample size is n(1-ρ)/(1+ρ).
func ar1(rng *rand.Rand, n int, rho float64) []float64 {
	x := make([]float64, n)
	x[0] = rng.NormFloat64()
	s := math.Sqrt(1 - rho*rho)
	for t := 1; t < n; t++ {
		x[t] = rho*x[t-1] + s*rng.NormFloat64()
	}
	return x
}

// TestEffectiveSampleSizeAR1 checks EffectiveSampleSize against
// n(1-ρ)/(1+ρ) on AR(1) series with ρ = 0, 0.5, 0.9, within 10%. One series
// of n = 10⁶ has a ≈ 1000 batches of b = 1024, so the relative standard
// deviation of σ̂², and of the ESS, is about √(2/a) = 4.5%; the test
// averages the ratio ESS/(n(1-ρ)/(1+ρ)) over 8 independent series (fixed
// seed), a standard deviation of about 1.6%, which makes the 10% band
// meaningful (6 standard deviations) and leaves room for batch means'
// bias, -(2/b)Σ_k k ρ^k (1-ρ)/(1+ρ) relative: 0.9% for ρ = 0.9.
func TestEffectiveSampleSizeAR1(t *testing.T) {
	const n, series = 1_000_000, 8
	rng := rand.New(rand.NewPCG(2026, 10))
	for _, rho := range []float64{0, 0.5, 0.9} {
		want := n * (1 - rho) / (1 + rho)
		sum := 0.0
		ratios := make([]float64, series)
		for i := range ratios {
			ratios[i] = EffectiveSampleSize(ar1(rng, n, rho)) / want
			sum += ratios[i]
		}
		mean := sum / series
		t.Logf("ρ = %.1f: ESS/(n(1-ρ)/(1+ρ)) = %.4f on average over %d series of %d (each: %.3f)", rho, mean, series, n, ratios)
		if math.Abs(mean-1) > 0.1 {
			t.Errorf("ρ = %.1f: mean ESS ratio %.4f, want within 10%% of 1", rho, mean)
		}
	}
}

// TestBatchMeansBatches checks the dynamic batches: after every n, the
// batch size b and the number of full batches a are within a factor √2 of
// √n (for n ≥ 8), the batches cover all but the last incomplete batch, and
// the mean, variance and asymptotic variance equal a direct computation.
func TestBatchMeansBatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	var m BatchMeans
	x := ar1(rng, 100_000, 0.5)
	for i, v := range x {
		m.Add(v + 1e6) // a large offset: the shift keeps the sums conditioned
		n := i + 1
		b, a := float64(m.BatchSize()), float64(m.Batches())
		if n >= 8 && (b <= math.Sqrt(float64(n)/2) || b > math.Sqrt(2*float64(n)) || a < math.Sqrt(float64(n)/2)-1 || a > math.Sqrt(2*float64(n))) {
			t.Fatalf("n = %d: batch size %v, %v batches", n, b, a)
		}
		if n-m.BatchSize()*m.Batches() >= m.BatchSize() {
			t.Fatalf("n = %d: %d batches of %d leave %d draws", n, m.Batches(), m.BatchSize(), n-m.BatchSize()*m.Batches())
		}
	}
	b, a := m.BatchSize(), m.Batches()
	means := make([]float64, a)
	var mean, grand float64
	for k := range means {
		for _, v := range x[k*b : (k+1)*b] {
			means[k] += v
		}
		means[k] /= float64(b)
		grand += means[k] / float64(a)
	}
	sigma2 := 0.0
	for _, y := range means {
		sigma2 += (y - grand) * (y - grand)
	}
	sigma2 *= float64(b) / float64(a-1)
	for _, v := range x {
		mean += v / float64(len(x))
	}
	variance := 0.0
	for _, v := range x {
		variance += (v - mean) * (v - mean) / float64(len(x)-1)
	}
	if math.Abs(m.Mean()-1e6-mean) > 1e-8 || math.Abs(m.Variance()/variance-1) > 1e-6 || math.Abs(m.AsymptoticVariance()/sigma2-1) > 1e-6 {
		t.Errorf("mean %.10g, variance %.10g, σ² %.10g; direct %.10g, %.10g, %.10g",
			m.Mean()-1e6, m.Variance(), m.AsymptoticVariance(), mean, variance, sigma2)
	}
	if got, want := m.ESS(), float64(len(x))*variance/sigma2; math.Abs(got/want-1) > 1e-6 {
		t.Errorf("ESS %g, want %g", got, want)
	}
	for _, short := range [][]float64{nil, {1}, {1, 2, 3}, {2, 2, 2, 2, 2, 2, 2, 2}} {
		if e := EffectiveSampleSize(short); !math.IsNaN(e) {
			t.Errorf("ESS of %v = %g, want NaN", short, e)
		}
	}
}

// TestESSExactSampler checks the ESS statistic on an exact-sampler model:
// for the Gaussian every chain's state is a fresh independent draw in
// every iteration, and the state the target chain holds after the
// communication step is its own draw or its neighbour's, chosen from the
// current draws only, so the kept target draws are independent and the ESS
// is n up to the estimator's error. With n = 40000 there are a = 156
// batches of b = 256, and for independent normal draws σ̂²/σ² is
// χ²_155/155, so ESS/n ≈ 155/χ²_155: relative standard deviation about
// 11% per series, and 0.01% and 99.99% quantiles 0.68 and 1.58. The test
// asks for every series' ratio ESS/n within [0.6, 1.7], and for the mean
// over 8 replicates × 2 coordinates (standard deviation about 3%) within
// 10% of 1. It also runs a stateful model (random-walk Metropolis on two
// modes), whose ESS must be well below n.
func TestESSExactSampler(t *testing.T) {
	g, _ := models.NewGaussian(2, -1, 1, 0.5, 0.3)
	ess := new(ESS)
	cfg := Config{Model: g, Chains: 10, Replicates: 8, Iterations: 80000, Scans: 4, TuneSchedule: true, Knots: 1, Seed: 6,
		Statistics: []Statistic{ess}}
	mustRun(t, cfg)
	if ess.Draws() != 40000 {
		t.Fatalf("%d draws, want the last 2 scans' 40000", ess.Draws())
	}
	sum, count := 0.0, 0
	for b, v := range ess.Values() {
		for k, e := range v {
			r := e / float64(ess.Draws())
			if r < 0.6 || r > 1.7 {
				t.Errorf("replicate %d, x%d: ESS %.0f of %d draws", b, k, e, ess.Draws())
			}
			sum += r
			count++
		}
	}
	if count != 16 {
		t.Fatalf("%d values, want 8 replicates × 2 observables", count)
	}
	t.Logf("Gaussian (exact draws): mean ESS/n = %.4f over %d series of n = %d", sum/float64(count), count, ess.Draws())
	if math.Abs(sum/float64(count)-1) > 0.1 {
		t.Errorf("mean ESS/n = %.3f, want within 10%% of 1", sum/float64(count))
	}

	// A stateful explorer: correlated target draws. Only the first
	// observable is estimated.
	slow := &ESS{Observables: 1}
	cfg = Config{Model: twoModes(t, 2, models.RandomWalk{}), Chains: 10, Replicates: 8, Iterations: 20000, Scans: 4, TuneSchedule: true,
		Knots: 1, Seed: 6, Statistics: []Statistic{slow}}
	mustRun(t, cfg)
	sum = 0
	for b, v := range slow.Values() {
		if len(v) != 1 {
			t.Fatalf("replicate %d: %d values, want 1", b, len(v))
		}
		sum += v[0] / float64(slow.Draws())
	}
	t.Logf("two modes (random walk): mean ESS/n = %.4f, n = %d", sum/8, slow.Draws())
	if sum/8 > 0.5 {
		t.Errorf("random-walk ESS/n = %.3f, want well below 1", sum/8)
	}
}

// TestESSMatchesSamples checks that the statistic's ESS is
// EffectiveSampleSize of the kept target draws that Samples writes.
func TestESSMatchesSamples(t *testing.T) {
	series := make([][][]float64, 3) // replicate, observable, draws
	for b := range series {
		series[b] = make([][]float64, 2)
	}
	s := &Samples{Write: func(b, m int, x []float64) error {
		for k, v := range x {
			series[b][k] = append(series[b][k], v)
		}
		return nil
	}}
	ess := &ESS{FromScan: 2}
	cfg := Config{Model: twoModes(t, 2, models.RandomWalk{}), Chains: 6, Replicates: 3, Iterations: 3000, Scans: 3, KeepScans: 2,
		Knots: 1, Seed: 2, Statistics: []Statistic{s, ess}}
	mustRun(t, cfg)
	for b, v := range ess.Values() {
		for k, e := range v {
			if want := EffectiveSampleSize(series[b][k]); e != want || len(series[b][k]) != 2000 {
				t.Errorf("replicate %d, x%d: ESS %g, EffectiveSampleSize of the %d kept draws %g", b, k, e, len(series[b][k]), want)
			}
		}
	}
}
