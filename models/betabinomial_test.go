package models

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// paperBetaBinomial is the paper's model with the data given as totals:
// S = 140000 successes of R = 200000 trials, posterior Beta(140180, 60840)
// (appendix "Experimental details", Beta-binomial model).
func paperBetaBinomial(t testing.TB) *BetaBinomial {
	m, err := NewBetaBinomial(180, 840, 140000, 60000)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func newEnergies(n int) Energies {
	return Energies{W0: layout.Float64s(n), W1: layout.Float64s(n)}
}

// observeP returns the state p of every row and lane of blk, row-major
// (row r, lane j at r*layout.Lanes+j).
func observeP(blk Block, rows int) []float64 {
	p := make([]float64, rows*layout.Lanes)
	for i := range p {
		blk.Observe(p[i:i+1], i/layout.Lanes, i%layout.Lanes)
	}
	return p
}

// TestBetaBinomialBlockMatchesScalar checks that the batched block and the
// scalar reference give the same energies and states bit for bit, lane by
// lane, over Init and several explores with coefficients varying by row and
// lane: the paper's model (huge shapes), a small-shape model (shapes below
// 1, so boosts, and many rejected first attempts), some rows without a
// proper density (NaN), and 300 rows (two chunks of first attempts).
func TestBetaBinomialBlockMatchesScalar(t *testing.T) {
	const L = layout.Lanes
	small, err := NewBetaBinomial(0.4, 0.7, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []*BetaBinomial{paperBetaBinomial(t), small} {
		for _, rows := range []int{1, 7, 300} {
			blk := m.NewBlock(BlockSpec{FirstReplicate: 16, Rows: rows})
			rng := kernel.NewStream(42, 16)
			out := newEnergies(rows * L)
			eta0 := layout.Float64s(rows * L)
			eta1 := layout.Float64s(rows * L)
			for i := range eta0 {
				r, j := i/L, i%L
				t := float64(r) / float64(max(rows-1, 1))
				eta0[i], eta1[i] = 1-t+0.05*float64(j), t*(1-0.1*float64(j))
				if r%5 == 3 && j%3 == 1 {
					// α = η0(A-1) + 1 < 0 at η = (∓3, 0) when A ≷ 1: no proper density.
					eta0[i], eta1[i] = -3*math.Copysign(1, m.A-1), 0
				}
			}
			ref := kernel.NewStream(42, 16)
			scalars := make([][][]float64, L)
			var p []float64 // the observed states
			compare := func(what string, w0s, w1s [][]float64) {
				t.Helper()
				p = observeP(blk, rows)
				for j := 0; j < L; j++ {
					for r := 0; r < rows; r++ {
						i := r*L + j
						if math.Float64bits(w0s[j][r]) != math.Float64bits(out.W0[i]) ||
							math.Float64bits(w1s[j][r]) != math.Float64bits(out.W1[i]) ||
							math.Float64bits(scalars[j][r][0]) != math.Float64bits(p[i]) {
							t.Fatalf("a=%v rows=%d %s lane %d row %d: block (%v, %v, %v), scalar (%v, %v, %v)",
								m.A, rows, what, j, r, out.W0[i], out.W1[i], p[i], w0s[j][r], w1s[j][r], scalars[j][r][0])
						}
					}
				}
			}
			blk.Init(rng, initRows(rows), out)
			w0s, w1s := make([][]float64, L), make([][]float64, L)
			for j := 0; j < L; j++ {
				scalars[j], w0s[j], w1s[j] = m.Scalar().Init(ref.Lane(j), rows)
			}
			compare("init", w0s, w1s)
			nanRows := 0
			for sweep := 0; sweep < 4; sweep++ {
				blk.Explore(rng, testRows(eta0, eta1), out)
				for j := 0; j < L; j++ {
					e0 := make([]float64, rows)
					e1 := make([]float64, rows)
					for r := 0; r < rows; r++ {
						e0[r], e1[r] = eta0[r*L+j], eta1[r*L+j]
					}
					w0s[j], w1s[j] = m.Scalar().Explore(ref.Lane(j), scalars[j], e0, e1, nil)
				}
				compare(fmt.Sprintf("sweep %d", sweep), w0s, w1s)
				for i := range out.W0 {
					if math.IsNaN(out.W0[i]) {
						nanRows++
					} else if !(p[i] > 0 && p[i] < 1) {
						t.Fatalf("a=%v rows=%d: p = %v outside (0, 1)", m.A, rows, p[i])
					}
				}
			}
			if rows >= 7 && nanRows == 0 {
				t.Errorf("a=%v rows=%d: no improper row was exercised", m.A, rows)
			}
			// The retry path must have been exercised for the small shapes:
			// a first attempt is rejected with probability ≈ 5% near shape 1,
			// so 300·8 rows (two gammas each) without one has probability e^-240.
			if m == small && rows == 300 && !rejectedFirstAttempt(blk.(*betaBinomialBlock), rows) {
				t.Error("no first attempt was rejected: retry path untested")
			}
		}
	}
}

// rejectedFirstAttempt reports whether a proper row of the last chunk of
// b's last Explore had a first attempt that GammaSampler.Try rejected (g
// holds the Try values of the chunk's first attempts, 2 rows per row).
func rejectedFirstAttempt(b *betaBinomialBlock, rows int) bool {
	const L = layout.Lanes
	r0 := (rows - 1) / bbChunkRows * bbChunkRows
	for i, v := range b.g[:2*(rows-r0)*L] {
		if v == 0 && b.kind[(r0+i/(2*L))*L+i%L] != bbImproper {
			return true
		}
	}
	return false
}

// TestBetaBinomialAnnealedClosedForm checks the annealed shapes: from
// exp(η0 W0 + η1 W1) ∝ p^((η0+η1)(A-1)+η1 S) (1-p)^((η0+η1)(B-1)+η1 F), at
// η = (1, 0) the prior Beta(A, B), at η = (0, 1) the posterior
// Beta(A+S, B+F) = Beta(140180, 60840) for the paper's data, and on the
// linear path the appendix's Beta(179 η0 + (180+S-1) η1 + 1,
// 839 η0 + (840+R-S-1) η1 + 1). All values are integers below 2^53 and
// the operations exact, hence the exact comparisons.
func TestBetaBinomialAnnealedClosedForm(t *testing.T) {
	m := paperBetaBinomial(t)
	for _, c := range []struct{ eta0, eta1, alpha, beta float64 }{
		{1, 0, 180, 840},
		{0, 1, 140180, 60840},
		{0.5, 0.5, 179 + 70000 + 1, 839 + 30000 + 1},
		{0.75, 0.25, 179*0.75 + 140179*0.25 + 1, 839*0.75 + 60839*0.25 + 1},
		{0, 0, 1, 1},
		{2, 0, 2*179 + 1, 2*839 + 1},
	} {
		a, b, ok := m.Annealed(c.eta0, c.eta1)
		if !ok || a != c.alpha || b != c.beta {
			t.Errorf("η=(%v,%v): got Beta(%v, %v) ok=%v, want Beta(%v, %v)", c.eta0, c.eta1, a, b, ok, c.alpha, c.beta)
		}
	}
	// η = (-1, 0): α = -179 + 1 ≤ 0; η = (1, -0.01): β = 0.99·839 - 600 + 1 < 0;
	// non-finite coefficients.
	for _, e := range [][2]float64{{-1, 0}, {1, -0.01}, {math.NaN(), 0}, {math.Inf(1), 0}} {
		if _, _, ok := m.Annealed(e[0], e[1]); ok {
			t.Errorf("η=%v gives no proper density but was accepted", e)
		}
	}
}

// TestBetaBinomialEnergies checks W0 and W1 against the direct formulas
// W0 = (A-1) log p + (B-1) log(1-p), W1 = W0 + S log p + F log(1-p), at
// the states the block draws (observed p) and at fixed points. p is exact to
// a few ulps and log1p(-p) loses at most a factor 1/(1-p) ≤ 10³ for these
// states, so a relative tolerance of 1e-11 leaves a wide margin.
func TestBetaBinomialEnergies(t *testing.T) {
	const L = layout.Lanes
	// direct returns W0, W1 and the scale Σ|coefficient·log| of each sum,
	// relative to which the error is measured (W0 may cancel to 0 when
	// A < 1 or B < 1).
	type energy struct{ w, scale float64 }
	direct := func(m *BetaBinomial, p float64) (energy, energy) {
		lp, lq := math.Log(p), math.Log1p(-p)
		w0 := (m.A-1)*lp + (m.B-1)*lq
		s0 := math.Abs((m.A-1)*lp) + math.Abs((m.B-1)*lq)
		return energy{w0, s0}, energy{w0 + float64(m.Successes)*lp + float64(m.Failures)*lq,
			s0 + math.Abs(float64(m.Successes)*lp) + math.Abs(float64(m.Failures)*lq)}
	}
	near := func(got float64, want energy) bool { return math.Abs(got-want.w) <= 1e-11*want.scale }
	m := paperBetaBinomial(t)
	for _, p := range []float64{0.25, 0.5, 0.7, 0.999} {
		w0, w1 := m.energies(math.Log(p), math.Log1p(-p))
		d0, d1 := direct(m, p)
		if !near(w0, d0) || !near(w1, d1) {
			t.Errorf("p=%v: energies (%v, %v), direct (%v, %v)", p, w0, w1, d0, d1)
		}
	}
	skewed, _ := NewBetaBinomial(2.5, 0.3, 7, 0) // p near 1 under the boosted β < 1
	for _, m := range []*BetaBinomial{m, skewed} {
		const rows = 50
		blk := m.NewBlock(BlockSpec{Rows: rows})
		rng := kernel.NewStream(7, 0)
		out := newEnergies(rows * L)
		eta0, eta1 := layout.Float64s(rows*L), layout.Float64s(rows*L)
		for i := range eta0 {
			t := float64(i/L) / (rows - 1)
			eta0[i], eta1[i] = 1-t, t
		}
		for sweep := 0; sweep < 3; sweep++ {
			blk.Explore(rng, testRows(eta0, eta1), out)
			for i, p := range observeP(blk, rows) {
				if p >= 0.999 {
					continue // log1p(-p) of the rounded p is too coarse to compare
				}
				d0, d1 := direct(m, p)
				if !near(out.W0[i], d0) || !near(out.W1[i], d1) {
					t.Fatalf("a=%v p=%v: block (%v, %v), direct (%v, %v)", m.A, p, out.W0[i], out.W1[i], d0, d1)
				}
			}
		}
	}
}

// TestBetaBinomialGammaMoments checks the mean and variance of the gamma
// variates g·exp(lb) as the scalar reference draws them (first attempt by
// kernel.GammaSampler.Try, completed by kernel.FinishGamma) against
// Gamma(s, 1), over the shapes of the model's runs: E G = s, Var G = s.
// The draws are i.i.d., so the sample mean has SE √(s/n), and the mean of
// (G - s)² has SE √((μ4 - s²)/n) with μ4 = 3s² + 6s. The test allows 4 SE
// (two-sided normal tail 6e-5 per check, 12 checks). The first attempt
// comes from the same lane, as in the block.
func TestBetaBinomialGammaMoments(t *testing.T) {
	const n = 50000
	lane := kernel.NewStream(11, 5).Lane(3)
	for _, s := range []float64{0.3, 1, 2.5, 180, 1e5, 1e6} {
		var s1, s2 float64
		for i := 0; i < n; i++ {
			gs := kernel.NewGammaSampler(s)
			x := kernel.Normal(lane)
			g, lb := kernel.FinishGamma(lane, gs, gs.Try(x, lane.Uniform()))
			g *= math.Exp(lb)
			if !(g > 0) || math.IsInf(g, 0) {
				t.Fatalf("s=%v: draw %v", s, g)
			}
			s1 += g
			s2 += (g - s) * (g - s)
		}
		mean, v := s1/n, s2/n
		seMean, seVar := math.Sqrt(s/n), math.Sqrt((2*s*s+6*s)/n)
		if math.Abs(mean-s) > 4*seMean || math.Abs(v-s) > 4*seVar {
			t.Errorf("s=%v: mean %v (SE %v), variance %v (SE %v), want %v, %v", s, mean, seMean, v, seVar, s, s)
		}
	}
}

// betaDraws returns n = sweeps·rows·8 draws of p from the block of the
// model with prior Beta(alpha, beta) and no data, at η = (1, 0).
func betaDraws(t *testing.T, alpha, beta float64, seed uint64, rows, sweeps int) []float64 {
	m, err := NewBetaBinomial(alpha, beta, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	blk := m.NewBlock(BlockSpec{Rows: rows})
	rng := kernel.NewStream(seed, 0)
	out := newEnergies(rows * layout.Lanes)
	eta0, eta1 := layout.Float64s(rows*layout.Lanes), layout.Float64s(rows*layout.Lanes)
	for i := range eta0 {
		eta0[i] = 1
	}
	var p []float64
	for s := 0; s < sweeps; s++ {
		blk.Explore(rng, testRows(eta0, eta1), out)
		p = append(p, observeP(blk, rows)...)
	}
	return p
}

// TestBetaBinomialBetaMoments checks the mean and variance of the block's
// Beta(α, β) draws against the closed forms μ = α/(α+β) and
// σ² = αβ/((α+β)²(α+β+1)). The draws are i.i.d.; the sample mean has SE
// σ/√n and the mean of (p - μ)² has SE √((μ4 - σ⁴)/n), with the fourth
// central moment μ4 = σ⁴(3 + κ) and the excess kurtosis
// κ = 6[(α-β)²(α+β+1) - αβ(α+β+2)] / [αβ(α+β+2)(α+β+3)]. The test allows
// 4 SE (two-sided normal tail 6e-5 per check, 18 checks).
func TestBetaBinomialBetaMoments(t *testing.T) {
	for k, c := range [][2]float64{{0.3, 0.3}, {0.3, 2.5}, {1, 1}, {2.5, 180}, {180, 840}, {140180, 60840}, {1e5, 1e6}, {1e6, 1e6}, {1e6, 0.3}} {
		a, b := c[0], c[1]
		p := betaDraws(t, a, b, uint64(100+k), 250, 25)
		n := float64(len(p))
		mu := a / (a + b)
		v := a * b / ((a + b) * (a + b) * (a + b + 1))
		kappa := 6 * ((a-b)*(a-b)*(a+b+1) - a*b*(a+b+2)) / (a * b * (a + b + 2) * (a + b + 3))
		var s1, s2 float64
		for _, x := range p {
			s1 += x
			s2 += (x - mu) * (x - mu)
		}
		mean, vhat := s1/n, s2/n
		seMean, seVar := math.Sqrt(v/n), math.Sqrt((2+kappa)*v*v/n)
		if math.Abs(mean-mu) > 4*seMean || math.Abs(vhat-v) > 4*seVar {
			t.Errorf("Beta(%v, %v): mean %v (want %v, SE %v), variance %v (want %v, SE %v)", a, b, mean, mu, seMean, vhat, v, seVar)
		}
	}
}

// TestBetaBinomialBetaKS compares the block's Beta(α, β) draws with
// gonum's Beta CDF by the Kolmogorov–Smirnov statistic D_n: for i.i.d.
// draws P(√n D_n > 1.95) ≈ 0.001 (the asymptotic Kolmogorov distribution),
// so the test fails when D_n > 1.95/√n.
func TestBetaBinomialBetaKS(t *testing.T) {
	for k, c := range [][2]float64{{0.3, 2.5}, {2.5, 180}, {180, 840}, {140180, 60840}} {
		p := betaDraws(t, c[0], c[1], uint64(200+k), 250, 8)
		slices.Sort(p)
		dist := distuv.Beta{Alpha: c[0], Beta: c[1]}
		n := float64(len(p))
		d := 0.0
		for i, x := range p {
			f := dist.CDF(x)
			d = max(d, f-float64(i)/n, float64(i+1)/n-f)
		}
		if d > 1.95/math.Sqrt(n) {
			t.Errorf("Beta(%v, %v): KS statistic %v > %v (n=%v)", c[0], c[1], d, 1.95/math.Sqrt(n), n)
		}
	}
}

// TestSimulateBinomialData checks the simulated totals: deterministic in
// the seed, summing to draws·trials, all successes at p = 1 and none at
// p = 0, and for the paper's setting S within 5 SE of its mean
// E S = 2000·100·0.7 = 140000, SE = √(200000·0.7·0.3) ≈ 205 (two-sided
// normal tail 6e-7).
func TestSimulateBinomialData(t *testing.T) {
	s, f, err := SimulateBinomialData(1, 2000, 100, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	if s+f != 200000 || math.Abs(float64(s)-140000) > 5*math.Sqrt(200000*0.7*0.3) {
		t.Errorf("got S=%d, F=%d; want S+F = 200000 and S ≈ 140000 ± 1025", s, f)
	}
	if s2, f2, _ := SimulateBinomialData(1, 2000, 100, 0.7); s2 != s || f2 != f {
		t.Errorf("seed 1 gave (%d, %d) then (%d, %d)", s, f, s2, f2)
	}
	if s, f, _ := SimulateBinomialData(3, 10, 7, 1); s != 70 || f != 0 {
		t.Errorf("p=1: got (%d, %d), want (70, 0)", s, f)
	}
	if s, f, _ := SimulateBinomialData(3, 10, 7, 0); s != 0 || f != 70 {
		t.Errorf("p=0: got (%d, %d), want (0, 70)", s, f)
	}
	for _, c := range []struct {
		draws, trials int
		p             float64
	}{{0, 100, 0.7}, {2000, 0, 0.7}, {2000, 100, -0.1}, {2000, 100, 1.5}, {2000, 100, math.NaN()}, {1 << 20, 1 << 20, 0.5}} {
		if _, _, err := SimulateBinomialData(1, c.draws, c.trials, c.p); err == nil {
			t.Errorf("SimulateBinomialData(%+v) accepted bad input", c)
		}
	}
}

func TestNewBetaBinomialRejectsBadValues(t *testing.T) {
	for _, c := range []struct {
		a, b float64
		s, f int64
	}{{0, 1, 1, 1}, {-1, 1, 1, 1}, {math.NaN(), 1, 1, 1}, {math.Inf(1), 1, 1, 1}, {1, 0, 1, 1}, {1, math.Inf(1), 1, 1},
		{1, 1, -1, 1}, {1, 1, 1, -1}, {1, 1, 1 << 53, 0}} {
		if _, err := NewBetaBinomial(c.a, c.b, c.s, c.f); err == nil {
			t.Errorf("NewBetaBinomial(%+v) accepted bad input", c)
		}
	}
}

// BenchmarkBetaBinomialExplore times one Explore of a block of the paper's
// model (50 chains × 8 lanes) on the linear path η = (1-t_n, t_n),
// t_n = n/49, and reports ns per Beta draw (row-lane).
func BenchmarkBetaBinomialExplore(b *testing.B) {
	const rows = 50
	b.Run(fmt.Sprintf("chains=%d", rows), func(b *testing.B) {
		m := paperBetaBinomial(b)
		blk := m.NewBlock(BlockSpec{Rows: rows})
		rng := kernel.NewStream(1, 0)
		n := rows * layout.Lanes
		out := newEnergies(n)
		eta0, eta1 := layout.Float64s(n), layout.Float64s(n)
		for i := range eta0 {
			t := float64(i/layout.Lanes) / (rows - 1)
			eta0[i], eta1[i] = 1-t, t
		}
		in := testRows(eta0, eta1)
		blk.Init(rng, initRows(rows), out)
		for b.Loop() {
			blk.Explore(rng, in, out)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/draw")
	})
}
