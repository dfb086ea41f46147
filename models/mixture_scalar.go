package models

import (
	"math"

	"github.com/ptbatch/ptbatch/kernel"
)

// Scalar returns the reference implementation. Its state of a row is one
// slice of 2K+N float64: the weights w_0 … w_{K-1}, the means
// μ_0 … μ_{K-1}, then the labels z_1 … z_N as whole numbers. It shares
// with the batched block only the per-value helpers (mixLogLik, mixExp,
// meanDraw, weightConc, mixPick, mixDirichlet, mhProposable, mhLogRatio,
// mixLogRatioStep, logPrior, logLik), so the two agree bit for bit while
// differing in layout, loop order and bookkeeping.
func (m *Mixture) Scalar() Scalar { return mixScalar{m} }

type mixScalar struct{ m *Mixture }

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

func (s mixScalar) Explore(rng Lane, states [][]float64, eta0, eta1 []float64) ([]float64, []float64) {
	m := s.m
	k := m.p.K
	w0 := make([]float64, len(states))
	w1 := make([]float64, len(states))
	for r, x := range states {
		beta, gamma, ok := m.Annealed(eta0[r], eta1[r])
		if !ok {
			// The batched fills still give this lane its MH uniform, its
			// label uniforms and its K normals.
			rng.Uniform()
			for range m.p.Data {
				rng.Uniform()
			}
			kernel.Normals(rng, k)
			w0[r], w1[r] = math.NaN(), math.NaN()
			continue
		}
		w, mu, z := x[:k], x[k:2*k], x[2*k:]

		// Move 1: MH for the weights with the labels marginalised.
		e := s.likTerms(gamma*m.hLik, mu)
		logw := mixLogs(w)
		wb, sum, inv, rr := s.weightTerms(beta, logw, e)
		c := make([]float64, k)
		for i := range c {
			c[i] = m.weightConc(beta, rr[i])
		}
		if mhProposable(c) {
			wp := make([]float64, k)
			mixDirichlet(rng, c, wp)
			logwp := mixLogs(wp)
			wbp, sump, _, rrp := s.weightTerms(beta, logwp, e)
			cp := make([]float64, k)
			for i := range cp {
				cp[i] = m.weightConc(beta, rrp[i])
			}
			p, dl := 1.0, 0.0
			for n := range sum {
				p, dl = mixLogRatioStep(p, dl, sump[n]*inv[n])
			}
			dl += math.Log(p)
			if math.Log(rng.Uniform()) < mhLogRatio(beta, logw, logwp, rr, rrp, c, cp, dl) {
				copy(w, wp)
				wb, sum = wbp, sump
			}
		} else {
			rng.Uniform() // the batched block fills the MH uniform for every lane
		}

		// Move 2: the labels.
		counts := make([]float64, k)
		sums := make([]float64, k)
		for n, y := range m.p.Data {
			t := rng.Uniform() * sum[n]
			i := mixPick(wb, e[n*k:], 1, k, t)
			z[n] = float64(i)
			counts[i]++
			sums[i] += y
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
		mixDirichlet(rng, c, w)

		w0[r], w1[r] = s.energies(x)
	}
	return w0, w1
}

// likTerms returns E_ni (see mhLogRatio) at e[n*K+i] for the means mu and
// g2 = γ/(2σ²).
func (s mixScalar) likTerms(g2 float64, mu []float64) []float64 {
	k := s.m.p.K
	e := make([]float64, len(s.m.p.Data)*k)
	for n, y := range s.m.p.Data {
		a := e[n*k : (n+1)*k]
		for i := range a {
			a[i] = mixLogLik(g2, y, mu[i])
		}
		mx := a[0]
		for i := 1; i < k; i++ {
			if a[i] > mx {
				mx = a[i]
			}
		}
		for i := range a {
			a[i] = mixExp(a[i] - mx)
		}
	}
	return e
}

// weightTerms returns, for the log weights logw and the label terms e,
// wb_i = w_i^β, S_n(w), 1/S_n(w) and R(w) (see mhLogRatio).
func (s mixScalar) weightTerms(beta float64, logw, e []float64) (wb, sum, inv, rr []float64) {
	k := s.m.p.K
	wb = make([]float64, k)
	for i := range wb {
		wb[i] = math.Exp(beta * logw[i])
	}
	sum = make([]float64, len(s.m.p.Data))
	inv = make([]float64, len(s.m.p.Data))
	rr = make([]float64, k)
	for n := range s.m.p.Data {
		en := e[n*k : (n+1)*k]
		for i := range en {
			sum[n] += wb[i] * en[i]
		}
		inv[n] = 1 / sum[n]
		for i := range en {
			rr[i] += en[i] * inv[n]
		}
	}
	for i := range rr {
		rr[i] *= wb[i]
	}
	return wb, sum, inv, rr
}

// energies returns W0 and W1 of the state x.
func (s mixScalar) energies(x []float64) (w0, w1 float64) {
	m := s.m
	k := m.p.K
	w, mu, z := x[:k], x[k:2*k], x[2*k:]
	counts := make([]float64, k)
	sq := 0.0
	for n, y := range m.p.Data {
		i := int(z[n])
		counts[i]++
		d := y - mu[i]
		sq += d * d
	}
	w0 = m.logPrior(mixLogs(w), mu, counts)
	return w0, w0 + m.logLik(sq)
}

func mixLogs(x []float64) []float64 {
	l := make([]float64, len(x))
	for i, v := range x {
		l[i] = math.Log(v)
	}
	return l
}
