package models

import "math"

// ExactLogZ returns log(Z1/Z0) = ln scale: with the reference N(0, I),
// Z0 = (2π)^{D/2}, and funnelLog's target, whose x_i integrate out to
// ∫ e^{−x²e^{−v}/2 − v/2} dx = √(2π) for every v, Z1 = √(2π)·scale ·
// (2π)^{(D−1)/2}.
func (m *funnelModel) ExactLogZ() float64 { return math.Log(m.scale) }

var _ ExactLogZ = (*funnelModel)(nil)
