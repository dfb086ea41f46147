package kernel

import (
	"math"

	"github.com/ptbatch/ptbatch/layout"
)

// GammaTryLog completes the first attempts of MixGammaTry with
// GammaSampler.Try's logarithmic test, the logarithms taken for all the
// refused attempts at once by MixLog (math.Log bit for bit): for every i
// with g[i] == 0, with d = conc[i] - 1/3, c = 1/√(9d), t = 1 + c·x[i],
// v = t³ and x2 = x[i]², when t > 0 and
//
//	log u[i] < 0.5·x2 + d·(1 - v + log v)
//
// it sets g[i] = d·v. Where MixGammaTry left 0, that is the value
// GammaSampler.Try(x[i], u[i]) of a sampler whose attempts have shape
// conc[i] (of shape conc[i], or conc[i] - 1 when boosted), so afterwards
// g[i] is Try's value, 0 where Try rejects. Every conc[i] must be at least
// 1. logs and idx are scratch of at least
// 4·len(g) and len(g) entries. It panics with "kernel: slice lengths do not
// match" unless len(g) == len(conc) == len(x) == len(u), a multiple of
// Lanes, and the scratch is long enough.
func GammaTryLog(g, conc, x, u, logs []float64, idx []int32) {
	n := len(g)
	if rowsOf(n) < 0 || len(conc) != n || len(x) != n || len(u) != n || len(logs) < 4*n || len(idx) < n {
		panic(errLengths)
	}
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
		idx[m], logs[m], logs[n+m] = int32(i), u[i], t*t*t
		m++
	}
	if m == 0 {
		return
	}
	mp := (m + layout.Lanes - 1) / layout.Lanes * layout.Lanes
	for k := m; k < mp; k++ {
		logs[k], logs[n+k] = 1, 1
	}
	lu, lv := logs[2*n:2*n+mp], logs[3*n:3*n+mp]
	MixLog(lu, logs[:mp])
	MixLog(lv, logs[n:n+mp])
	for k, i := range idx[:m] {
		d := conc[i] - 1.0/3
		v := logs[n+k]
		x2 := x[i] * x[i]
		if lu[k] < float64(0.5*x2)+float64(d*(1-v+lv[k])) {
			g[i] = d * v
		}
	}
}
