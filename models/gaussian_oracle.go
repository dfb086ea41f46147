package models

import "math"

// ExactLogZ returns log(Z1/Z0) = Dim·(ln σ1 − ln σ0): with W_i =
// −Σ_d (x_d − μ_i)²/(2σ_i²), Z_i = (2πσ_i²)^{Dim/2}.
func (g *Gaussian) ExactLogZ() float64 {
	return float64(g.Dim) * (math.Log(g.Sigma1) - math.Log(g.Sigma0))
}

var _ ExactLogZ = (*Gaussian)(nil)
