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
		m: m, rows: rows, k: k, n: n, real: realLanes(spec),
		w:       layout.Float64s(rows * kl),
		mu:      layout.Float64s(rows * kl),
		logw:    layout.Float64s(rows * kl),
		z:       make([]uint8, rows*n*lanes),
		normals: layout.Float64s(kl),
		gz:      layout.Float64s(kl),
		gu:      layout.Float64s(kl),
		e:       layout.Float64s(n * kl),
		inv:     layout.Float64s(n * lanes),
		u:       layout.Float64s(n * lanes),
		zs:      make([]uint8, n*lanes),
		coef:    layout.Float64s(max(2*k, 3) * lanes),
		acc8:    layout.Float64s(max(3*k, k+1, 3) * lanes),
		used:    make([]bool, k),
		kept:    make([]int32, 0, k),
		lv:      make([]float64, k+1),
		tv:      make([]float64, 0, k),
		conc:    layout.Float64s(kl),
		gam:     layout.Float64s(kl),
		wRows:   layout.Float64s(kl),
		lwRows:  layout.Float64s(kl),
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
// A sweep processes one row at a time, its 8 lanes together. The passes
// over the observations — the label terms E_ni with their exponentials and
// the expected counts (terms2, terms), the MH move's second pass with its
// running product of ratios (propTerms2, propTerms), and the label draws by
// the inverse of the cumulative sums with the tally of the sufficient
// statistics (moveLabels) — are kernels over the lanes (kernel.MixTerms2,
// MixProp2, MixLabels2 and their K ≠ 2 forms; asm/mix.go gives their exact
// operations, the scalar reference's), in assembly on amd64, and so are
// the first Gamma attempts of the Dirichlet draws and the logarithms of the
// weights (kernel.MixGammaTry, MixLog). The rest of the work per component
// — Gamma retries, log-gamma, the MH decision, the means and the energies
// — stays in Go, one lane at a time. Why: the
// profile of the sweep that explored one lane at a time (go test ./models
// -bench MixtureExplore -cpuprofile) had 75 % (galaxy) and 90 % (mixture)
// of the time in those per-observation loops (the table-driven exponential
// alone: 10 % and 44 %); Go compiles no SIMD, so only assembly over the
// lanes removes that share (benchmarks/results.md has the figures).
// For K ≠ 2 the kernels work on the components live in some lane
// (liveComponents): a component flushed to 0 in every lane needs no work,
// and one kept for another lane gives exactly the 0 that the scalar
// reference adds. In the galaxy's sweeps most lanes away from the
// reference have a single live component (the empty ones sit near the
// prior mean 150, far from every velocity), and the term kernel skips the
// exponential of a register whose terms are all e^0 = 1 (a lane's single
// live component) or flushed.
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
//
// A padding lane (BlockSpec.Padding) is skipped like an improper one: its
// state stays the initial one, the kernels see it with the coefficients 0
// (so that the term kernel skips a register of padding lanes for K ≠ 2),
// and its energies are lane 0's of the same row, finite when those are.
// Its draws are its own stream's (kernel.Stream's lanes are independent
// generators), so the real lanes draw the same numbers either way.
type mixBlock struct {
	m          *Mixture
	rows, k, n int
	real       int // lanes 0..real-1 hold replicates, the others padding (BlockSpec.Padding)
	w, mu      []float64
	logw       []float64
	z          []uint8

	// Scratch for the row being swept.
	beta, gamma, g2 [layout.Lanes]float64 // β, γ, γ/(2σ²)
	ok, prop, acc   [layout.Lanes]bool    // proper; MH proposed; MH accepted
	uMH             [layout.Lanes]float64 // the MH uniforms
	ln              [layout.Lanes]mixLane // per-lane values
	lambda, dl      [layout.Lanes]float64 // λ of mixWeightFactors; ΔL
	normals         []float64             // K×Lanes: the normals of move 3
	gz, gu          []float64             // K×Lanes: first normals and uniforms of a Dirichlet draw
	e               []float64             // N×m×Lanes: E_ni, row n·m+p for kept component p of m (K = 2: N rows of E_n1)
	inv             []float64             // N×Lanes: 1/S_n(w)
	u               []float64             // N×Lanes label uniforms
	zs              []uint8               // N×Lanes labels of a row with improper lanes
	coef            []float64             // rows of per-lane coefficients for the kernels
	acc8            []float64             // rows of the kernels' running sums
	used            []bool                // K: kept by some lane
	kept            []int32               // the kept components, in order
	lv, tv          []float64             // label steps and labels to tally of kernel.MixLabelsK
	conc, gam       []float64             // K×Lanes: Dirichlet parameters, first Gamma attempts
	wRows, lwRows   []float64             // K×Lanes: weights and their logs

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
// components (those not flushed, in order). dl is ΔL of mhLogRatio.
type mixLane struct {
	lw, w, mu         []float64
	lwp, wp, a        []float64
	r, rp, c, cp      []float64
	f                 []float64
	counts, sums, sqs []float64
	cc, cb            []float64
	gz, gu            []float64
	live              []int32
	dl                float64
}

func newMixLane(k int) mixLane {
	v := make([]float64, 19*k)
	next := func() []float64 {
		s := v[:k:k]
		v = v[k:]
		return s
	}
	return mixLane{
		lw: next(), w: next(), mu: next(), lwp: next(), wp: next(), a: next(),
		r: next(), rp: next(), c: next(), cp: next(), f: next(),
		counts: next(), sums: next(), sqs: next(),
		cc: next(), cb: next(),
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
		b.moveLabels(r)
		for j := 0; j < layout.Lanes; j++ {
			if b.ok[j] {
				b.moveMeans(r, j)
			}
		}
		b.moveWeightsGibbs(r, rng)
		b.energies(r, out)
	}
}

// coefficients sets β, γ and properness of every lane of row r (a padding
// lane counts as improper), and gathers the state of its proper lanes.
func (b *mixBlock) coefficients(r int, eta0, eta1 []float64) {
	const lanes = layout.Lanes
	for j := 0; j < lanes; j++ {
		b.beta[j], b.gamma[j], b.ok[j] = b.m.Annealed(eta0[r*lanes+j], eta1[r*lanes+j])
		b.ok[j] = b.ok[j] && j < b.real
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
	if b.k == 2 {
		b.terms2()
	} else {
		b.terms()
	}
	anyProp := false
	for j := 0; j < lanes; j++ {
		b.prop[j] = false
		if !b.ok[j] {
			continue
		}
		ln := &b.ln[j]
		for i := range ln.c {
			ln.c[i] = b.m.weightConc(b.beta[j], ln.r[i])
		}
		if !mhProposable(ln.c) {
			continue
		}
		b.prop[j], anyProp = true, true
	}
	if anyProp {
		b.dirichlets(rng, &b.prop, b.conc[:b.k*lanes], true)
		wp, lwp := b.wRows[:b.k*lanes], b.lwRows[:b.k*lanes]
		for j := 0; j < lanes; j++ {
			for i := 0; i < b.k; i++ {
				wp[i*lanes+j] = 1
				if b.prop[j] {
					wp[i*lanes+j] = b.ln[j].wp[i]
				}
			}
		}
		kernel.MixLog(lwp, wp)
		for j := 0; j < lanes; j++ {
			if ln := &b.ln[j]; b.prop[j] {
				for i := range ln.lwp {
					ln.lwp[i] = lwp[i*lanes+j]
				}
				b.lambda[j] = mixWeightFactors(b.beta[j], ln.lw, ln.lwp, ln.a)
			}
		}

		if b.k == 2 {
			b.propTerms2()
		} else {
			b.propTerms()
		}
	}
	for j := 0; j < lanes; j++ {
		if !b.prop[j] {
			continue
		}
		ln := &b.ln[j]
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

// terms2 computes, for K = 2 and every lane, the label terms E_n1 (with
// E_n0 = 1; see the comment above mixCoef) into e (row n), 1/S_n(w) with
// S_n(w) = 1 + E_n1 into inv, and each proper lane's expected counts
// R_i(w) = Σ_n E_ni/S_n(w) (see mhLogRatio), by kernel.MixTerms2. Improper
// lanes get the harmless coefficients 0 and their results are not used.
func (b *mixBlock) terms2() {
	const lanes = layout.Lanes
	coef, acc := b.coef[:3*lanes], b.acc8[:2*lanes]
	clear(coef)
	clear(acc)
	for j := 0; j < lanes; j++ {
		if b.ok[j] {
			ln := &b.ln[j]
			coef[j], coef[lanes+j], coef[2*lanes+j] = mix2Coef(b.beta[j], b.g2[j], ln.lw[0], ln.lw[1], ln.mu[0], ln.mu[1])
		}
	}
	nd := b.n
	kernel.MixTerms2(b.e[:nd*lanes], b.inv, acc, b.m.p.Data, coef)
	for j := 0; j < lanes; j++ {
		b.ln[j].r[0], b.ln[j].r[1] = acc[j], acc[lanes+j]
	}
}

// terms is terms2 for K ≠ 2: the terms E_ni (row n·m + p for the p-th of
// the m kept components) and S_n(w) = Σ_i E_ni by kernel.MixTermsK. The
// kept components are those live in some proper lane (liveComponents): a
// component that no lane needs is left out, and in a lane where a kept
// component is not live its terms come out exactly 0, as in the scalar
// reference, which sums over every component.
func (b *mixBlock) terms() {
	const lanes = layout.Lanes
	k := b.k
	used := b.used[:k]
	clear(used)
	for j := 0; j < lanes; j++ {
		if !b.ok[j] {
			continue
		}
		ln := &b.ln[j]
		for i := range ln.cc {
			ln.cc[i], ln.cb[i] = mixCoef(b.beta[j], b.g2[j], ln.lw[i], ln.mu[i]-b.m.yBar)
		}
		ln.live = b.m.liveComponents(ln.cc, ln.cb, ln.live[:0])
		for _, i := range ln.live {
			used[i] = true
		}
	}
	b.kept = b.kept[:0]
	for i, u := range used {
		if u {
			b.kept = append(b.kept, int32(i))
		}
	}
	mm := len(b.kept)
	if mm == 0 {
		return // no proper lane
	}
	cc, cb, acc := b.coef[:mm*lanes], b.coef[mm*lanes:2*mm*lanes], b.acc8[:mm*lanes]
	clear(acc)
	for j := 0; j < lanes; j++ {
		ln := &b.ln[j]
		for p, i := range b.kept {
			if b.ok[j] {
				cc[p*lanes+j], cb[p*lanes+j] = ln.cc[i], ln.cb[i]
			} else {
				cc[p*lanes+j], cb[p*lanes+j] = 0, 0
			}
		}
	}
	kernel.MixTermsK(b.e[:b.n*mm*lanes], b.inv, acc, b.m.yc, cc, cb)
	for j := 0; j < lanes; j++ {
		ln := &b.ln[j]
		clear(ln.r)
		for p, i := range b.kept {
			ln.r[i] = acc[p*lanes+j]
		}
	}
}

// propTerms2 is the second pass of move 1 for K = 2 and every proposing
// lane: with the factors a_i of mixWeightFactors, S'_n = a_0 + a_1 E_n1, it
// sets the expected counts R_i(w') = a_i Σ_n E_ni/S'_n and dl to
// ΔL = Nλ + Σ_n log(S'_n/S_n(w)) (by mixLogRatioStep over n in order), by
// kernel.MixProp2, which stops at the rare observations where a lane's
// running product needs a logarithm; those are taken here.
func (b *mixBlock) propTerms2() {
	const lanes = layout.Lanes
	a, acc := b.coef[:2*lanes], b.acc8[:3*lanes]
	for j := 0; j < lanes; j++ {
		a[j], a[lanes+j] = 1, 1
		if b.prop[j] {
			a[j], a[lanes+j] = b.ln[j].a[0], b.ln[j].a[1]
		}
		acc[j], acc[lanes+j], acc[2*lanes+j] = 0, 0, 1
		b.dl[j] = float64(b.n) * b.lambda[j]
	}
	e, inv := b.e[:b.n*lanes], b.inv
	for from := 0; ; {
		n := kernel.MixProp2(acc, e, inv, a, from)
		if n == b.n {
			break
		}
		for j := 0; j < lanes; j++ {
			x := e[n*lanes+j]
			t := a[j] + float64(a[lanes+j]*x)
			v := 1 / t
			acc[j] += v
			acc[lanes+j] += float64(x * v)
			acc[2*lanes+j], b.dl[j] = mixLogRatioStep(acc[2*lanes+j], b.dl[j], t*inv[n*lanes+j])
		}
		from = n + 1
	}
	for j := 0; j < lanes; j++ {
		if ln := &b.ln[j]; b.prop[j] {
			ln.dl = b.dl[j] + math.Log(acc[2*lanes+j])
			ln.rp[0], ln.rp[1] = acc[j]*ln.a[0], acc[lanes+j]*ln.a[1]
		}
	}
}

// propTerms is propTerms2 for K ≠ 2: S'_n = Σ_i a_i E_ni over the kept
// components, by kernel.MixPropK.
func (b *mixBlock) propTerms() {
	const lanes = layout.Lanes
	mm := len(b.kept)
	a, acc := b.coef[:mm*lanes], b.acc8[:(mm+1)*lanes]
	clear(acc)
	for j := 0; j < lanes; j++ {
		for p, i := range b.kept {
			a[p*lanes+j] = 1
			if b.prop[j] {
				a[p*lanes+j] = b.ln[j].a[i]
			}
		}
		acc[mm*lanes+j] = 1
		b.dl[j] = float64(b.n) * b.lambda[j]
	}
	e, inv := b.e[:b.n*mm*lanes], b.inv
	for from := 0; ; {
		n := kernel.MixPropK(acc, e, inv, a, from)
		if n == b.n {
			break
		}
		en := e[n*mm*lanes : (n+1)*mm*lanes]
		for j := 0; j < lanes; j++ {
			t := 0.0
			for p := 0; p < mm; p++ {
				t += float64(a[p*lanes+j] * en[p*lanes+j])
			}
			v := 1 / t
			for p := 0; p < mm; p++ {
				acc[p*lanes+j] += float64(en[p*lanes+j] * v)
			}
			acc[mm*lanes+j], b.dl[j] = mixLogRatioStep(acc[mm*lanes+j], b.dl[j], t*inv[n*lanes+j])
		}
		from = n + 1
	}
	for j := 0; j < lanes; j++ {
		ln := &b.ln[j]
		if !b.prop[j] {
			continue
		}
		ln.dl = b.dl[j] + math.Log(acc[mm*lanes+j])
		clear(ln.rp)
		for p, i := range b.kept {
			ln.rp[i] = acc[p*lanes+j]
		}
		for i := range ln.rp {
			ln.rp[i] *= ln.a[i]
		}
	}
}

// moveLabels is move 2 for every proper lane of row r: every label from its
// conditional P(z_n = i) = f_i E_ni / Σ_l f_l E_nl, by one uniform each
// (mixLabel, mix2Label), using the terms left by moveWeightsMH; it also
// tallies the sufficient statistics of the new labels. The kernels write
// every lane; a row with an improper real lane takes them in scratch and
// copies the proper lanes' labels, so that an improper lane's state stays
// put (a padding lane's labels, never read, may change).
func (b *mixBlock) moveLabels(r int) {
	const lanes = layout.Lanes
	k, nd := b.k, b.n
	allOK, anyOK := true, false
	for _, ok := range b.ok[:b.real] {
		allOK, anyOK = allOK && ok, anyOK || ok
	}
	if !anyOK {
		return
	}
	z := b.z[r*nd*lanes : (r+1)*nd*lanes]
	zk := z
	if !allOK {
		zk = b.zs
	}
	u := b.u[:nd*lanes]
	if k == 2 {
		f, acc := b.coef[:2*lanes], b.acc8[:3*lanes]
		clear(acc)
		for j := 0; j < lanes; j++ {
			f[j], f[lanes+j] = b.ln[j].f[0], b.ln[j].f[1]
		}
		kernel.MixLabels2(zk, acc, b.e[:nd*lanes], u, f, b.m.yc, b.m.yc2)
		for j := 0; j < lanes; j++ {
			ln := &b.ln[j]
			n1, s1, q1 := acc[j], acc[lanes+j], acc[2*lanes+j]
			ln.counts[0], ln.sums[0], ln.sqs[0] = float64(nd)-n1, b.m.ycSum-s1, b.m.yc2Sum-q1
			ln.counts[1], ln.sums[1], ln.sqs[1] = n1, s1, q1
		}
	} else {
		// ext[q] is the label when the first q kept cumulative sums are at
		// most t: kept[q], or K-1 when none exceeds t (mixLabel's rule: the
		// sums of the other components repeat the previous sum and so never
		// exceed t first); the kernel forms it as lv[0] + … + lv[q]. The
		// labels to tally, tv, are the kept components and K-1.
		mm := len(b.kept)
		f := b.coef[:mm*lanes]
		for j := 0; j < lanes; j++ {
			for p, i := range b.kept {
				f[p*lanes+j] = b.ln[j].f[i]
			}
		}
		lv, tv := b.lv[:mm+1], b.tv[:0]
		prev := 0.0
		for p := 0; p <= mm; p++ {
			l := float64(k - 1)
			if p < mm {
				l = float64(b.kept[p])
				tv = append(tv, l)
			}
			lv[p], prev = l-prev, l
		}
		if b.kept[mm-1] != int32(k-1) {
			tv = append(tv, float64(k-1))
		}
		acc := b.acc8[:3*len(tv)*lanes]
		clear(acc)
		kernel.MixLabelsK(zk, acc, b.e[:nd*mm*lanes], u, f, lv, tv, b.m.yc, b.m.yc2)
		for j := 0; j < lanes; j++ {
			ln := &b.ln[j]
			clear(ln.counts)
			clear(ln.sums)
			clear(ln.sqs)
			for q, l := range tv {
				i := int(l)
				ln.counts[i], ln.sums[i], ln.sqs[i] = acc[3*q*lanes+j], acc[(3*q+1)*lanes+j], acc[(3*q+2)*lanes+j]
			}
		}
	}
	if !allOK {
		for j := 0; j < lanes; j++ {
			if b.ok[j] {
				for n := 0; n < nd; n++ {
					z[n*lanes+j] = zk[n*lanes+j]
				}
			}
		}
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

// moveWeightsGibbs is move 4 for every proper lane of row r: the weights
// from their Dirichlet conditional.
func (b *mixBlock) moveWeightsGibbs(r int, rng *kernel.Stream) {
	const lanes = layout.Lanes
	k := b.k
	conc := b.conc[:k*lanes]
	for j := 0; j < lanes; j++ {
		ln := &b.ln[j]
		for i := range ln.c {
			ln.c[i] = b.m.weightConc(b.beta[j], ln.counts[i])
		}
	}
	b.dirichlets(rng, &b.ok, conc, false)
	w, lw := b.w[r*k*lanes:(r+1)*k*lanes], b.lwRows[:k*lanes]
	for j := 0; j < lanes; j++ {
		if b.ok[j] {
			for i := 0; i < k; i++ {
				w[i*lanes+j] = b.ln[j].w[i]
			}
		}
	}
	kernel.MixLog(lw, w)
	for j := 0; j < lanes; j++ {
		if ln := &b.ln[j]; b.ok[j] {
			for i := 0; i < k; i++ {
				ln.lw[i] = lw[i*lanes+j]
				b.logw[(r*k+i)*lanes+j] = ln.lw[i]
			}
		}
	}
}

// dirichlets draws, for every lane j with use[j], its Dir(c) with c the
// lane's ln.c into ln.w (ln.wp for the proposal of move 1), as
// mixDirichlet does: the first attempts of all
// the Gamma variates at once from the normals and uniforms in gz and gu
// (kernel.MixGammaTry: the squeeze of GammaSampler.Try), then, lane by
// lane and component by component, Try's logarithmic test where the
// squeeze refused and kernel.FinishGamma's retries from the lane's own
// numbers. A lane with a parameter below 1 or infinite (none in the
// sweeps: weightConc ≥ 1, and move 1 checks mhProposable) takes
// mixDirichlet itself, which boosts or panics as it must. conc is scratch
// of K rows.
func (b *mixBlock) dirichlets(rng *kernel.Stream, use *[layout.Lanes]bool, conc []float64, proposal bool) {
	const lanes = layout.Lanes
	k := b.k
	var plain [lanes]bool
	for j := 0; j < lanes; j++ {
		plain[j] = use[j]
		for i := 0; i < k; i++ {
			c := 1.0
			if use[j] {
				c = b.ln[j].c[i]
				plain[j] = plain[j] && c >= 1 && !math.IsInf(c, 1)
			}
			conc[i*lanes+j] = c
		}
	}
	g := b.gam[:k*lanes]
	kernel.MixGammaTry(g, conc, b.gz, b.gu)
	for j := 0; j < lanes; j++ {
		if !use[j] {
			continue
		}
		ln := &b.ln[j]
		w := ln.w
		if proposal {
			w = ln.wp
		}
		if !plain[j] {
			b.dirichlet(j, rng, ln.c, w)
			continue
		}
		sum := 0.0
		for i := 0; i < k; i++ {
			q := i*lanes + j
			v := g[q]
			if v == 0 {
				gs := kernel.NewGammaSampler(conc[q])
				v, _ = kernel.FinishGamma(rng.Lane(j), gs, gs.Try(b.gz[q], b.gu[q]))
			}
			w[i] = v
			sum += v
		}
		for i := range w {
			w[i] /= sum
		}
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
// whose state did not move; lane 0's for padding lanes).
func (b *mixBlock) energies(r int, out Energies) {
	const lanes = layout.Lanes
	for j := 0; j < b.real; j++ {
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
	padEnergies(r, b.real, out)
}
