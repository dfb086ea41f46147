package models

import (
	"math"

	"github.com/ptbatch/ptbatch/kernel"
)

// Scalar returns the reference implementation. Its state of a row is one
// slice of 2K+N float64: the weights w_0 … w_{K-1}, the means
// μ_0 … μ_{K-1}, then the labels z_1 … z_N as whole numbers. It works on
// all K components at every observation (the block skips those whose terms
// are all 0, see liveComponents), and shares with the batched block only
// the per-value helpers (mixCoef, mix2Coef, mixWeightFactors, meanDraw,
// weightConc, mixSqDev, mixDirichlet, mhProposable, mhLogRatio,
// mixLogRatioStep, logPrior, logLik); the block's kernels perform the
// operations of the others (mixTerm, mix2Term, mixExp, mixLabel, mix2Label)
// lane by lane (asm/mix.go), so the two agree bit for bit while differing
// in layout, loop order and bookkeeping. Products that feed a sum are written float64(a*b)
// in both: the conversion rounds the product (Go spec, "Floating-point
// operators"), so that a build that fuses multiply-adds (GOAMD64=v3),
// which would fuse differently in the two, still computes them alike.
func (m *Mixture) Scalar() Scalar { return mixScalar{m: m} }

type mixScalar struct {
	m *Mixture
	// trace is mixBlock.trace for one replicate (set by tests).
	trace func(r int, dl float64, rr, rrp, wp []float64)
}

func (s mixScalar) Init(rng Lane, rows int) ([][]float64, []float64, []float64) {
	m := s.m
	k, n := m.p.K, len(m.p.Data)
	states := make([][]float64, rows)
	w0 := make([]float64, rows)
	w1 := make([]float64, rows)
	for r := range states {
		x := make([]float64, 2*k+n)
		for i := 0; i < k; i++ {
			x[i] = 1 / float64(k)
		}
		states[r] = x
		w0[r], w1[r] = s.energies(x)
	}
	return states, w0, w1
}

func (s mixScalar) Explore(rng Lane, states [][]float64, eta0, eta1 []float64, _ []int) ([]float64, []float64) {
	m := s.m
	k := m.p.K
	w0 := make([]float64, len(states))
	w1 := make([]float64, len(states))
	for r, x := range states {
		beta, gamma, ok := m.Annealed(eta0[r], eta1[r])
		// The first normals and uniforms of the proposal's Gamma variates.
		pz, pu := kernel.Normals(rng, k), mixUniforms(rng, k)
		if !ok {
			// The batched fills still give this lane its MH uniform, its
			// label uniforms, its normals for the means, and the first
			// normals and uniforms of the weights' Gamma variates.
			rng.Uniform()
			mixUniforms(rng, len(m.p.Data))
			kernel.Normals(rng, k)
			kernel.Normals(rng, k)
			mixUniforms(rng, k)
			w0[r], w1[r] = math.NaN(), math.NaN()
			continue
		}
		w, mu, z := x[:k], x[k:2*k], x[2*k:]
		g2 := gamma * m.hLik

		// Move 1: MH for the weights with the labels marginalised.
		logw := mixLogs(w)
		e, inv, rr := s.labelTerms(beta, g2, logw, mu)
		c := make([]float64, k)
		for i := range c {
			c[i] = m.weightConc(beta, rr[i])
		}
		f := make([]float64, k) // label factors: a_i if accepted, else 1
		for i := range f {
			f[i] = 1
		}
		if mhProposable(c) {
			wp := make([]float64, k)
			mixDirichlet(rng, c, wp, pz, pu)
			logwp := mixLogs(wp)
			a := make([]float64, k)
			lambda := mixWeightFactors(beta, logw, logwp, a)
			rrp, dl := s.proposalTerms(a, lambda, e, inv)
			cp := make([]float64, k)
			for i := range cp {
				cp[i] = m.weightConc(beta, rrp[i])
			}
			if s.trace != nil {
				s.trace(r, dl, rr, rrp, wp)
			}
			if math.Log(rng.Uniform()) < mhLogRatio(beta, logw, logwp, rr, rrp, c, cp, dl) {
				copy(w, wp)
				copy(f, a)
			}
		} else {
			rng.Uniform() // the batched block fills the MH uniform for every lane
		}

		// Move 2: the labels, z_n = i with probability ∝ f_i E_ni.
		counts := make([]float64, k)
		sums := make([]float64, k)
		sqs := make([]float64, k)
		cum := make([]float64, k)
		for n := range m.p.Data {
			u := rng.Uniform()
			var i int
			if k == 2 {
				i = int(mix2Label(f[0], f[1], e[n], u))
			} else {
				sum := 0.0
				for l := range cum {
					sum += float64(f[l] * e[n*k+l])
					cum[l] = sum
				}
				i = int(mixLabel(cum, u))
			}
			z[n] = float64(i)
			if k == 2 && i == 0 {
				continue // the block tallies component 1 and subtracts
			}
			counts[i]++
			sums[i] += m.yc[n]
			sqs[i] += m.yc2[n]
		}
		if k == 2 {
			counts[0], sums[0], sqs[0] = float64(len(m.p.Data))-counts[1], m.ycSum-sums[1], m.yc2Sum-sqs[1]
		}

		// Move 3: the means.
		normals := kernel.Normals(rng, k)
		for i := range mu {
			mu[i] = m.meanDraw(beta, gamma, counts[i], sums[i], normals[i])
		}

		// Move 4: the weights.
		for i := range c {
			c[i] = m.weightConc(beta, counts[i])
		}
		gz := kernel.Normals(rng, k)
		mixDirichlet(rng, c, w, gz, mixUniforms(rng, k))

		w0[r], w1[r] = s.energiesFromStats(w, mu, counts, sums, sqs)
	}
	return w0, w1
}

