package kernel

import (
	"math"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ptbatch/ptbatch/asm"
)

// refGamma is Marsaglia and Tsang's method as the GammaSampler comment
// describes it, written plainly on a refSource: attempts of a normal (two
// uniforms, Box–Muller cosine half) and, when 1 + cx > 0, a uniform; for
// shape < 1, shape + 1 and then the boost exp(log(u')/shape).
func refGamma(rng *refSource, shape float64) float64 {
	a := shape
	if shape < 1 {
		a = shape + 1
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	var g float64
	for {
		u1 := rng.Uniform()
		u2 := rng.Uniform()
		x, _ := asm.BoxMuller(u1, u2)
		t := 1 + float64(c*x)
		if t <= 0 {
			continue
		}
		u := rng.Uniform()
		v := t * t * t
		if u < 1-float64(0.0331*x*x*x*x) || math.Log(u) < float64(0.5*x*x)+float64(d*(1-v+math.Log(v))) {
			g = d * v
			break
		}
	}
	if shape < 1 {
		return g * math.Exp(math.Log(rng.Uniform())/shape)
	}
	return g
}

// laneRefs returns refSources with the states of the lanes of
// NewStream(seed, first).
func laneRefs(seed uint64, first int) []*refSource {
	r := make([]*refSource, L)
	for j := range r {
		r[j] = &refSource{SeedState(seed, uint64(first+j))}
	}
	return r
}

func sameBits(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// TestVariatesLaneMatchScalar checks Lane.Gamma, Lane.Normal and
// Lane.Exponential against the generic functions on a scalar Source built
// on the literal xoshiro256++ alone, and Gamma against the plain refGamma,
// bit for bit, with the lanes drawn round robin.
func TestVariatesLaneMatchScalar(t *testing.T) {
	for _, shape := range []float64{0.01, 0.3, 1, 2.5, 140180} {
		s := NewStream(21, 5)
		refs := laneRefs(21, 5)
		plain := laneRefs(21, 5)
		for i := 0; i < 3000; i++ {
			for j := 0; j < L; j++ {
				got, want := s.Lane(j).Gamma(shape), Gamma(refs[j], shape)
				if !sameBits(got, want) {
					t.Fatalf("shape %v, lane %d, draw %d: Lane.Gamma %v, Gamma on the scalar source %v", shape, j, i, got, want)
				}
				if p := refGamma(plain[j], shape); !sameBits(got, p) {
					t.Fatalf("shape %v, lane %d, draw %d: Lane.Gamma %v, plain Marsaglia–Tsang %v", shape, j, i, got, p)
				}
			}
		}
	}
	s, twin := NewStream(4, 0), NewStream(4, 0)
	for i := 0; i < 1000; i++ {
		j := i % L
		if got, want := s.Lane(j).Normal(), twin.LaneNormal(j); !sameBits(got, want) {
			t.Fatalf("lane %d: Lane.Normal %v, LaneNormal %v", j, got, want)
		}
		if got, want := s.Lane(j).Exponential(), -math.Log(twin.LaneUniform(j)); !sameBits(got, want) {
			t.Fatalf("lane %d: Lane.Exponential %v, -log of LaneUniform %v", j, got, want)
		}
	}
	// Normal on a scalar source is Normals(rng, 1).
	a, b := laneRefs(9, 0), laneRefs(9, 0)
	for i := 0; i < 1000; i++ {
		if got, want := Normal(a[i%L]), Normals(b[i%L], 1)[0]; !sameBits(got, want) {
			t.Fatalf("draw %d: Normal %v, Normals(rng, 1) %v", i, got, want)
		}
	}
}

// TestGammaFirstAttemptsFromFills checks the pattern of a batched model:
// the first attempts of a row of lanes from an odd row of Stream.Normal
// and a row of Stream.Uniform, GammaSampler.Try, then FinishGamma on each
// Lane; against its scalar reference, which draws the first attempt with
// Normal and Uniform from its own rng, under every implementation.
func TestGammaFirstAttemptsFromFills(t *testing.T) {
	shapes := []float64{0.05, 0.7, 1, 3, 52.5, 140180}
	forEachImpl(t, func(name string) {
		s := NewStream(77, 800)
		refs := laneRefs(77, 800)
		z, u := make([]float64, L), make([]float64, L)
		var retries, boosts int
		for row := 0; row < 4000; row++ {
			g := NewGammaSampler(shapes[row%len(shapes)])
			s.Normal(z)
			s.Uniform(u)
			for j := 0; j < L; j++ {
				first := g.Try(z[j], u[j])
				if first == 0 {
					retries++
				}
				v, lb := FinishGamma(s.Lane(j), g, first)

				rng := refs[j]
				x := Normal(rng)
				rv, rlb := FinishGamma(rng, g, g.Try(x, rng.Uniform()))
				if !sameBits(v, rv) || !sameBits(lb, rlb) {
					t.Fatalf("%s: row %d, lane %d, shape %v: batched (%v, %v), scalar (%v, %v)", name, row, j, g.Shape(), v, lb, rv, rlb)
				}
				if g.Boosted() {
					boosts++
				}
			}
		}
		if retries < 100 || boosts == 0 {
			t.Fatalf("%s: only %d rejected first attempts and %d boosts: the test does not reach the retries", name, retries, boosts)
		}
	})
}

// TestGammaMoments checks the mean and variance of Gamma(a, 1), both a,
// for a in {0.3, 1, 2.5, 140180}. With n draws the standard error of the
// mean is √(a/n) and that of the sample variance √((μ₄ - a²)/n) with the
// central fourth moment μ₄ = 3a² + 6a; each is allowed 5 standard errors.
func TestGammaMoments(t *testing.T) {
	const n = 1 << 19
	for i, a := range []float64{0.3, 1, 2.5, 140180} {
		s := NewStream(1000+uint64(i), 0)
		x := make([]float64, n)
		for k := range x {
			x[k] = s.Lane(k % L).Gamma(a)
		}
		mean, variance := meanVar(x)
		seMean := math.Sqrt(a / n)
		seVar := math.Sqrt((2*a*a + 6*a) / n)
		t.Logf("a = %v: mean %.6g (%+.2f se), variance %.6g (%+.2f se)", a, mean, (mean-a)/seMean, variance, (variance-a)/seVar)
		if math.Abs(mean-a) > 5*seMean {
			t.Errorf("Gamma(%v): mean %v, want %v ± %v (5 standard errors)", a, mean, a, 5*seMean)
		}
		if math.Abs(variance-a) > 5*seVar {
			t.Errorf("Gamma(%v): variance %v, want %v ± %v (5 standard errors)", a, variance, a, 5*seVar)
		}
	}
}

// TestExponentialMoments checks the mean and variance of Exp(1), both 1:
// standard errors 1/√n and √(8/n) (central fourth moment 9), 5 allowed.
func TestExponentialMoments(t *testing.T) {
	const n = 1 << 19
	s := NewStream(31, 0)
	x := make([]float64, n)
	for k := range x {
		x[k] = s.Lane(k % L).Exponential()
	}
	mean, variance := meanVar(x)
	if se := 1 / math.Sqrt(n); math.Abs(mean-1) > 5*se {
		t.Errorf("Exponential: mean %v, want 1 ± %v", mean, 5*se)
	}
	if se := math.Sqrt(8.0 / n); math.Abs(variance-1) > 5*se {
		t.Errorf("Exponential: variance %v, want 1 ± %v", variance, 5*se)
	}
}

// meanVar returns the mean and the (n-1) sample variance of x, in two
// passes.
func meanVar(x []float64) (mean, variance float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		variance += (v - mean) * (v - mean)
	}
	return mean, variance / float64(len(x)-1)
}

// TestGammaKolmogorovSmirnov compares n = 2^16 draws of Gamma(2.5) (plain
// Marsaglia–Tsang) and of Gamma(0.3) (boosted) with the gamma CDF of gonum's
// distuv.Gamma: the statistic D = sup |F_n - F| must stay below 1.95/√n,
// the asymptotic critical value at level 0.001.
func TestGammaKolmogorovSmirnov(t *testing.T) {
	const n = 1 << 16
	for i, a := range []float64{2.5, 0.3} {
		s := NewStream(500+uint64(i), 0)
		x := make([]float64, n)
		for k := range x {
			x[k] = s.Lane(k % L).Gamma(a)
		}
		slices.Sort(x)
		cdf := distuv.Gamma{Alpha: a, Beta: 1}
		d := 0.0
		for k, v := range x {
			f := cdf.CDF(v)
			d = max(d, float64(k+1)/n-f, f-float64(k)/n)
		}
		crit := 1.95 / math.Sqrt(n)
		t.Logf("Gamma(%v): D = %.5f, √n D = %.3f (critical 1.95)", a, d, d*math.Sqrt(n))
		if d > crit {
			t.Errorf("Gamma(%v): Kolmogorov–Smirnov D = %v above %v", a, d, crit)
		}
	}
}

// TestGammaSamplerRefusesBadShapes checks the panics of NewGammaSampler
// and of FinishGamma with the zero GammaSampler (whose attempts would all
// be rejected).
func TestGammaSamplerRefusesBadShapes(t *testing.T) {
	panics := func(f func()) (p bool) {
		defer func() { p = recover() != nil }()
		f()
		return false
	}
	for _, a := range []float64{0, -1, math.NaN(), math.Inf(1), math.Inf(-1)} {
		if !panics(func() { NewGammaSampler(a) }) {
			t.Errorf("NewGammaSampler(%v) did not panic", a)
		}
	}
	if !panics(func() { FinishGamma(NewStream(1, 0).Lane(0), GammaSampler{}, 0) }) {
		t.Error("FinishGamma with the zero GammaSampler did not panic")
	}
	g := NewGammaSampler(0.25)
	if g.Shape() != 0.25 || !g.Boosted() || NewGammaSampler(1).Boosted() {
		t.Errorf("NewGammaSampler(0.25) = %+v", g)
	}
}

// BenchmarkLaneGamma: ns per Gamma variate drawn from a Lane.
func BenchmarkLaneGamma(b *testing.B) {
	for _, a := range []float64{0.3, 2.5} {
		b.Run("shape="+strconv.FormatFloat(a, 'g', -1, 64), func(b *testing.B) {
			l := NewStream(1, 0).Lane(0)
			for b.Loop() {
				l.Gamma(a)
			}
		})
	}
}
