package models

import (
	"math"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// NewBlock allocates a block of rows states, each row a slot whose state
// stays put while the engine moves its coefficients.
func (m *Mixture) NewBlock(rows int) Block {
	const lanes = layout.Lanes
	k, n := m.p.K, len(m.p.Data)
	kl := k * lanes
	return &mixBlock{
		m: m, rows: rows, k: k, n: n,
		w:       layout.Float64s(rows * kl),
		mu:      layout.Float64s(rows * kl),
		z:       make([]uint8, rows*n*lanes),
		logw:    layout.Float64s(kl),
		logwp:   layout.Float64s(kl),
		wp:      layout.Float64s(kl),
		wb:      layout.Float64s(kl),
		wbp:     layout.Float64s(kl),
		r:       layout.Float64s(kl),
		rp:      layout.Float64s(kl),
		c:       layout.Float64s(kl),
		cp:      layout.Float64s(kl),
		counts:  layout.Float64s(kl),
		sums:    layout.Float64s(kl),
		normals: layout.Float64s(kl),
		e:       layout.Float64s(n * kl),
		s:       layout.Float64s(n * lanes),
		sp:      layout.Float64s(n * lanes),
		inv:     layout.Float64s(n * lanes),
		invp:    layout.Float64s(n * lanes),
		u:       layout.Float64s(n * lanes),
		lane:    make([]float64, 6*k),
	}
}

// mixBlock holds rows slots × layout.Lanes replicates of the mixture state,
// struct-of-arrays with lanes innermost: weight i of row r, lane j is
// w[(r*K+i)*Lanes+j], likewise mu; label n is z[(r*N+n)*Lanes+j] (a byte).
// A sweep processes one row at a time, with every step looping over lanes
// innermost; the per-lane rejection loops of the Gamma draws take lane j's
// numbers alone (rng.Lane(j)). Per row, lane j draws, in this order: the K
// Gamma variates of the MH proposal, the MH uniform, N label uniforms, K
// normals (Stream.Normal of K rows), the K Gamma variates of the weights.
// A lane whose coefficients are improper draws the uniforms and normals
// (they are filled for all lanes at once) but no Gamma variates.
type mixBlock struct {
	m          *Mixture
	rows, k, n int
	w, mu      []float64
	z          []uint8

	// Scratch for the row being swept; K×Lanes unless noted.
	beta, gamma, g2 [layout.Lanes]float64 // β, γ, γ/(2σ²)
	ok, prop, acc   [layout.Lanes]bool    // proper; MH proposed; MH accepted
	dl              [layout.Lanes]float64 // L(w') - L(w)
	logw, logwp, wp []float64             // log w, log w', w'
	wb, wbp         []float64             // w^β, w'^β
	r, rp, c, cp    []float64             // R(w), R(w'), c(w), c(w')
	counts, sums    []float64             // n_i and Σ_{z_n=i} y_n
	normals         []float64
	e               []float64 // N×K×Lanes: E_ni of mhLogRatio
	s, sp           []float64 // N×Lanes: S_n(w), S_n(w')
	inv, invp       []float64 // N×Lanes: 1/S_n(w), 1/S_n(w')
	u               []float64 // N×Lanes uniforms
	lane            []float64 // 6×K: one lane's values gathered
}

// Init sets every row to the paper's initial state (weights 1/K, means 0,
// labels 0) and writes its energies; it draws no random numbers.
func (b *mixBlock) Init(rng *kernel.Stream, out Energies) {
	const lanes = layout.Lanes
	b.checkOut(out)
	for i := range b.z {
		b.z[i] = 0
	}
	w0 := 1 / float64(b.k)
	for i := range b.w {
		b.w[i], b.mu[i] = w0, 0
	}
	for j := 0; j < lanes; j++ {
		b.ok[j] = true
		for i := 0; i < b.k; i++ {
			b.counts[i*lanes+j] = 0
		}
		b.counts[j] = float64(b.n)
	}
	for r := 0; r < b.rows; r++ {
		b.energies(r, out)
	}
}

func (b *mixBlock) checkOut(out Energies) {
	n := b.rows * layout.Lanes
	if len(out.W0) != n || len(out.W1) != n || len(out.First) != n {
		panic("models: energy slice lengths do not match the block")
	}
}

// Explore applies one sweep (moves 1–4 of Mixture) to every row under its
// coefficients and writes the energies of the new states.
func (b *mixBlock) Explore(rng *kernel.Stream, eta0, eta1 []float64, out Energies) {
	b.checkOut(out)
	if len(eta0) != b.rows*layout.Lanes || len(eta1) != len(eta0) {
		panic("models: coefficient slice lengths do not match the block")
	}
	for r := 0; r < b.rows; r++ {
		b.coefficients(r, eta0, eta1)
		b.moveWeightsMH(r, rng)
		b.moveLabels(r, rng)
		b.moveMeans(r, rng)
		b.moveWeightsGibbs(r, rng)
		b.energies(r, out)
	}
}

// coefficients sets β, γ and properness of every lane of row r.
func (b *mixBlock) coefficients(r int, eta0, eta1 []float64) {
	const lanes = layout.Lanes
	for j := 0; j < lanes; j++ {
		b.beta[j], b.gamma[j], b.ok[j] = b.m.Annealed(eta0[r*lanes+j], eta1[r*lanes+j])
		b.g2[j] = b.gamma[j] * b.m.hLik
	}
}

// likTerms fills e with E_ni (see mhLogRatio) for row r's means.
func (b *mixBlock) likTerms(r int) {
	const lanes = layout.Lanes
	k := b.k
	kl := k * lanes
	mu := b.mu[r*kl : (r+1)*kl]
	g2 := &b.g2
	for n, y := range b.m.p.Data {
		en := b.e[n*kl : (n+1)*kl]
		var mx [lanes]float64
		for i := 0; i < k; i++ {
			a := (*[lanes]float64)(en[i*lanes:])
			m := (*[lanes]float64)(mu[i*lanes:])
			for j := range a {
				a[j] = mixLogLik(g2[j], y, m[j])
				if i == 0 || a[j] > mx[j] {
					mx[j] = a[j]
				}
			}
		}
		for i := 0; i < k; i++ {
			a := (*[lanes]float64)(en[i*lanes:])
			for j := range a {
				a[j] = mixExp(a[j] - mx[j])
			}
		}
	}
}

// weightTerms computes, for the log weights logw, wb = w^β, S_n(w) into s,
// 1/S_n(w) into inv and R(w) into rr (see mhLogRatio), summing over
// components, then observations, in order.
func (b *mixBlock) weightTerms(logw, wb, s, inv, rr []float64) {
	const lanes = layout.Lanes
	k := b.k
	kl := k * lanes
	for i := 0; i < k; i++ {
		for j := 0; j < lanes; j++ {
			wb[i*lanes+j] = math.Exp(b.beta[j] * logw[i*lanes+j])
			rr[i*lanes+j] = 0
		}
	}
	for n := range b.m.p.Data {
		en := b.e[n*kl : (n+1)*kl]
		var sum [lanes]float64
		for i := 0; i < k; i++ {
			a := (*[lanes]float64)(en[i*lanes:])
			v := (*[lanes]float64)(wb[i*lanes:])
			for j := range a {
				sum[j] += v[j] * a[j]
			}
		}
		sn := (*[lanes]float64)(s[n*lanes:])
		in := (*[lanes]float64)(inv[n*lanes:])
		for j := range sum {
			sn[j] = sum[j]
			in[j] = 1 / sum[j]
		}
		for i := 0; i < k; i++ {
			a := (*[lanes]float64)(en[i*lanes:])
			q := (*[lanes]float64)(rr[i*lanes:])
			for j := range a {
				q[j] += a[j] * in[j]
			}
		}
	}
	for i := range rr {
		rr[i] *= wb[i]
	}
}

// logLikDiff sets dl to L(w') - L(w) = Σ_n log(S_n(w')/S_n(w)) from the
// terms of both weightTerms passes, by mixLogRatioStep over n in order.
func (b *mixBlock) logLikDiff() {
	const lanes = layout.Lanes
	var p [lanes]float64
	for j := range p {
		p[j], b.dl[j] = 1, 0
	}
	for n := range b.m.p.Data {
		sp := (*[lanes]float64)(b.sp[n*lanes:])
		in := (*[lanes]float64)(b.inv[n*lanes:])
		for j := range p {
			p[j], b.dl[j] = mixLogRatioStep(p[j], b.dl[j], sp[j]*in[j])
		}
	}
	for j := range p {
		b.dl[j] += math.Log(p[j])
	}
}

// moveWeightsMH is move 1: the MH step for the weights of row r with the
// labels marginalised (mhLogRatio). It leaves the label terms E in e, and
// S_n in s, or in sp where accepted (b.acc).
func (b *mixBlock) moveWeightsMH(r int, rng *kernel.Stream) {
	const lanes = layout.Lanes
	k := b.k
	kl := k * lanes
	w := b.w[r*kl : (r+1)*kl]
	b.likTerms(r)
	for i := range w {
		b.logw[i] = math.Log(w[i])
	}
	b.weightTerms(b.logw, b.wb, b.s, b.inv, b.r)
	for i := 0; i < k; i++ {
		for j := 0; j < lanes; j++ {
			b.c[i*lanes+j] = b.m.weightConc(b.beta[j], b.r[i*lanes+j])
		}
	}
	conc, draw := b.lane[:k], b.lane[k:2*k]
	for j := 0; j < lanes; j++ {
		b.prop[j] = false
		if !b.ok[j] {
			continue
		}
		for i := 0; i < k; i++ {
			conc[i] = b.c[i*lanes+j]
		}
		if !mhProposable(conc) {
			continue
		}
		b.prop[j] = true
		mixDirichlet(rng.Lane(j), conc, draw)
		for i := 0; i < k; i++ {
			b.wp[i*lanes+j] = draw[i]
		}
	}
	for i := range b.wp {
		b.logwp[i] = math.Log(b.wp[i])
	}
	b.weightTerms(b.logwp, b.wbp, b.sp, b.invp, b.rp)
	b.logLikDiff()
	for i := 0; i < k; i++ {
		for j := 0; j < lanes; j++ {
			b.cp[i*lanes+j] = b.m.weightConc(b.beta[j], b.rp[i*lanes+j])
		}
	}
	u := b.u[:lanes]
	rng.Uniform(u)
	lw, lwp, rr, rrp, c, cp := b.lane[:k], b.lane[k:2*k], b.lane[2*k:3*k], b.lane[3*k:4*k], b.lane[4*k:5*k], b.lane[5*k:6*k]
	for j := 0; j < lanes; j++ {
		b.acc[j] = false
		if !b.prop[j] {
			continue
		}
		for i := 0; i < k; i++ {
			q := i*lanes + j
			lw[i], lwp[i], rr[i], rrp[i], c[i], cp[i] = b.logw[q], b.logwp[q], b.r[q], b.rp[q], b.c[q], b.cp[q]
		}
		if math.Log(u[j]) < mhLogRatio(b.beta[j], lw, lwp, rr, rrp, c, cp, b.dl[j]) {
			b.acc[j] = true
			for i := 0; i < k; i++ {
				w[i*lanes+j] = b.wp[i*lanes+j]
			}
		}
	}
}

// moveLabels is move 2: every label of row r from its conditional
// P(z_n = i) = w_i^β E_ni / S_n(w), by one uniform each, using the terms
// left by moveWeightsMH; it also tallies the counts and sums of the new
// labels.
func (b *mixBlock) moveLabels(r int, rng *kernel.Stream) {
	const lanes = layout.Lanes
	k := b.k
	kl := k * lanes
	rng.Uniform(b.u)
	for i := range b.counts {
		b.counts[i], b.sums[i] = 0, 0
	}
	z := b.z[r*b.n*lanes : (r+1)*b.n*lanes]
	for n, y := range b.m.p.Data {
		for j := 0; j < lanes; j++ {
			if !b.ok[j] {
				continue
			}
			wb, s := b.wb, b.s
			if b.acc[j] {
				wb, s = b.wbp, b.sp
			}
			t := b.u[n*lanes+j] * s[n*lanes+j]
			i := mixPick(wb[j:], b.e[n*kl+j:], lanes, k, t)
			z[n*lanes+j] = uint8(i)
			b.counts[i*lanes+j]++
			b.sums[i*lanes+j] += y
		}
	}
}

// moveMeans is move 3: every mean of row r from its Gaussian conditional.
func (b *mixBlock) moveMeans(r int, rng *kernel.Stream) {
	const lanes = layout.Lanes
	kl := b.k * lanes
	mu := b.mu[r*kl : (r+1)*kl]
	rng.Normal(b.normals)
	for i := 0; i < b.k; i++ {
		for j := 0; j < lanes; j++ {
			if b.ok[j] {
				q := i*lanes + j
				mu[q] = b.m.meanDraw(b.beta[j], b.gamma[j], b.counts[q], b.sums[q], b.normals[q])
			}
		}
	}
}

// moveWeightsGibbs is move 4: the weights of row r from their Dirichlet
// conditional.
func (b *mixBlock) moveWeightsGibbs(r int, rng *kernel.Stream) {
	const lanes = layout.Lanes
	k := b.k
	w := b.w[r*k*lanes : (r+1)*k*lanes]
	conc, draw := b.lane[:k], b.lane[k:2*k]
	for j := 0; j < lanes; j++ {
		if !b.ok[j] {
			continue
		}
		for i := 0; i < k; i++ {
			conc[i] = b.m.weightConc(b.beta[j], b.counts[i*lanes+j])
		}
		mixDirichlet(rng.Lane(j), conc, draw)
		for i := 0; i < k; i++ {
			w[i*lanes+j] = draw[i]
		}
	}
}

// energies writes W0, W1 and μ_0 of row r, using the counts of its labels
// (NaN energies for improper lanes, whose state did not move).
func (b *mixBlock) energies(r int, out Energies) {
	const lanes = layout.Lanes
	k := b.k
	kl := k * lanes
	w, mu := b.w[r*kl:(r+1)*kl], b.mu[r*kl:(r+1)*kl]
	z := b.z[r*b.n*lanes : (r+1)*b.n*lanes]
	var sq [lanes]float64
	for n, y := range b.m.p.Data {
		for j := 0; j < lanes; j++ {
			d := y - mu[int(z[n*lanes+j])*lanes+j]
			sq[j] += d * d
		}
	}
	lw, lmu, lc := b.lane[:k], b.lane[k:2*k], b.lane[2*k:3*k]
	for j := 0; j < lanes; j++ {
		q := r*lanes + j
		out.First[q] = mu[j]
		if !b.ok[j] {
			out.W0[q], out.W1[q] = math.NaN(), math.NaN()
			continue
		}
		for i := 0; i < k; i++ {
			lw[i], lmu[i], lc[i] = math.Log(w[i*lanes+j]), mu[i*lanes+j], b.counts[i*lanes+j]
		}
		w0 := b.m.logPrior(lw, lmu, lc)
		out.W0[q], out.W1[q] = w0, w0+b.m.logLik(sq[j])
	}
}
