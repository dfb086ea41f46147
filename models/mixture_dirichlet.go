package models

import (
	"math"

	"github.com/ptbatch/ptbatch/kernel"
)

// mixDirichlet fills w with a Dir(conc) draw (len(w) == len(conc)): Gamma
// variates G_i ~ Gamma(conc[i], 1) drawn in order i = 0, 1, …, then
// w_i = G_i / Σ_i G_i. The first attempt of G_i is kernel.GammaSampler.Try
// with the normal x[i] and the uniform u[i] (the sweeps draw them for all
// lanes at once); kernel.FinishGamma completes it from rng alone (while
// the attempt is rejected, a normal by kernel.Normal and, when 1 + cx > 0,
// a uniform; then the boost uniform if conc[i] < 1), so a lane's draws
// never depend on other lanes. The mixture's parameters are all at least
// 1 (weightConc; move 1 checks with mhProposable), so its variates are
// never boosted; a boosted one is value·exp(logBoost), which underflows to
// 0 for parameters near 0. Like kernel.NewGammaSampler it panics unless
// every parameter is positive and finite. (Generic in the source so that
// the batched block passes a kernel.Lane without allocating.)
func mixDirichlet[R Lane](rng R, conc, w, x, u []float64) {
	sum := 0.0
	for i, a := range conc {
		gs := kernel.NewGammaSampler(a)
		g, logBoost := kernel.FinishGamma(rng, gs, gs.Try(x[i], u[i]))
		if gs.Boosted() {
			g *= math.Exp(logBoost)
		}
		w[i] = g
		sum += g
	}
	for i := range w {
		w[i] /= sum
	}
}
