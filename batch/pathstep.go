package batch

import "math"

// pathStep computes lane j's SKL gradient from the recorded energies and
// steps its spline.
//
// The block form (the default) uses the moments of each chain accumulated
// during the scan; the full form the recorded energies, whose cross-chain
// covariances have zero expectation under the product target but add
// variance (tune.SKLWorkspace.Gradient).
func (b *block) pathStep(cfg *Config, j, iters int) {
	if cfg.Gradient != FullGradient {
		b.momentPathStep(cfg, j, iters)
		return
	}
	cols := 2 * b.numChains
	mat := b.matrix[:iters*cols]
	for m := 0; m < iters; m++ {
		for col := 0; col < cols; col++ {
			mat[m*cols+col] = b.record[(m*cols+col)*lanes+j]
		}
	}
	b.work[j].Gradient(b.grad, mat, iters, b.sched[j], b.path[j], cfg.Gradient == FullGradient)
	for _, g := range b.grad {
		if math.IsNaN(g) || math.IsInf(g, 0) {
			return // no step on a non-finite gradient; the scan's statistics show why
		}
	}
	b.path[j].Step(b.grad, cfg.LearningRate)
}

// momentPathStep is pathStep's block form: the sample means and
// covariances (divisor M-1) of each chain's energies over the scan, from
// the shifted sums.
func (b *block) momentPathStep(cfg *Config, j, iters int) {
	if iters < 2 {
		return
	}
	m := float64(iters)
	for n := 0; n < b.numChains; n++ {
		i := n*lanes + j
		s0, s1 := b.wSum0[i], b.wSum1[i]
		b.mean[2*n] = b.wShift0[i] + s0/m
		b.mean[2*n+1] = b.wShift1[i] + s1/m
		b.cov[3*n] = (b.wSq00[i] - s0*s0/m) / (m - 1)
		b.cov[3*n+1] = (b.wSq01[i] - s0*s1/m) / (m - 1)
		b.cov[3*n+2] = (b.wSq11[i] - s1*s1/m) / (m - 1)
	}
	b.work[j].MomentGradient(b.grad, b.mean, b.cov, b.sched[j], b.path[j])
	b.path[j].Step(b.grad, cfg.LearningRate)
}