// labelTerms returns the label terms of the weights with logs logw and the
// means mu (see the comment above mixCoef): for K = 2, e[n] = E_n1 (with
// E_n0 = 1), otherwise e[n*K+i] = E_ni; inv[n] = 1/S_n(w); and the expected
// counts R_i(w) = Σ_n E_ni/S_n(w).
func (s mixScalar) labelTerms(beta, g2 float64, logw, mu []float64) (e, inv, rr []float64) {
	m := s.m
	k, nd := m.p.K, len(m.p.Data)
	inv = make([]float64, nd)
	rr = make([]float64, k)
	if k == 2 {
		a, b, mid := mix2Coef(beta, g2, logw[0], logw[1], mu[0], mu[1])
		e = make([]float64, nd)
		for n, y := range m.p.Data {
			e[n] = mixExp(mix2Term(a, b, mid, y))
			inv[n] = 1 / (1 + e[n])
			rr[0] += inv[n]
			rr[1] += float64(e[n] * inv[n])
		}
		return e, inv, rr
	}
	cc, cb := make([]float64, k), make([]float64, k)
	for i := range cc {
		cc[i], cb[i] = mixCoef(beta, g2, logw[i], mu[i]-m.yBar)
	}
	e = make([]float64, nd*k)
	for n, yc := range m.yc {
		en := e[n*k : (n+1)*k]
		mx := 0.0
		for i := range en {
			en[i] = mixTerm(cc[i], cb[i], yc)
			if i == 0 {
				mx = en[i]
			} else {
				mx = max(mx, en[i])
			}
		}
		sum := 0.0
		for i := range en {
			en[i] = mixExp(en[i] - mx)
			sum += en[i]
		}
		inv[n] = 1 / sum
		for i := range en {
			rr[i] += float64(en[i] * inv[n])
		}
	}
	return e, inv, rr
}

// proposalTerms returns R_i(w') = a_i Σ_n E_ni/S'_n and
// ΔL = Nλ + Σ_n log(S'_n/S_n(w)) for the factors a_i and λ of
// mixWeightFactors, with S'_n = Σ_i a_i E_ni, from the terms of labelTerms
// (see mhLogRatio).
func (s mixScalar) proposalTerms(a []float64, lambda float64, e, inv []float64) (rrp []float64, dl float64) {
	k := s.m.p.K
	rrp = make([]float64, k)
	p := 1.0
	dl = float64(len(inv)) * lambda
	for n := range inv {
		var t float64
		if k == 2 {
			t = a[0] + float64(a[1]*e[n])
			rrp[0] += 1 / t
			rrp[1] += float64(e[n] * (1 / t))
		} else {
			en := e[n*k : (n+1)*k]
			for i := range en {
				t += float64(a[i] * en[i])
			}
			for i := range en {
				rrp[i] += float64(en[i] * (1 / t))
			}
		}
		p, dl = mixLogRatioStep(p, dl, t*inv[n])
	}
	dl += math.Log(p)
	for i := range rrp {
		rrp[i] *= a[i]
	}
	return rrp, dl
}

// energies returns W0 and W1 of the state x, tallying its labels.
func (s mixScalar) energies(x []float64) (w0, w1 float64) {
	m := s.m
	k := m.p.K
	counts := make([]float64, k)
	sums := make([]float64, k)
	sqs := make([]float64, k)
	for n := range m.p.Data {
		i := int(x[2*k+n])
		counts[i]++
		sums[i] += m.yc[n]
		sqs[i] += m.yc2[n]
	}
	return s.energiesFromStats(x[:k], x[k:2*k], counts, sums, sqs)
}

// energiesFromStats returns W0 and W1 from the weights, the means and the
// per-component count, centred sum and centred sum of squares of the
// labels.
func (s mixScalar) energiesFromStats(w, mu, counts, sums, sqs []float64) (w0, w1 float64) {
	m := s.m
	sq := 0.0
	for i := range mu {
		sq += mixSqDev(counts[i], sums[i], sqs[i], mu[i]-m.yBar)
	}
	w0 = m.logPrior(mixLogs(w), mu, counts)
	return w0, w0 + m.logLik(sq)
}

// mixUniforms returns the next n uniforms of rng.
func mixUniforms(rng Lane, n int) []float64 {
	u := make([]float64, n)
	for i := range u {
		u[i] = rng.Uniform()
	}
	return u
}

func mixLogs(x []float64) []float64 {
	l := make([]float64, len(x))
	for i, v := range x {
		l[i] = math.Log(v)
	}
	return l
}
