package models

import "math"

// Funcs returns the regression's scalar functions, LogisticFuncs of its
// data and prior (Unconstrained): the same W0 and W1 as its batched
// blocks, up to rounding.
func (m *logisticModel) Funcs() Funcs { return LogisticFuncs(m.data, m.priorSD) }

// LogZ0 returns log ∫ exp(W0) = (p/2)·log(2πσ²) for the p coefficients
// (Unconstrained): W0(β) = −|β|²/(2σ²) is the prior N(0, σ² I) without
// its normaliser, so that the model's log Z is log ∫ exp(W1) −
// (p/2)·log(2πσ²), the log marginal likelihood of the data.
func (m *logisticModel) LogZ0() float64 {
	return 0.5 * float64(m.data.NumCoefs()) * math.Log(2*math.Pi*m.priorSD*m.priorSD)
}

// explorer returns the regression's explorer, which WithReference keeps
// for the variational reference.
func (m *logisticModel) explorer() Explorer { return m.ex }
