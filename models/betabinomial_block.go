package models

import (
	"math"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// bbChunkRows is the number of rows whose first attempts are drawn in one
// fill: 2·256 rows of lanes of normals and as many of uniforms, 32 KiB
// each, stay in the L1 and L2 caches. The chunking fixes the order of a
// lane's draws, so the scalar reference uses it too.
const bbChunkRows = 256

// Order of a lane's random numbers in one Explore (or Init), the same for
// the block and the scalar reference. The rows are taken in chunks of
// bbChunkRows; for a chunk of n rows, lane j draws
//
//  1. 2n normals by Stream.Normal (n Box–Muller pairs from 2n uniforms):
//     the pair of row k gives x_A (cosine half) and x_B (sine half), the
//     first Marsaglia–Tsang attempts of G_A and G_B;
//  2. 2n uniforms by Stream.Uniform: u_A, u_B of row k are its draws 2k
//     and 2k+1;
//  3. then, row by row in order: kernel.FinishGamma of G_A (while its
//     attempt is rejected, a new attempt: a normal by kernel.Normal — two
//     uniforms, cosine half — and, when 1 + cx > 0, a uniform; if α < 1,
//     the boost uniform), then the same for G_B.
//
// Every lane draws steps 1 and 2 whatever its coefficients (improper rows
// included, whose numbers are wasted); step 3 depends only on the lane's
// own numbers and coefficients. So a replicate's draws never depend on its
// lane, on the other lanes or on the number of replicates, and every gamma
// variate is made of i.i.d. attempts, hence exact.

// NewBlock allocates a block of spec.Rows states.
func (m *BetaBinomial) NewBlock(spec BlockSpec) Block {
	const L = layout.Lanes
	rows := spec.Rows
	n := rows * L
	chunk := min(bbChunkRows, rows) * L
	b := &betaBinomialBlock{
		m:    m,
		rows: rows,
		eta0: layout.Float64s(n),
		eta1: layout.Float64s(n),
		sA:   layout.Float64s(n),
		sB:   layout.Float64s(n),
		gsA:  make([]kernel.GammaSampler, n),
		gsB:  make([]kernel.GammaSampler, n),
		conc: layout.Float64s(2 * n),
		z:    layout.Float64s(2 * chunk),
		u:    layout.Float64s(2 * chunk),
		g:    layout.Float64s(2 * chunk),
		pq:   layout.Float64s(2 * chunk),
		lpq:  layout.Float64s(2 * chunk),
		lb:   layout.Float64s(2 * chunk),
		p:    layout.Float64s(n),
		kind: make([]uint8, n),
	}
	for i := range b.eta0 {
		// Coefficients NaN, whose shapes are improper.
		b.eta0[i] = math.NaN()
		b.setShapes(i, 0, 0, false)
	}
	return b
}

type betaBinomialBlock struct {
	m          *BetaBinomial
	rows       int
	eta0, eta1 []float64              // the coefficients the shapes were computed for
	sA, sB     []float64              // per row and lane: annealed shapes α, β, NaN when improper
	gsA, gsB   []kernel.GammaSampler  // per row and lane: samplers of Gamma(α), Gamma(β), zero when improper
	conc       []float64              // per row: the lanes' Marsaglia–Tsang shapes of G_A, then of G_B (1 when improper)
	z, u       []float64              // scratch: first attempts of a chunk, 2 rows per row
	g          []float64              // scratch: first attempts of a chunk, 2 rows per row: accepted values, 0 if rejected
	pq, lpq    []float64              // scratch: p and 1-p of a chunk, 2 rows per row, and their logarithms
	lb         []float64              // scratch: log p and log(1-p) of the boosted rows of a chunk, 2 rows per row
	logs       kernel.GammaLogScratch // scratch of kernel.GammaTryLog
	p          []float64              // per row and lane: the state p, NaN when improper
	kind       []uint8                // per row and lane: bbPlain, bbBoosted or bbImproper
	special    int                    // the number of rows and lanes whose kind is not bbPlain
}

// The kinds of a row and lane's annealed Beta(α, β): both shapes at least
// 1, one below 1 (a boosted gamma variate), or no proper density.
const (
	bbPlain uint8 = iota
	bbBoosted
	bbImproper
)

// Observe writes the state p of row row, lane lane.
func (b *betaBinomialBlock) Observe(dst []float64, row, lane int) {
	dst[0] = b.p[row*layout.Lanes+lane]
}

// Init draws every row from the prior Beta(A, B).
func (b *betaBinomialBlock) Init(rng *kernel.Stream, rows Rows, out Energies) {
	eta0 := layout.Float64s(b.rows * layout.Lanes)
	eta1 := layout.Float64s(b.rows * layout.Lanes)
	for i := range eta0 {
		eta0[i] = 1
	}
	b.Explore(rng, Rows{Eta0: eta0, Eta1: eta1, Chain: rows.Chain}, out)
}

// update recomputes the shapes and gamma samplers where the coefficients
// changed, which for the engine's chain-ordered rows is once a scan; it
// returns at once when every coefficient has the bits of the cached one,
// whose shapes are those in the block. An improper row gets NaN shapes
// and zero samplers: their Try returns 0 (their d is 0), and Explore never
// passes them to FinishGamma.
func (b *betaBinomialBlock) update(eta0, eta1 []float64) {
	if sameRows(eta0, b.eta0) && sameRows(eta1, b.eta1) {
		return
	}
	for i := range b.sA {
		if eta0[i] == b.eta0[i] && eta1[i] == b.eta1[i] {
			continue
		}
		b.eta0[i], b.eta1[i] = eta0[i], eta1[i]
		sA, sB, ok := b.m.Annealed(eta0[i], eta1[i])
		b.setShapes(i, sA, sB, ok)
	}
}

// sameRows reports whether x and y, of the same length, a multiple of
// layout.Lanes, hold the same bits, a row of lanes at a time.
func sameRows(x, y []float64) bool {
	const L = layout.Lanes
	var diff uint64
	bits := math.Float64bits
	for r := 0; r+L <= len(x); r += L {
		a, b := (*[L]float64)(x[r:r+L]), (*[L]float64)(y[r:r+L])
		diff |= (bits(a[0]) ^ bits(b[0])) | (bits(a[1]) ^ bits(b[1])) | (bits(a[2]) ^ bits(b[2])) | (bits(a[3]) ^ bits(b[3])) |
			(bits(a[4]) ^ bits(b[4])) | (bits(a[5]) ^ bits(b[5])) | (bits(a[6]) ^ bits(b[6])) | (bits(a[7]) ^ bits(b[7]))
	}
	return diff == 0
}

// setShapes sets the shapes of row and lane i (i = row·Lanes + lane) to
// those of Beta(sA, sB), or to NaN unless ok, and rebuilds its samplers.
func (b *betaBinomialBlock) setShapes(i int, sA, sB float64, ok bool) {
	if !ok {
		sA, sB = math.NaN(), math.NaN()
	}
	b.sA[i], b.sB[i] = sA, sB
	b.samplers(i)
}

// samplers builds the gamma samplers and Marsaglia–Tsang shapes of row and
// lane i from its shapes: zero samplers and shapes 1 when the row is
// improper (sA not positive).
func (b *betaBinomialBlock) samplers(i int) {
	const L = layout.Lanes
	c := 2*i - i%L // the row's G_A shapes start at 2·row·L
	if b.kind[i] != bbPlain {
		b.special--
	}
	if !(b.sA[i] > 0) {
		b.gsA[i], b.gsB[i] = kernel.GammaSampler{}, kernel.GammaSampler{}
		b.conc[c], b.conc[c+L] = 1, 1
		b.kind[i] = bbImproper
		b.special++
		return
	}
	b.gsA[i], b.gsB[i] = kernel.NewGammaSampler(b.sA[i]), kernel.NewGammaSampler(b.sB[i])
	b.conc[c], b.conc[c+L] = mtShape(b.gsA[i]), mtShape(b.gsB[i])
	b.kind[i] = bbPlain
	if b.gsA[i].Boosted() || b.gsB[i].Boosted() {
		b.kind[i] = bbBoosted
		b.special++
	}
}

// mtShape returns the shape a of g's Marsaglia–Tsang attempts: its shape,
// or its shape + 1 when it boosts (kernel.GammaSampler), the shape whose
// squeeze kernel.MixGammaTry evaluates.
func mtShape(g kernel.GammaSampler) float64 {
	if g.Boosted() {
		return g.Shape() + 1
	}
	return g.Shape()
}

// Explore draws every row afresh from its annealed Beta(α, β) as
// G_A/(G_A + G_B) with G_A ~ Gamma(α, 1), G_B ~ Gamma(β, 1) (see
// BetaBinomial and kernel.GammaSampler), in the draw order described
// above. A chunk of rows is done in passes, all but the third for all
// lanes at once: the first attempts from two batched fills; their values
// GammaSampler.Try would give, the squeeze by kernel.MixGammaTry and the
// logarithmic test of the attempts it refused by kernel.GammaTryLog; lane
// by lane, the rare retries (under 5% of attempts for shapes ≥ 1, about
// 0.1% for the paper's shapes) and the boosts of shapes below 1
// (kernel.FinishGamma) and the ratios p, 1-p; their logarithms
// (kernel.MixLog, math.Log bit for bit); the energies.
func (b *betaBinomialBlock) Explore(rng *kernel.Stream, rows Rows, out Energies) {
	const L = layout.Lanes
	n := b.rows * L
	eta0, eta1 := rows.Eta0, rows.Eta1
	if len(eta0) != n || len(eta1) != n || len(out.W0) != n || len(out.W1) != n {
		panic("models: slice lengths do not match")
	}
	b.update(eta0, eta1)
	for r0 := 0; r0 < b.rows; r0 += bbChunkRows {
		r1 := min(r0+bbChunkRows, b.rows)
		k := 2 * (r1 - r0) * L
		z, u, g := b.z[:k], b.u[:k], b.g[:k]
		rng.Normal(z)
		rng.Uniform(u)
		conc := b.conc[2*r0*L : 2*r1*L]
		kernel.MixGammaTry(g, conc, z, u)
		kernel.GammaTryLog(g, conc, z, u, &b.logs)
		b.ratios(rng, r0, r1)
		kernel.MixLog(b.lpq[:k], b.pq[:k])
		b.energies(r0, r1, out)
	}
}

// ratios completes, lane by lane in row order, the gamma variates of rows
// r0 to r1 (whose first attempts' Try values are in g) and sets their
// states p and, in pq, p and 1-p. A plain row whose two first attempts
// were accepted draws nothing more and is done here; the others take
// finish.
func (b *betaBinomialBlock) ratios(rng *kernel.Stream, r0, r1 int) {
	const L = layout.Lanes
	for q := 0; q < r1-r0; q++ {
		g := (*[2 * L]float64)(b.g[2*q*L:])
		pq := (*[2 * L]float64)(b.pq[2*q*L:])
		p := (*[L]float64)(b.p[(r0+q)*L:])
		kind := (*[L]uint8)(b.kind[(r0+q)*L:])
		for j := 0; j < L; j++ {
			gA, gB := g[j], g[j+L]
			if gA == 0 || gB == 0 || kind[j] != bbPlain {
				b.finish(rng, r0+q, q, j)
				continue
			}
			s := gA + gB
			p[j] = gA / s
			pq[j], pq[j+L] = p[j], gB/s
		}
	}
}

// finish completes row r, lane j (row q of the chunk) as betaFromGammas
// does: kernel.FinishGamma's retries and boost, then p and 1-p in pq, or
// for a boosted row its logarithms in lb (and 1s in pq). An improper row
// gets the state NaN.
func (b *betaBinomialBlock) finish(rng *kernel.Stream, r, q, j int) {
	const L = layout.Lanes
	i, a := r*L+j, 2*q*L+j
	g, pq := b.g, b.pq
	pq[a], pq[a+L] = 1, 1
	if b.kind[i] == bbImproper {
		b.p[i] = math.NaN()
		return
	}
	lane := rng.Lane(j)
	ga, lba := kernel.FinishGamma(lane, b.gsA[i], g[a])
	gb, lbb := kernel.FinishGamma(lane, b.gsB[i], g[a+L])
	if b.kind[i] == bbBoosted {
		b.p[i], b.lb[a], b.lb[a+L] = betaFromGammas(ga, lba, gb, lbb, true)
		return
	}
	s := ga + gb
	b.p[i] = ga / s
	pq[a], pq[a+L] = b.p[i], gb/s
}

// energies sets the energies of rows r0 to r1 (BetaBinomial.energies)
// from the logarithms in lpq, the MixLog of pq, which is betaFromGammas's
// math.Log of the same ratios; then, if the block has any, those of the
// boosted rows from lb and NaN for the improper ones.
func (b *betaBinomialBlock) energies(r0, r1 int, out Energies) {
	const L = layout.Lanes
	c := b.m.coefs()
	for q := 0; q < r1-r0; q++ {
		lpq := (*[2 * L]float64)(b.lpq[2*q*L:])
		w0 := (*[L]float64)(out.W0[(r0+q)*L:])
		w1 := (*[L]float64)(out.W1[(r0+q)*L:])
		for j := 0; j < L; j++ {
			w0[j], w1[j] = c.energies(lpq[j], lpq[j+L])
		}
	}
	if b.special == 0 {
		return
	}
	for q := 0; q < r1-r0; q++ {
		for j := 0; j < L; j++ {
			i, a := (r0+q)*L+j, 2*q*L+j
			switch b.kind[i] {
			case bbImproper:
				out.W0[i], out.W1[i] = math.NaN(), math.NaN()
			case bbBoosted:
				out.W0[i], out.W1[i] = c.energies(b.lb[a], b.lb[a+L])
			}
		}
	}
}

// Scalar returns the reference implementation.
func (m *BetaBinomial) Scalar() Scalar { return betaBinomialScalar{m} }

type betaBinomialScalar struct{ m *BetaBinomial }

func (s betaBinomialScalar) Init(rng Lane, rows int) ([][]float64, []float64, []float64) {
	states := make([][]float64, rows)
	for r := range states {
		states[r] = make([]float64, 1)
	}
	eta0 := make([]float64, rows)
	for r := range eta0 {
		eta0[r] = 1
	}
	w0, w1 := s.Explore(rng, states, eta0, make([]float64, rows), nil)
	return states, w0, w1
}

func (s betaBinomialScalar) Explore(rng Lane, states [][]float64, eta0, eta1 []float64, _ []int) ([]float64, []float64) {
	rows := len(states)
	w0 := make([]float64, rows)
	w1 := make([]float64, rows)
	for r0 := 0; r0 < rows; r0 += bbChunkRows {
		r1 := min(r0+bbChunkRows, rows)
		n := r1 - r0
		z := kernel.Normals(rng, 2*n)
		u := make([]float64, 2*n)
		for k := range u {
			u[k] = rng.Uniform()
		}
		for r := r0; r < r1; r++ {
			k := r - r0
			alpha, beta, ok := s.m.Annealed(eta0[r], eta1[r])
			if !ok {
				states[r][0], w0[r], w1[r] = math.NaN(), math.NaN(), math.NaN()
				continue
			}
			gsA, gsB := kernel.NewGammaSampler(alpha), kernel.NewGammaSampler(beta)
			ga, lba := kernel.FinishGamma(rng, gsA, gsA.Try(z[2*k], u[2*k]))
			gb, lbb := kernel.FinishGamma(rng, gsB, gsB.Try(z[2*k+1], u[2*k+1]))
			p, lp, lq := betaFromGammas(ga, lba, gb, lbb, gsA.Boosted() || gsB.Boosted())
			states[r][0] = p
			w0[r], w1[r] = s.m.energies(lp, lq)
		}
	}
	return w0, w1
}
