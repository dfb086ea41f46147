package kernel

import (
	"math"

	"github.com/ptbatch/ptbatch/layout"
)

// gammaLogBatch is the number of attempts whose logarithms GammaTryLog
// takes in one pair of MixLog calls.
const gammaLogBatch = 128

// GammaLogScratch is the scratch of GammaTryLog: the indices, uniforms and
// cubes v of a batch of attempts and their logarithms. Its zero value is
// ready to use.
type GammaLogScratch struct {
	idx     [gammaLogBatch]int
	in, out [2 * gammaLogBatch]float64
}

// GammaTryLog completes the first attempts of MixGammaTry with
// GammaSampler.Try's logarithmic test (Marsaglia and Tsang's method, see
// GammaSampler), the logarithms taken by MixLog (math.Log bit for bit)
// for batches of the attempts the squeeze refused: for every i with
// g[i] == 0, with d = conc[i] - 1/3, c = 1/√(9d), t = 1 + c·x[i], v = t³
// and x2 = x[i]², when t > 0 and
//
//	log u[i] < 0.5·x2 + d·(1 - v + log v)
//
// it sets g[i] = d·v. Where MixGammaTry left 0, that is the value
// GammaSampler.Try(x[i], u[i]) of a sampler whose attempts have shape
// conc[i] (of shape conc[i], or conc[i] - 1 when boosted), so afterwards
// g[i] is Try's value, 0 where Try rejects. Every conc[i] must be at least
// 1. It panics with "kernel: slice lengths do not match" unless len(g) ==
// len(conc) == len(x) == len(u).
func GammaTryLog(g, conc, x, u []float64, s *GammaLogScratch) {
	n := len(g)
	if len(conc) != n || len(x) != n || len(u) != n {
		panic(errLengths)
	}
	const B = gammaLogBatch
	m := 0
	for i, v := range g {
		if v != 0 {
			continue
		}
		d := conc[i] - 1.0/3
		c := 1 / math.Sqrt(9*d)
		t := 1 + float64(c*x[i])
		if !(t > 0) {
			continue
		}
		s.idx[m], s.in[m], s.in[B+m] = i, u[i], t*t*t
		m++
		if m == B {
			s.test(g, conc, x, m)
			m = 0
		}
	}
	if m > 0 {
		s.test(g, conc, x, m)
	}
}

// test makes the logarithmic test of the batch of m attempts in s.
func (s *GammaLogScratch) test(g, conc, x []float64, m int) {
	const B = gammaLogBatch
	mp := (m + layout.Lanes - 1) / layout.Lanes * layout.Lanes
	for k := m; k < mp; k++ {
		s.in[k], s.in[B+k] = 1, 1
	}
	MixLog(s.out[:mp], s.in[:mp])
	MixLog(s.out[B:B+mp], s.in[B:B+mp])
	for k, i := range s.idx[:m] {
		d := conc[i] - 1.0/3
		v := s.in[B+k]
		x2 := x[i] * x[i]
		if s.out[k] < float64(0.5*x2)+float64(d*(1-v+s.out[B+k])) {
			g[i] = d * v
		}
	}
}
