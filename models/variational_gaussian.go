package models

import "math"

// Funcs returns the Gaussian's scalar functions (Unconstrained): W0 and
// W1 as logDensities sums them, the exact reference draw x_d = μ0 + σ0·z_d,
// and the gradients ∇W_i(x) = −(x − μ_i)/σ_i².
func (g *Gaussian) Funcs() Funcs {
	grad := func(mu, sigma float64) func(x, dst []float64) {
		return func(x, dst []float64) {
			for d, v := range x {
				dst[d] = -(v - mu) / (sigma * sigma)
			}
		}
	}
	return Funcs{
		Dim:          g.Dim,
		LogReference: func(x []float64) float64 { w0, _ := g.logDensities(x); return w0 },
		LogTarget:    func(x []float64) float64 { _, w1 := g.logDensities(x); return w1 },
		SampleReference: func(r Rand, x []float64) {
			for d := range x {
				x[d] = math.FMA(g.Sigma0, r.Normal(), g.Mu0)
			}
		},
		GradLogReference: grad(g.Mu0, g.Sigma0),
		GradLogTarget:    grad(g.Mu1, g.Sigma1),
	}
}

// LogZ0 returns log ∫ exp(W0) = (Dim/2)·log(2πσ0²) (Unconstrained).
func (g *Gaussian) LogZ0() float64 {
	return 0.5 * float64(g.Dim) * math.Log(2*math.Pi*g.Sigma0*g.Sigma0)
}
