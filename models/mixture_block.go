package models

import (
	"math"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// NewBlock allocates a block of spec.Rows states, each row a slot whose
// state stays put while the engine moves its coefficients.
func (m *Mixture) NewBlock(spec BlockSpec) Block {
	const lanes = layout.Lanes
	rows := spec.Rows
	k, n := m.p.K, len(m.p.Data)
	kl := k * lanes
	b := &mixBlock{
		m: m, rows: rows, k: k, n: n,
		w:       layout.Float64s(rows * kl),
		mu:      layout.Float64s(rows * kl),
		logw:    layout.Float64s(rows * kl),
		z:       make([]uint8, rows*n*lanes),
		normals: layout.Float64s(kl),
		gz:      layout.Float64s(kl),
		gu:      layout.Float64s(kl),
		e:       layout.Float64s(n * kl),
		inv:     layout.Float64s(n * lanes),
		vt:      layout.Float64s(n),
		u:       layout.Float64s(n * lanes),
		live:    make([]int32, 0, k+1),
	}
	for j := range b.ln {
		b.ln[j] = newMixLane(k)
	}
	return b
}

// mixBlock holds rows slots × layout.Lanes replicates of the mixture state,
// struct-of-arrays with lanes innermost: weight i of row r, lane j is
// w[(r*K+i)*Lanes+j], likewise mu and logw (log w, kept beside w); label n
// is z[(r*N+n)*Lanes+j] (a byte).
//
// A sweep processes one row at a time, and within it one lane at a time:
// Go compiles neither SIMD nor unrolled loops, and the per-observation
// passes measured faster as plain loops over one replicate's observations,
// with the running sums in registers, on scratch that holds each lane's
// terms contiguously, than as loops with the lanes innermost, whose running
// sums live in memory. What the block adds to the scalar reference is the
// batched random numbers, scratch without allocation, the cached log
// weights, and for K ≠ 2 the skipping of components whose label terms all
// flush to 0 (liveComponents): in the galaxy's sweeps most lanes away from
// the reference have a single live component (the empty ones sit near the
// prior mean 150, far from every velocity), whose terms are all e^0 = 1.
//
// Per row, lane j draws, in this order: for the MH proposal's Dirichlet
// draw K normals (Stream.Normal of K rows) and K uniforms (Stream.Uniform),
// the first try of each of its Gamma variates, then the numbers of the
// retries of kernel.FinishGamma (rng.Lane(j); see mixDirichlet); the MH
// uniform; N label uniforms; K normals for the means; for the weights'
// Dirichlet draw K normals and K uniforms, then the numbers of its retries
// (rng.Lane(j)). A lane whose coefficients are improper, or whose proposal
// parameters are not (mhProposable), draws what is filled for all lanes at
// once but no more, and an improper lane is otherwise skipped.
type mixBlock struct {
	m          *Mixture
	rows, k, n int
	w, mu      []float64
	logw       []float64
	z          []uint8

	// Scratch for the row being swept.
	beta, gamma, g2 [layout.Lanes]float64 // β, γ, γ/(2σ²)
	ok, prop, acc   [layout.Lanes]bool    // proper; MH proposed; MH accepted
	uMH             [layout.Lanes]float64 // the MH uniforms
	ln              [layout.Lanes]mixLane // per-lane values
	normals         []float64             // K×Lanes: the normals of move 3
	gz, gu          []float64             // K×Lanes: first normals and uniforms of a Dirichlet draw
	e               []float64             // lane j: [j*N*K, (j+1)*N*K), see mixLane
	inv             []float64             // lane j: [j*N, (j+1)*N), 1/S_n(w)
	vt              []float64             // N: 1/S'_n of one lane
	u               []float64             // N×Lanes label uniforms
	live            []int32               // scratch of liveComponents

	// trace, when set (by tests), receives the quantities of every MH
	// proposal of move 1: row, lane, ΔL, R(w), R(w') and w'.
	trace func(r, j int, dl float64, rr, rrp, wp []float64)
}

// mixLane holds one lane's values during a row's sweep, K each: the
// replicate's log weights, weights and means gathered from the row, the
// proposal's log weights, weights and factors a_i (mixWeightFactors), its
// expected counts and Dirichlet parameters at w and w', the label factors
// f (a where the MH move accepted, 1 elsewhere), the sufficient statistics
// of the new labels, and, for K ≠ 2, the term coefficients and the live
// components (those not flushed, in order; its terms E_ni are stored
// E[n*m+p] for live component p of m). dl is ΔL of mhLogRatio.
type mixLane struct {
	lw, w, mu           []float64
	lwp, wp, a          []float64
	r, rp, c, cp        []float64
	f                   []float64
	counts, sums, sqs   []float64
	cc, cb, lc, lb, cum []float64
	gz, gu              []float64
	live                []int32
	dl                  float64
}

func newMixLane(k int) mixLane {
	v := make([]float64, 22*k)
	next := func() []float64 {
		s := v[:k:k]
		v = v[k:]
		return s
	}
	return mixLane{
		lw: next(), w: next(), mu: next(), lwp: next(), wp: next(), a: next(),
		r: next(), rp: next(), c: next(), cp: next(), f: next(),
		counts: next(), sums: next(), sqs: next(),
		cc: next(), cb: next(), lc: next(), lb: next(), cum: next(),
		gz: next(), gu: next(),
		live: make([]int32, 0, k),
	}
}

// Init sets every row to the paper's initial state (weights 1/K, means 0,
// labels 0) and writes its energies; it draws no random numbers.
func (b *mixBlock) Init(rng *kernel.Stream, rows Rows, out Energies) {
	const lanes = layout.Lanes
	b.checkOut(out)
	for i := range b.z {
		b.z[i] = 0
	}
	w0 := 1 / float64(b.k)
	lw0 := math.Log(w0)
	for i := range b.w {
		b.w[i], b.logw[i], b.mu[i] = w0, lw0, 0
	}
	for r := 0; r < b.rows; r++ {
		for j := 0; j < lanes; j++ {
			b.ok[j] = true
			ln := &b.ln[j]
			b.gather(r, j)
			for i := range ln.counts {
				ln.counts[i], ln.sums[i], ln.sqs[i] = 0, 0, 0
			}
			ln.counts[0], ln.sums[0], ln.sqs[0] = float64(b.n), b.m.ycSum, b.m.yc2Sum
		}
		b.energies(r, out)
	}
}

func (b *mixBlock) checkOut(out Energies) {
	n := b.rows * layout.Lanes
	if len(out.W0) != n || len(out.W1) != n {
		panic("models: energy slice lengths do not match the block")
	}
}

// Explore applies one sweep (moves 1–4 of Mixture) to every row under its
// coefficients and writes the energies of the new states.
func (b *mixBlock) Explore(rng *kernel.Stream, rows Rows, out Energies) {
	b.checkOut(out)
	eta0, eta1 := rows.Eta0, rows.Eta1
	if len(eta0) != b.rows*layout.Lanes || len(eta1) != len(eta0) {
		panic("models: coefficient slice lengths do not match the block")
	}
	for r := 0; r < b.rows; r++ {
		b.coefficients(r, eta0, eta1)
		b.moveWeightsMH(r, rng)
		rng.Uniform(b.u)
		rng.Normal(b.normals)
		rng.Normal(b.gz)
		rng.Uniform(b.gu)
		for j := 0; j < layout.Lanes; j++ {
			if b.ok[j] {
				b.moveLabels(r, j)
				b.moveMeans(r, j)
				b.moveWeightsGibbs(r, j, rng)
			}
		}
		b.energies(r, out)
	}
}

// coefficients sets β, γ and properness of every lane of row r, and
// gathers the state of its proper lanes.
func (b *mixBlock) coefficients(r int, eta0, eta1 []float64) {
	const lanes = layout.Lanes
	for j := 0; j < lanes; j++ {
		b.beta[j], b.gamma[j], b.ok[j] = b.m.Annealed(eta0[r*lanes+j], eta1[r*lanes+j])
		b.g2[j] = b.gamma[j] * b.m.hLik
		if b.ok[j] {
			b.gather(r, j)
		}
	}
}

// gather copies the weights, log weights and means of row r, lane j into
// its mixLane.
func (b *mixBlock) gather(r, j int) {
	const lanes = layout.Lanes
	ln := &b.ln[j]
	for i := 0; i < b.k; i++ {
		q := (r*b.k+i)*lanes + j
		ln.w[i], ln.lw[i], ln.mu[i] = b.w[q], b.logw[q], b.mu[q]
	}
}

// moveWeightsMH is move 1 for every proper lane of row r: the MH step for
// the weights with the labels marginalised (mhLogRatio). It leaves the label
// terms in e and the label factors in each lane's f.
func (b *mixBlock) moveWeightsMH(r int, rng *kernel.Stream) {
	const lanes = layout.Lanes
	rng.Normal(b.gz)
	rng.Uniform(b.gu)
	for j := 0; j < lanes; j++ {
		b.prop[j] = false
		if !b.ok[j] {
			continue
		}
		ln := &b.ln[j]
		if b.k == 2 {
			b.terms2(j)
		} else {
			b.terms(j)
		}
		for i := range ln.c {
			ln.c[i] = b.m.weightConc(b.beta[j], ln.r[i])
		}
		if !mhProposable(ln.c) {
			continue
		}
		b.prop[j] = true
		b.dirichlet(j, rng, ln.c, ln.wp)
		for i, v := range ln.wp {
			ln.lwp[i] = math.Log(v)
		}
		lambda := mixWeightFactors(b.beta[j], ln.lw, ln.lwp, ln.a)
		if b.k == 2 {
			b.propTerms2(j, lambda)
		} else {
			b.propTerms(j, lambda)
		}
		for i := range ln.cp {
			ln.cp[i] = b.m.weightConc(b.beta[j], ln.rp[i])
		}
		if b.trace != nil {
			b.trace(r, j, ln.dl, ln.r, ln.rp, ln.wp)
		}
	}
	rng.Uniform(b.uMH[:])
	for j := 0; j < lanes; j++ {
		b.acc[j] = false
		ln := &b.ln[j]
		for i := range ln.f {
			ln.f[i] = 1
		}
		if !b.prop[j] {
			continue
		}
		b.acc[j] = math.Log(b.uMH[j]) < mhLogRatio(b.beta[j], ln.lw, ln.lwp, ln.r, ln.rp, ln.c, ln.cp, ln.dl)
		if b.acc[j] {
			copy(ln.w, ln.wp)
			copy(ln.lw, ln.lwp)
			copy(ln.f, ln.a)
			for i := 0; i < b.k; i++ {
				q := (r*b.k+i)*lanes + j
				b.w[q], b.logw[q] = ln.w[i], ln.lw[i]
			}
		}
	}
}

// terms2 computes, for K = 2 and lane j, the label terms E_n1 (with
// E_n0 = 1; see the comment above mixCoef) into e, 1/S_n(w) with
// S_n(w) = 1 + E_n1 into inv, and the expected counts R_i(w) =
// Σ_n E_ni/S_n(w) (see mhLogRatio).
func (b *mixBlock) terms2(j int) {
	ln := &b.ln[j]
	nd := b.n
	e, inv := b.e[j*nd*2:][:nd], b.inv[j*nd:][:nd]
	a, bb, mid := mix2Coef(b.beta[j], b.g2[j], ln.lw[0], ln.lw[1], ln.mu[0], ln.mu[1])
	for n, y := range b.m.p.Data[:nd] {
		e[n] = mix2Term(a, bb, mid, y)
	}
	mixExps(e)
	var r0, r1 float64
	for n, en := range e {
		v := 1 / (1 + en)
		inv[n] = v
		r0 += v
		r1 += float64(en * v)
	}
	ln.r[0], ln.r[1] = r0, r1
}

// terms is terms2 for K ≠ 2: E_ni into e for the live components only
// (E[n*m+p] for the p-th of m), S_n(w) = Σ_i E_ni.
func (b *mixBlock) terms(j int) {
	ln := &b.ln[j]
	k, nd := b.k, b.n
	for i := range ln.cc {
		ln.cc[i], ln.cb[i] = mixCoef(b.beta[j], b.g2[j], ln.lw[i], ln.mu[i]-b.m.yBar)
	}
	ln.live = b.m.liveComponents(ln.cc, ln.cb, ln.live[:0])
	mm := len(ln.live)
	lc, lb := ln.lc[:mm], ln.lb[:mm]
	for p, i := range ln.live {
		lc[p], lb[p] = ln.cc[i], ln.cb[i]
	}
	e, inv := b.e[j*nd*k:][:nd*mm], b.inv[j*nd:][:nd]
	if mm == 1 {
		// One live component: every E_ni is e^0 = 1 and every S_n is 1
		// (often so for the galaxy away from the reference, where one
		// component holds all the data and the others sit near the prior
		// mean 150).
		for n := range inv {
			e[n], inv[n] = 1, 1
		}
		for i := range ln.r {
			ln.r[i] = 0
		}
		r := 0.0
		for range inv {
			r += 1
		}
		ln.r[ln.live[0]] = r
		return
	}
	for n, yc := range b.m.yc[:nd] {
		en := e[n*mm : n*mm+mm]
		mx := 0.0
		for p := range en {
			l := mixTerm(lc[p], lb[p], yc)
			en[p] = l
			if p == 0 {
				mx = l
			} else {
				mx = max(mx, l)
			}
		}
		s := 0.0
		for p, l := range en {
			x, v := l-mx, 0.0 // v = mixExp(x), inlined
			if x >= mixExpMin {
				v = mixExpFinish(mixExpReduce(x))
			}
			en[p] = v
			s += v
		}
		inv[n] = 1 / s
	}
	for i := range ln.r {
		ln.r[i] = 0
	}
	// R_i of the live components, one at a time so that the sum stays in
	// a register.
	for p, i := range ln.live {
		r := 0.0
		for n, v := range inv {
			r += float64(e[n*mm+p] * v)
		}
		ln.r[i] = r
	}
}

// propTerms2 is the second pass of move 1 for K = 2 and lane j: with the
// factors a_i of mixWeightFactors, S'_n = a_0 + a_1 E_n1, it sets the
// expected counts R_i(w') = a_i Σ_n E_ni/S'_n and dl to
// ΔL = Nλ + Σ_n log(S'_n/S_n(w)) (by mixLogRatioStep over n in order).
func (b *mixBlock) propTerms2(j int, lambda float64) {
	ln := &b.ln[j]
	nd := b.n
	e, inv := b.e[j*nd*2:][:nd], b.inv[j*nd:][:nd]
	a0, a1 := ln.a[0], ln.a[1]
	var r0, r1 float64
	p, dl := 1.0, float64(nd)*lambda
	for n, en := range e {
		t := a0 + float64(a1*en)
		v := 1 / t
		r0 += v
		r1 += float64(en * v)
		ratio := t * inv[n]
		if q := p * ratio; mixRatioInRange(ratio, q) { // mixLogRatioStep
			p = q
		} else {
			p, dl = mixLogRatioSlow(p, dl, ratio)
		}
	}
	ln.dl = dl + math.Log(p)
	ln.rp[0], ln.rp[1] = r0*a0, r1*a1
}

// propTerms is propTerms2 for K ≠ 2: S'_n = Σ_i a_i E_ni over the live
// components.
func (b *mixBlock) propTerms(j int, lambda float64) {
	ln := &b.ln[j]
	k, nd := b.k, b.n
	mm := len(ln.live)
	e, inv, vt := b.e[j*nd*k:][:nd*mm], b.inv[j*nd:][:nd], b.vt[:nd]
	la := ln.lc[:mm] // a_i of the live components
	for p, i := range ln.live {
		la[p] = ln.a[i]
	}
	pr, dl := 1.0, float64(nd)*lambda
	for n, iv := range inv {
		t := 0.0
		for p, x := range e[n*mm : n*mm+mm] {
			t += float64(la[p] * x)
		}
		if mm > 1 || n == 0 {
			vt[n] = 1 / t
		} else {
			vt[n] = vt[0] // one live component: t = a_i for every n
		}
		ratio := t * iv
		if q := pr * ratio; mixRatioInRange(ratio, q) { // mixLogRatioStep
			pr = q
		} else {
			pr, dl = mixLogRatioSlow(pr, dl, ratio)
		}
	}
	ln.dl = dl + math.Log(pr)
	for i := range ln.rp {
		ln.rp[i] = 0
	}
	for p, i := range ln.live {
		r := 0.0
		for n, v := range vt {
			r += float64(e[n*mm+p] * v)
		}
		ln.rp[i] = r
	}
	for i := range ln.rp {
		ln.rp[i] *= ln.a[i]
	}
}

// moveLabels is move 2 for row r, lane j: every label from its conditional
// P(z_n = i) = f_i E_ni / Σ_l f_l E_nl, by one uniform each (mixLabel),
// using the terms left by moveWeightsMH; it also tallies the sufficient
// statistics of the new labels.
func (b *mixBlock) moveLabels(r, j int) {
	const lanes = layout.Lanes
	ln := &b.ln[j]
	k, nd := b.k, b.n
	z := b.z[r*nd*lanes : (r+1)*nd*lanes]
	u := b.u[:nd*lanes]
	yc, yc2 := b.m.yc[:nd], b.m.yc2[:nd]
	if k == 2 {
		e := b.e[j*nd*2:][:nd]
		f0, f1 := ln.f[0], ln.f[1]
		var n1, s1, q1 float64
		for n, en := range e {
			l := mix2Label(f0, f1, en, u[n*lanes+j])
			z[n*lanes+j] = l
			x := float64(l)
			n1 += x
			s1 += float64(x * yc[n])
			q1 += float64(x * yc2[n])
		}
		ln.counts[0], ln.sums[0], ln.sqs[0] = float64(nd)-n1, b.m.ycSum-s1, b.m.yc2Sum-q1
		ln.counts[1], ln.sums[1], ln.sqs[1] = n1, s1, q1
		return
	}
	mm := len(ln.live)
	e := b.e[j*nd*k:][:nd*mm]
	lf, cum := ln.lc[:mm], ln.cum[:mm]
	for p, i := range ln.live {
		lf[p] = ln.f[i]
	}
	// ext[q] is the label when the first q live cumulative sums are at most
	// t: live[q], or K-1 when none exceeds t (mixLabel's rule: the sums of
	// the flushed components repeat the previous sum and so never exceed t
	// first).
	ext := append(b.live[:0], ln.live...)
	ext = append(ext, int32(k-1))
	b.live = ext
	for n := range yc {
		en := e[n*mm : n*mm+mm]
		s := 0.0
		for p, x := range en {
			s += float64(lf[p] * x)
			cum[p] = s
		}
		t := u[n*lanes+j] * s
		q := 0
		for _, c := range cum {
			q += int(b2u8(c <= t))
		}
		z[n*lanes+j] = uint8(ext[q])
	}
	// The sufficient statistics, one possible label at a time (the live
	// components and K-1) so that the sums stay in registers; the others
	// get none. Adding x·y' with x = 0 leaves a sum unchanged, so each is
	// the plain sum over its observations in order.
	for i := range ln.counts {
		ln.counts[i], ln.sums[i], ln.sqs[i] = 0, 0, 0
	}
	if ln.live[mm-1] == int32(k-1) {
		ext = ext[:mm]
	}
	for _, i := range ext {
		var c, sy, sy2 float64
		for n, y := range yc {
			x := float64(b2u8(z[n*lanes+j] == uint8(i)))
			c += x
			sy += float64(x * y)
			sy2 += float64(x * yc2[n])
		}
		ln.counts[i], ln.sums[i], ln.sqs[i] = c, sy, sy2
	}
}

// moveMeans is move 3 for row r, lane j: every mean from its Gaussian
// conditional.
func (b *mixBlock) moveMeans(r, j int) {
	const lanes = layout.Lanes
	ln := &b.ln[j]
	for i := range ln.mu {
		ln.mu[i] = b.m.meanDraw(b.beta[j], b.gamma[j], ln.counts[i], ln.sums[i], b.normals[i*lanes+j])
		b.mu[(r*b.k+i)*lanes+j] = ln.mu[i]
	}
}

// moveWeightsGibbs is move 4 for row r, lane j: the weights from their
// Dirichlet conditional.
func (b *mixBlock) moveWeightsGibbs(r, j int, rng *kernel.Stream) {
	const lanes = layout.Lanes
	ln := &b.ln[j]
	for i := range ln.c {
		ln.c[i] = b.m.weightConc(b.beta[j], ln.counts[i])
	}
	b.dirichlet(j, rng, ln.c, ln.w)
	for i, v := range ln.w {
		ln.lw[i] = math.Log(v)
		q := (r*b.k+i)*lanes + j
		b.w[q], b.logw[q] = v, ln.lw[i]
	}
}

// dirichlet fills w with lane j's Dir(conc) draw by mixDirichlet, from the
// first normals and uniforms in gz and gu and, for the retries of the rare
// rejected first tries, lane j's own numbers.
func (b *mixBlock) dirichlet(j int, rng *kernel.Stream, conc, w []float64) {
	const lanes = layout.Lanes
	ln := &b.ln[j]
	for i := range ln.gz {
		ln.gz[i], ln.gu[i] = b.gz[i*lanes+j], b.gu[i*lanes+j]
	}
	mixDirichlet(rng.Lane(j), conc, w, ln.gz, ln.gu)
}

// Observe writes the first len(dst) of the means, then the weights, of row
// row, lane lane.
func (b *mixBlock) Observe(dst []float64, row, lane int) {
	for i := range dst {
		if i < b.k {
			dst[i] = b.mu[layout.Index(row, b.k, i, lane)]
		} else {
			dst[i] = b.w[layout.Index(row, b.k, i-b.k, lane)]
		}
	}
}

// energies writes W0 and W1 of row r from each lane's values and the
// sufficient statistics of its labels (NaN energies for improper lanes,
// whose state did not move).
func (b *mixBlock) energies(r int, out Energies) {
	const lanes = layout.Lanes
	for j := 0; j < lanes; j++ {
		q := r*lanes + j
		if !b.ok[j] {
			out.W0[q], out.W1[q] = math.NaN(), math.NaN()
			continue
		}
		ln := &b.ln[j]
		sq := 0.0
		for i := range ln.mu {
			sq += mixSqDev(ln.counts[i], ln.sums[i], ln.sqs[i], ln.mu[i]-b.m.yBar)
		}
		w0 := b.m.logPrior(ln.lw, ln.mu, ln.counts)
		out.W0[q], out.W1[q] = w0, w0+b.m.logLik(sq)
	}
}
