package models

import (
	"fmt"
	"math"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// Gaussian is the d-dimensional isotropic Gaussian pair of the paper's
// Gaussian experiments: reference N(Mu0·1, Sigma0² I) and target
// N(Mu1·1, Sigma1² I),
//
//	W_i(x) = -Σ_d (x_d - μ_i)² / (2σ_i²),  i = 0, 1.
//
// Every annealed density exp(η0 W0 + η1 W1) with η0/σ0² + η1/σ1² > 0 is the
// Gaussian N(m·1, s² I) with precision p = η0/σ0² + η1/σ1², s² = 1/p and
// m = (η0 μ0/σ0² + η1 μ1/σ1²)/p, so local exploration is an exact
// independent draw (the paper's appendix "Experimental details", Gaussian).
type Gaussian struct {
	Dim            int
	Mu0, Mu1       float64
	Sigma0, Sigma1 float64
}

// NewGaussian returns the Gaussian model, or an error naming the first bad
// parameter: dim below 1, a mean outside ±MaxGaussianMean, a standard
// deviation outside [MinGaussianSigma, MaxGaussianSigma], or parameters
// whose energy scale exceeds MaxGaussianEnergy.
func NewGaussian(dim int, mu0, mu1, sigma0, sigma1 float64) (*Gaussian, error) {
	inSigma := func(s float64) bool { return s >= MinGaussianSigma && s <= MaxGaussianSigma }
	switch {
	case dim < 1:
		return nil, fmt.Errorf("dim must be at least 1, got %d", dim)
	case !(math.Abs(mu0) <= MaxGaussianMean):
		return nil, fmt.Errorf("mu0 must be in [-1e100, 1e100], got %v", mu0)
	case !(math.Abs(mu1) <= MaxGaussianMean):
		return nil, fmt.Errorf("mu1 must be in [-1e100, 1e100], got %v", mu1)
	case !inSigma(sigma0):
		return nil, fmt.Errorf("sigma0 must be in [1e-100, 1e100], got %v", sigma0)
	case !inSigma(sigma1):
		return nil, fmt.Errorf("sigma1 must be in [1e-100, 1e100], got %v", sigma1)
	case GaussianEnergyScale(dim, mu0, mu1, sigma0, sigma1) > 300:
		return nil, fmt.Errorf("the energies of dim %d, mu0 %v, mu1 %v, sigma0 %v, sigma1 %v would reach 1e%.0f, beyond 1e300", dim, mu0, mu1, sigma0, sigma1,
			GaussianEnergyScale(dim, mu0, mu1, sigma0, sigma1))
	}
	return &Gaussian{Dim: dim, Mu0: mu0, Mu1: mu1, Sigma0: sigma0, Sigma1: sigma1}, nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Name returns "gaussian".
func (g *Gaussian) Name() string { return "gaussian" }

// ExactDraws returns true: local exploration is an exact draw.
func (g *Gaussian) ExactDraws() bool { return true }

// Observables returns the coordinates "x0", …, "x{Dim-1}".
func (g *Gaussian) Observables() []string { return Coordinates(g.Dim) }

// Annealed returns the mean m and standard deviation s of every coordinate
// of the annealed density exp(eta0·W0 + eta1·W1), and ok = false when the
// precision eta0/σ0² + eta1/σ1² is not positive.
func (g *Gaussian) Annealed(eta0, eta1 float64) (m, s float64, ok bool) {
	a0 := eta0 / (g.Sigma0 * g.Sigma0)
	a1 := eta1 / (g.Sigma1 * g.Sigma1)
	p := a0 + a1
	if !(p > 0) || math.IsInf(p, 0) {
		return math.NaN(), math.NaN(), false
	}
	return (a0*g.Mu0 + a1*g.Mu1) / p, 1 / math.Sqrt(p), true
}

// GaussianChunkRows is the number of rows whose normals the Gaussian's move draws
// in one fill (benchmarks' roofline draws them the same way): a
// fill of about 512 rows of lanes (32 KiB) stays in the L1 cache, and an even
// number of normals per fill keeps every Box–Muller pair whole. The chunking
// fixes the order in which a lane's draws become coordinates, so the scalar
// reference uses it too.
func GaussianChunkRows(dim int) int {
	c := 512 / dim
	if c < 1 {
		return 1
	}
	if c > 1 && c*dim%2 == 1 {
		c--
	}
	return c
}

// NewBlock allocates a block of spec.Rows states.
func (g *Gaussian) NewBlock(spec BlockSpec) Block {
	rows := spec.Rows
	n := rows * layout.Lanes
	chunk := GaussianChunkRows(g.Dim)
	zTop, z := 2*g.Dim*layout.Lanes, min(chunk, rows)*g.Dim*layout.Lanes
	// One allocation for all seven arrays; every length is a multiple of
	// layout.Lanes, so each starts 64-byte aligned as Float64s's do.
	all := layout.Float64s(5*n + zTop + z)
	take := func(k int) []float64 {
		r := all[:k:k]
		all = all[k:]
		return r
	}
	b := &gaussianBlock{g: g, rows: rows, chunk: chunk,
		m: take(n), s: take(n), eta0: take(n), eta1: take(n), first: take(n), zTop: take(zTop), z: take(z)}
	for i := range b.eta0 {
		b.eta0[i] = math.NaN() // no coefficients cached yet
	}
	return b
}

type gaussianBlock struct {
	g          *Gaussian
	rows       int
	chunk      int       // rows per normal fill
	z          []float64 // chunk*Dim rows of normals, scratch
	m, s       []float64 // per row and lane: mean and sd of the annealed density
	eta0, eta1 []float64 // the coefficients m and s were computed for
	epoch      uint64    // the Rows.Epoch of eta0 and eta1 (0: unknown)
	first      []float64 // per row and lane: x_0 (the kernel writes it)
	// zTop keeps the normals of the last two rows (dim rows of lanes
	// each), from which Observe rebuilds their states: x = m + s z.
	zTop []float64
}

// Init draws every row from the reference N(μ0, σ0²): Explore at η =
// (1, 0) on every row, with the reference's mean and sd computed once
// and cached for every row, as Explore would cache them.
func (b *gaussianBlock) Init(rng *kernel.Stream, rows Rows, out Energies) {
	m, s, ok := b.g.Annealed(1, 0)
	if !ok {
		m, s = math.NaN(), math.NaN()
	}
	for i := range b.m {
		b.m[i], b.s[i], b.eta0[i], b.eta1[i] = m, s, 1, 0
	}
	b.Explore(rng, Rows{Eta0: b.eta0, Eta1: b.eta1, Chain: rows.Chain}, out)
}

// Observe writes the first len(dst) coordinates of the state in row row
// (one of the last two), lane lane: x_d = FMA(s, z_d, m), the operation of
// asm.GaussEnergyGeneric, so x_0 equals the kernel's first coordinate bit
// for bit.
func (b *gaussianBlock) Observe(dst []float64, row, lane int) {
	const L = layout.Lanes
	top := row - (b.rows - 2)
	if top < 0 || top > 1 || len(dst) > b.g.Dim {
		panic("models: Gaussian observes only its last two rows")
	}
	i := row*L + lane
	z := b.zTop[top*b.g.Dim*L:]
	for d := range dst {
		dst[d] = math.FMA(b.s[i], z[d*L+lane], b.m[i])
	}
}

// Explore draws every row afresh from its annealed Gaussian: normals for a
// chunk of rows at a time, x_d = m + s z_d, with the energies accumulated
// over d in order by kernel.GaussEnergy (fused: x is never stored). The
// mean and sd are recomputed only where the coefficients changed, which
// for the engine's chain-ordered rows is once a scan (and compared only
// when rows.Epoch says they may have).
func (b *gaussianBlock) Explore(rng *kernel.Stream, rows Rows, out Energies) {
	const L = layout.Lanes
	g := b.g
	if rows.Epoch == 0 || rows.Epoch != b.epoch {
		eta0, eta1 := rows.Eta0, rows.Eta1
		for i := range b.m {
			if eta0[i] != b.eta0[i] || eta1[i] != b.eta1[i] {
				m, s, ok := g.Annealed(eta0[i], eta1[i])
				if !ok {
					m, s = math.NaN(), math.NaN()
				}
				b.m[i], b.s[i] = m, s
				b.eta0[i], b.eta1[i] = eta0[i], eta1[i]
			}
		}
		b.epoch = rows.Epoch
	}
	h0, h1 := 0.5/(g.Sigma0*g.Sigma0), 0.5/(g.Sigma1*g.Sigma1)
	for r0 := 0; r0 < b.rows; r0 += b.chunk {
		r1 := min(r0+b.chunk, b.rows)
		lo, hi := r0*L, r1*L
		z := b.z[:(r1-r0)*g.Dim*L]
		rng.Normal(z)
		kernel.GaussEnergy(out.W0[lo:hi], out.W1[lo:hi], b.first[lo:hi], b.m[lo:hi], b.s[lo:hi], z, g.Dim, g.Mu0, g.Mu1, h0, h1)
		// Keep the normals of the last two rows for Observe.
		for r := max(r0, b.rows-2); r < r1; r++ {
			n := g.Dim * L
			copy(b.zTop[(r-(b.rows-2))*n:][:n], z[(r-r0)*n:][:n])
		}
	}
}

// Scalar returns the reference implementation.
func (g *Gaussian) Scalar() Scalar { return gaussianScalar{g} }

type gaussianScalar struct{ g *Gaussian }

func (s gaussianScalar) Init(rng Lane, rows int) ([][]float64, []float64, []float64) {
	states := make([][]float64, rows)
	for r := range states {
		states[r] = make([]float64, s.g.Dim)
	}
	eta0 := make([]float64, rows)
	for r := range eta0 {
		eta0[r] = 1
	}
	w0, w1 := s.Explore(rng, states, eta0, make([]float64, rows), nil)
	return states, w0, w1
}

func (s gaussianScalar) Explore(rng Lane, states [][]float64, eta0, eta1 []float64, _ []int) ([]float64, []float64) {
	g := s.g
	rows := len(states)
	z := make([]float64, 0, rows*g.Dim)
	for r0 := 0; r0 < rows; r0 += GaussianChunkRows(g.Dim) {
		z = append(z, kernel.Normals(rng, (min(r0+GaussianChunkRows(g.Dim), rows)-r0)*g.Dim)...)
	}
	w0 := make([]float64, rows)
	w1 := make([]float64, rows)
	for r := range states {
		m, sd, ok := g.Annealed(eta0[r], eta1[r])
		for d := range states[r] {
			states[r][d] = math.FMA(sd, z[r*g.Dim+d], m)
		}
		if !ok {
			w0[r], w1[r] = math.NaN(), math.NaN()
			continue
		}
		w0[r], w1[r] = g.logDensities(states[r])
	}
	return w0, w1
}

// logDensities returns W0(x) and W1(x), summing over coordinates in order.
func (g *Gaussian) logDensities(x []float64) (w0, w1 float64) {
	acc0, acc1 := 0.0, 0.0
	for _, xd := range x {
		d0, d1 := xd-g.Mu0, xd-g.Mu1
		acc0 = math.FMA(d0, d0, acc0)
		acc1 = math.FMA(d1, d1, acc1)
	}
	return -acc0 * (0.5 / (g.Sigma0 * g.Sigma0)), -acc1 * (0.5 / (g.Sigma1 * g.Sigma1))
}
