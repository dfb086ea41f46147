package models

import (
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmv"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// CorrelatedGaussian is a test model (Unconstrained): the reference
// N(0, I) and the target N(μ·1, Σ), Σ = (1−ρ)I + ρ11ᵀ (unit variances,
// every correlation ρ), W1 = −(x−μ)ᵀΣ⁻¹(x−μ)/2 without its normaliser.
// Its log Z is log((2π)^{d/2}|Σ|^{1/2}) − log Z0 = ½ log|Σ| (ExactLogZ).
type CorrelatedGaussian struct {
	Model
	f        Funcs
	Rho, Mu  float64
	Sigma    *mat.SymDense // Σ
	cholesky *mat.TriDense // the lower factor of Σ, for exact target draws
}

// NewCorrelatedGaussian returns the correlated test model in d
// coordinates, explored by ex.
func NewCorrelatedGaussian(t testing.TB, d int, rho, mu float64, ex Explorer) *CorrelatedGaussian {
	t.Helper()
	sigma := mat.NewSymDense(d, nil)
	for i := range d {
		for j := range d {
			sigma.SetSym(i, j, rho)
		}
		sigma.SetSym(i, i, 1)
	}
	var ch mat.Cholesky
	if !ch.Factorize(sigma) {
		t.Fatalf("Σ of ρ = %v is not positive definite", rho)
	}
	var low mat.TriDense
	ch.LTo(&low)
	g := &CorrelatedGaussian{Rho: rho, Mu: mu, Sigma: sigma, cholesky: &low}
	g.f = correlatedFuncs(d, rho, mu)
	m, err := FromFuncs(g.f, ex)
	if err != nil {
		t.Fatal(err)
	}
	g.Model = m
	return g
}

// correlatedFuncs returns CorrelatedGaussian's functions: the reference
// N(0, I) and the target N(μ·1, Σ) without its normaliser.
func correlatedFuncs(d int, rho, mu float64) Funcs {
	// Σ⁻¹v = (v − c·Σ_i v_i·1)/(1−ρ), c = ρ/(1+(d−1)ρ) (Sherman–Morrison).
	c := rho / (1 + float64(d-1)*rho)
	prec := func(x, dst []float64) {
		s := 0.0
		for _, v := range x {
			s += v - mu
		}
		for i, v := range x {
			dst[i] = (v - mu - c*s) / (1 - rho)
		}
	}
	return Funcs{
		Dim: d,
		LogReference: func(x []float64) float64 {
			q := 0.0
			for _, v := range x {
				q += v * v
			}
			return -q / 2
		},
		LogTarget: func(x []float64) float64 {
			p := make([]float64, len(x))
			prec(x, p)
			q := 0.0
			for i, v := range x {
				q += (v - mu) * p[i]
			}
			return -q / 2
		},
		SampleReference: func(r Rand, x []float64) {
			for i := range x {
				x[i] = r.Normal()
			}
		},
		GradLogReference: func(x, g []float64) {
			for i, v := range x {
				g[i] = -v
			}
		},
		GradLogTarget: func(x, g []float64) {
			prec(x, g)
			for i := range g {
				g[i] = -g[i]
			}
		},
	}
}

// Funcs returns the model's functions (Unconstrained).
func (g *CorrelatedGaussian) Funcs() Funcs { return g.f }

// LogZ0 returns (d/2)·log 2π (Unconstrained).
func (g *CorrelatedGaussian) LogZ0() float64 { return 0.5 * float64(g.f.Dim) * math.Log(2*math.Pi) }

// ExactLogZ returns ½ log|Σ| = ½[(d−1)·log(1−ρ) + log(1+(d−1)ρ)], the
// eigenvalues of Σ being 1−ρ (d−1 times) and 1+(d−1)ρ.
func (g *CorrelatedGaussian) ExactLogZ() float64 {
	d := float64(g.f.Dim)
	return 0.5 * ((d-1)*math.Log(1-g.Rho) + math.Log(1+(d-1)*g.Rho))
}

// drawTarget writes an exact draw of the target, μ·1 + Lz.
func (g *CorrelatedGaussian) drawTarget(r Rand, x []float64) {
	z := make([]float64, len(x))
	for i := range z {
		z[i] = r.Normal()
	}
	for i := range x {
		x[i] = g.Mu
		for j := 0; j <= i; j++ {
			x[i] += g.cholesky.At(i, j) * z[j]
		}
	}
}

// exactTarget is an explorer that replaces the state of a row at the
// target, (η0, η1) = (0, 1), by an exact draw of the CorrelatedGaussian's
// target, and leaves the other rows where they are: iid target-chain
// states whose sample covariance has a known sampling error.
type exactTarget struct{ g *CorrelatedGaussian }

func (e exactTarget) Name() string                   { return "exact-target" }
func (e exactTarget) NewState(int) ExplorerState     { return e }
func (e exactTarget) EndScan()                       {}
func (e exactTarget) MarshalBinary() ([]byte, error) { return nil, nil }
func (e exactTarget) UnmarshalBinary([]byte) error   { return nil }
func (e exactTarget) Move(t *Target, r Rand, x []float64, w *[2]float64) {
	if eta0, eta1 := t.Eta(); eta0 == 0 && eta1 == 1 {
		e.g.drawTarget(r, x)
		*w = t.Energies(x)
	}
}

// TestVariationalDenseLaneFit checks the dense fit against the moments
// of a small data set worked by hand, its Cholesky factor, W0 against
// gonum's multivariate normal (distmv) plus log Z0, the gradient against
// −Σ⁻¹(x − m) with Σ⁻¹ inverted by hand, and that collinear states and
// fewer states than coordinates leave the reference as it was.
func TestVariationalDenseLaneFit(t *testing.T) {
	g, _ := NewGaussian(2, 0, 0, 0.5, 1)
	v := &variationalModel{logZ0: g.LogZ0(), dense: true}
	l := newVariationalLane(v, g.Funcs())
	// (1, 10), (2, 10), (3, 10), (6, 12): mean (3, 10.5); deviations
	// (−2, −.5), (−1, −.5), (0, −.5), (3, 1.5): Σ00 = 14/3, Σ11 = 3/3 = 1,
	// Σ01 = (1 + .5 + 0 + 4.5)/3 = 2; |Σ| = 14/3 − 4 = 2/3.
	for _, x := range [][]float64{{1, 10}, {2, 10}, {3, 10}, {6, 12}} {
		l.add(x)
	}
	if !l.fit(v.logZ0) {
		t.Fatal("fit refused four states with a positive definite covariance")
	}
	// L00 = √(14/3), L10 = 2/L00, L11 = √(1 − 4·3/14) = √(1/7).
	l00 := math.Sqrt(14.0 / 3)
	wantL := []float64{l00, 0, 2 / l00, math.Sqrt(1.0 / 7)}
	for i, w := range wantL {
		if math.Abs(l.s[i]-w) > 1e-12 {
			t.Errorf("L = %v, want %v", l.s, wantL)
			break
		}
	}
	if math.Abs(l.m[0]-3) > 1e-12 || math.Abs(l.m[1]-10.5) > 1e-12 {
		t.Errorf("m = %v, want (3, 10.5)", l.m)
	}
	sigma := mat.NewSymDense(2, []float64{14.0 / 3, 2, 2, 1})
	norm, ok := distmv.NewNormal([]float64{3, 10.5}, sigma, nil)
	if !ok {
		t.Fatal("distmv refused Σ")
	}
	// Σ⁻¹ = (3/2)·[[1, −2], [−2, 14/3]] = [[1.5, −3], [−3, 7]].
	inv := [2][2]float64{{1.5, -3}, {-3, 7}}
	grad := make([]float64, 2)
	for _, x := range [][]float64{{3, 10.5}, {0, 9}, {7.5, 12.25}} {
		if got, want := l.logDensityDense(x), norm.LogProb(x)+g.LogZ0(); math.Abs(got-want) > 1e-12 {
			t.Errorf("W0(%v) = %v, want log N + log Z0 = %v", x, got, want)
		}
		l.gradDense(x, grad)
		for i := range 2 {
			want := -(inv[i][0]*(x[0]-3) + inv[i][1]*(x[1]-10.5))
			if math.Abs(grad[i]-want) > 1e-12 {
				t.Errorf("∇W0(%v)[%d] = %v, want %v", x, i, grad[i], want)
			}
		}
	}
	before := slices.Clone(l.s)
	for _, x := range [][]float64{{1, 2}, {2, 4}, {3, 6}, {5, 10}} { // on the line x1 = 2·x0
		l.add(x)
	}
	if l.fit(v.logZ0) || !slices.Equal(l.s, before) || l.m[0] != 3 {
		t.Errorf("a fit to collinear states changed the reference to m = %v, L = %v", l.m, l.s)
	}
	g3, _ := NewGaussian(3, 0, 0, 1, 1)
	l3 := newVariationalLane(&variationalModel{logZ0: g3.LogZ0(), dense: true}, g3.Funcs())
	l3.add([]float64{1, 2, 3})
	l3.add([]float64{0, 5, -1})
	if l3.fit(0) || l3.fitted {
		t.Error("a fit to two states in three coordinates was accepted")
	}
}

// denseBlock returns a VariationalDense block of g explored by
// exactTarget, rows rows (the last the target, the first the reference),
// initialised with seed.
func denseBlock(t *testing.T, g *CorrelatedGaussian, rows int, seed uint64) (*variationalBlock, Rows, Energies, *kernel.Stream) {
	t.Helper()
	m, err := VariationalDense(g, exactTarget{g}, 1)
	if err != nil {
		t.Fatal(err)
	}
	n := rows * layout.Lanes
	rs := Rows{Eta0: make([]float64, n), Eta1: make([]float64, n), Chain: make([]int32, n)}
	for i := range rs.Chain {
		rs.Chain[i] = int32(i / layout.Lanes)
		rs.Eta1[i] = float64(rs.Chain[i]) / float64(rows-1)
		rs.Eta0[i] = 1 - rs.Eta1[i]
	}
	out := Energies{W0: make([]float64, n), W1: make([]float64, n)}
	b := m.NewBlock(BlockSpec{Rows: rows}).(*variationalBlock)
	rng := kernel.NewStream(seed, 0)
	b.Init(rng, rs, out)
	return b, rs, out, rng
}

// TestVariationalDenseFitRecoversCovariance fits the dense reference to
// n = 4000 iid draws of the correlated target (d = 4, ρ = 0.9, μ = 2),
// the target chain of a block explored by exactTarget, and checks every
// lane's m and Σ = LLᵀ against the target's within 4 standard errors of
// the sample mean (√(Σ_ii/n)) and of the sample covariance
// (√((Σ_ii Σ_jj + Σ_ij²)/(n−1)), the normal's), and that the diagonal
// fit of the same states has the target's variances.
func TestVariationalDenseFitRecoversCovariance(t *testing.T) {
	const d, n = 4, 4000
	g := NewCorrelatedGaussian(t, d, 0.9, 2, AutoMALA{})
	b, rs, out, rng := denseBlock(t, g, 2, 11)
	for range n {
		b.Explore(rng, rs, out)
	}
	b.EndScan()
	for j, l := range b.lanes {
		if !l.fitted {
			t.Fatalf("lane %d not fitted", j)
		}
		low := mat.NewTriDense(d, mat.Lower, l.s)
		var fit mat.Dense
		fit.Mul(low, low.T())
		for i := range d {
			if se := math.Sqrt(1.0 / n); math.Abs(l.m[i]-g.Mu) > 4*se {
				t.Errorf("lane %d: m[%d] = %v, want %v ± %v", j, i, l.m[i], g.Mu, 4*se)
			}
			for k := range d {
				s := g.Sigma.At(i, k)
				se := math.Sqrt((g.Sigma.At(i, i)*g.Sigma.At(k, k) + s*s) / (n - 1))
				if math.Abs(fit.At(i, k)-s) > 4*se {
					t.Errorf("lane %d: Σ[%d][%d] = %v, want %v ± %v", j, i, k, fit.At(i, k), s, 4*se)
				}
			}
		}
	}
}

// TestVariationalDenseReferenceDraws checks the reference chain after a
// dense fit: a block's row at (η0, η1) = (1, 0) draws exactly from
// N(m, Σ), Σ = LLᵀ of its lane, tested on 20000 draws of lane 3 by the
// Mahalanobis distances (x−m)ᵀΣ⁻¹(x−m), Σ⁻¹ by gonum's mat.Inverse, which
// follow χ²_4 (Kolmogorov–Smirnov distance below 1.63/√n, the 1%
// critical value) and the sample means (within 4 se); and the block's W0
// of each draw is gonum's multivariate normal log density plus log Z0.
func TestVariationalDenseReferenceDraws(t *testing.T) {
	const d, n, lane = 4, 20000, 3
	g := NewCorrelatedGaussian(t, d, 0.9, 2, AutoMALA{})
	b, rs, out, rng := denseBlock(t, g, 2, 12)
	for range 500 {
		b.Explore(rng, rs, out)
	}
	b.EndScan()
	l := b.lanes[lane]
	low := mat.NewTriDense(d, mat.Lower, l.s)
	var sd mat.Dense
	sd.Mul(low, low.T())
	sigma := mat.NewSymDense(d, slices.Clone(sd.RawMatrix().Data))
	for i := range d { // symmetric to the last bit, for distmv
		for k := range i {
			sigma.SetSym(i, k, sd.At(i, k))
		}
	}
	var inv mat.Dense
	if err := inv.Inverse(sigma); err != nil {
		t.Fatal(err)
	}
	norm, ok := distmv.NewNormal(l.m, sigma, nil)
	if !ok {
		t.Fatal("distmv refused the fitted Σ")
	}
	x, q, sum := make([]float64, d), make([]float64, n), make([]float64, d)
	for k := range n {
		b.Explore(rng, rs, out) // row 0 is the reference: an exact draw
		b.Observe(x, 0, lane)
		if got, want := out.W0[lane], norm.LogProb(x)+g.LogZ0(); math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Fatalf("draw %d: W0 = %v, want %v", k, got, want)
		}
		e := mat.NewVecDense(d, nil)
		for i := range d {
			e.SetVec(i, x[i]-l.m[i])
			sum[i] += x[i]
		}
		q[k] = mat.Inner(e, &inv, e)
	}
	for i := range d {
		if se := math.Sqrt(sigma.At(i, i) / n); math.Abs(sum[i]/n-l.m[i]) > 4*se {
			t.Errorf("coordinate %d: mean of the draws %v, want %v ± %v", i, sum[i]/n, l.m[i], 4*se)
		}
	}
	slices.Sort(q)
	chi := distuv.ChiSquared{K: d}
	ks := 0.0
	for i, v := range q {
		c := chi.CDF(v)
		ks = max(ks, math.Abs(c-float64(i)/n), math.Abs(float64(i+1)/n-c))
	}
	if crit := 1.63 / math.Sqrt(n); ks > crit {
		t.Errorf("Mahalanobis distances: KS distance %v from χ²_4, above %v", ks, crit)
	}
}

