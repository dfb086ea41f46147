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
		z:    layout.Float64s(2 * chunk),
		u:    layout.Float64s(2 * chunk),
		gA:   layout.Float64s(chunk),
		gB:   layout.Float64s(chunk),
		p:    layout.Float64s(n),
	}
	for i := range b.eta0 {
		b.eta0[i] = math.NaN() // no coefficients cached yet
	}
	return b
}

type betaBinomialBlock struct {
	m          *BetaBinomial
	rows       int
	eta0, eta1 []float64             // the coefficients the shapes were computed for
	sA, sB     []float64             // per row and lane: annealed shapes α, β, NaN when improper
	gsA, gsB   []kernel.GammaSampler // per row and lane: samplers of Gamma(α), Gamma(β), zero when improper
	z, u       []float64             // scratch: first attempts of a chunk, 2 rows per row
	gA, gB     []float64             // scratch: accepted first attempts of a chunk, 0 if rejected
	p          []float64             // per row and lane: the state p, NaN when improper
}

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
// changed, which for the engine's chain-ordered rows is once a scan. An
// improper row gets NaN shapes and zero samplers: their Try returns 0
// (their d is 0), and Explore never passes them to FinishGamma.
func (b *betaBinomialBlock) update(eta0, eta1 []float64) {
	for i := range b.sA {
		if eta0[i] == b.eta0[i] && eta1[i] == b.eta1[i] {
			continue
		}
		b.eta0[i], b.eta1[i] = eta0[i], eta1[i]
		sA, sB, ok := b.m.Annealed(eta0[i], eta1[i])
		if !ok {
			b.sA[i], b.sB[i] = math.NaN(), math.NaN()
			b.gsA[i], b.gsB[i] = kernel.GammaSampler{}, kernel.GammaSampler{}
			continue
		}
		b.sA[i], b.sB[i] = sA, sB
		b.gsA[i], b.gsB[i] = kernel.NewGammaSampler(sA), kernel.NewGammaSampler(sB)
	}
}

// Explore draws every row afresh from its annealed Beta(α, β) as
// G_A/(G_A + G_B) with G_A ~ Gamma(α, 1), G_B ~ Gamma(β, 1) (see
// BetaBinomial and kernel.GammaSampler), in the draw order described
// above: the first attempts of a chunk of rows come from two batched fills
// (GammaSampler.Try), and only the rare rejections (under 5% of attempts
// for shapes ≥ 1, about 0.1% for the paper's shapes) and the boosts of
// shapes below 1 draw from a lane alone (kernel.FinishGamma).
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
		k := (r1 - r0) * L
		z, u, gA, gB := b.z[:2*k], b.u[:2*k], b.gA[:k], b.gB[:k]
		rng.Normal(z)
		rng.Uniform(u)
		// First attempts, all lanes of a row together.
		for q := 0; q < r1-r0; q++ {
			for j := 0; j < L; j++ {
				i, a := (r0+q)*L+j, 2*q*L+j
				gA[q*L+j] = b.gsA[i].Try(z[a], u[a])
				gB[q*L+j] = b.gsB[i].Try(z[a+L], u[a+L])
			}
		}
		// Retries, boosts and energies: each lane draws in row order.
		for q := 0; q < r1-r0; q++ {
			for j := 0; j < L; j++ {
				i := (r0+q)*L + j
				if !(b.sA[i] > 0) {
					out.W0[i], out.W1[i], b.p[i] = math.NaN(), math.NaN(), math.NaN()
					continue
				}
				lane := rng.Lane(j)
				gsA, gsB := b.gsA[i], b.gsB[i]
				ga, lba := kernel.FinishGamma(lane, gsA, gA[q*L+j])
				gb, lbb := kernel.FinishGamma(lane, gsB, gB[q*L+j])
				p, lp, lq := betaFromGammas(ga, lba, gb, lbb, gsA.Boosted() || gsB.Boosted())
				out.W0[i], out.W1[i] = b.m.energies(lp, lq)
				b.p[i] = p
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
