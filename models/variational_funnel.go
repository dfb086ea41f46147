package models

import "math"

// Funcs returns the funnel's scalar functions (Unconstrained).
func (m *funnelModel) Funcs() Funcs { return m.f }

// LogZ0 returns log ∫ exp(−|x|²/2) dx = (dim/2)·log 2π, the normaliser
// of the funnel's reference N(0, I) (Unconstrained).
func (m *funnelModel) LogZ0() float64 { return 0.5 * float64(m.f.Dim) * math.Log(2*math.Pi) }

// explorer returns the funnel's explorer, which WithReference keeps for
// the variational reference.
func (m *funnelModel) explorer() Explorer { return m.ex }