// TestVariationalDenseSameOnEveryKernelTier runs a dense variational
// block of the correlated target under AutoMALA (3 rows, 200 sweeps with
// a refit after each 50) under every kernel implementation, and checks
// that states and energies agree bit for bit with the generic kernels'.
func TestVariationalDenseSameOnEveryKernelTier(t *testing.T) {
	if len(kernel.Impls()) == 1 {
		t.Skip("only the generic kernels in this build")
	}
	g := NewCorrelatedGaussian(t, 4, 0.9, 2, AutoMALA{})
	run := func() []float64 {
		m, err := VariationalDense(g, AutoMALA{}, 4)
		if err != nil {
			t.Fatal(err)
		}
		b := m.NewBlock(BlockSpec{Rows: 3}).(*variationalBlock)
		n := 3 * layout.Lanes
		eta0, eta1 := make([]float64, n), make([]float64, n)
		for i := range eta0 {
			eta1[i] = float64(i/layout.Lanes) / 2 // rows at 0, 1/2, 1
			eta0[i] = 1 - eta1[i]
		}
		rs := testRows(eta0, eta1)
		out := Energies{W0: make([]float64, n), W1: make([]float64, n)}
		rng := kernel.NewStream(5, 2)
		b.Init(rng, rs, out)
		for s := range 200 {
			b.Explore(rng, rs, out)
			if s%50 == 49 {
				b.EndScan()
			}
		}
		if !b.lanes[0].fitted {
			t.Fatal("lane 0 not fitted")
		}
		return slices.Concat(b.fb.x, out.W0, out.W1, b.lanes[0].s)
	}
	restore, err := kernel.SetImpl("generic")
	if err != nil {
		t.Fatal(err)
	}
	want := run()
	restore()
	for _, name := range kernel.Impls() {
		restore, err := kernel.SetImpl(name)
		if err != nil {
			t.Fatal(err)
		}
		got := run()
		restore()
		for i := range want {
			if !sameFloat(got[i], want[i]) {
				t.Fatalf("impl=%s: value %d differs: %v, generic %v", name, i, got[i], want[i])
			}
		}
	}
}

