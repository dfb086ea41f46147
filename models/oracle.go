package models

import "math"

// ExactLogZ is a Model whose normalising constants have a closed form:
// LogZ returns log(Z1/Z0), Z_i = ∫ exp(W_i), with W0 and W1 exactly as the
// model defines them (so a normalised reference makes it the target's log
// evidence). The stepping-stone estimate of batch.LogZ estimates the same
// number, which makes the model a test of the sampler.
type ExactLogZ interface {
	Model
	ExactLogZ() float64
}

// ExactBarrier is a Model whose global communication barrier Λ along the
// linear path has a closed form: Λ = ∫_0^1 λ(t) dt with λ(t) = ½
// E|V(X) − V(X′)|, V = W1 − W0 and X, X′ independent draws of π_t (Syed et
// al., ICML 2021, §3, eq. for the local barrier λ), the value the sum of
// the rejection rates Σ_n r_n of a fine schedule tends to.
type ExactBarrier interface {
	Model
	ExactBarrier() float64
}

// lnBeta returns ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a+b).
func lnBeta(a, b float64) float64 {
	x, _ := math.Lgamma(a)
	y, _ := math.Lgamma(b)
	z, _ := math.Lgamma(a + b)
	return x + y - z
}
