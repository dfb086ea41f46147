package batch

import "math"

// pathStep computes lane j's SKL gradient from the recorded energies and
// steps its spline.
func (b *block) pathStep(cfg *Config, j, iters int) {
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