// TestWithVariational checks the family names: "diag" and "" give
// Variational's model, "dense" VariationalDense's (by their
// descriptions), an unknown family is ErrUnknownFamily, and the dense
// family or the diag family given with the fixed reference is
// ErrFamilyWithoutVariational, and the fixed reference without a family
// is the model itself.
func TestWithVariational(t *testing.T) {
	g, _ := NewGaussian(2, -1, 1, 1, 1)
	for family, want := range map[string]string{"": "variational diagonal", "diag": "variational diagonal", "dense": "variational dense"} {
		m, err := WithVariational("variational", family, g, 3)
		if d, ok := m.(Described); err != nil || !ok || d.Description()[:len(want)] != want {
			t.Errorf("family %q: %v, %T; want a model described %q", family, err, m, want)
		}
	}
	if _, err := WithVariational("variational", "full", g, 3); !errors.Is(err, ErrUnknownFamily) {
		t.Errorf("family full: %v, want ErrUnknownFamily", err)
	}
	for _, family := range []string{"dense", "diag"} {
		if _, err := WithVariational("fixed", family, g, 3); !errors.Is(err, ErrFamilyWithoutVariational) {
			t.Errorf("fixed reference, family %s: %v, want ErrFamilyWithoutVariational", family, err)
		}
	}
	if m, err := WithVariational("fixed", "", g, 3); err != nil || m != Model(g) {
		t.Errorf("fixed reference, no family: %v, %T; want the model itself", err, m)
	}
}
