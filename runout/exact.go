package runout

import (
	"math"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// ExactLogZ returns log(Z1/Z0), Z_i = ∫ exp(W_i), for the built-in models
// with a closed form, with W0 and W1 as package models defines them:
//
//	Gaussian:       W_i = -Σ_d (x_d-μ_i)²/(2σ_i²), Z_i = (2πσ_i²)^{d/2},
//	                log(Z1/Z0) = d·(ln σ1 - ln σ0);
//	Beta-binomial:  W0 = (A-1) ln p + (B-1) ln(1-p), W1 = W0 + S ln p + F ln(1-p),
//	                log(Z1/Z0) = ln B(A+S, B+F) - ln B(A, B),
//
// the Beta-binomial's being its log marginal likelihood without the
// binomial coefficients. The mixtures (galaxy, mixture) have a normalised
// W0, so log(Z1/Z0) is their log evidence, which has no closed form: ok is
// false.
func ExactLogZ(m models.Model) (logZ float64, ok bool) {
	switch m := m.(type) {
	case *models.Gaussian:
		return float64(m.Dim) * (math.Log(m.Sigma1) - math.Log(m.Sigma0)), true
	case *models.BetaBinomial:
		return lnBeta(m.A+float64(m.Successes), m.B+float64(m.Failures)) - lnBeta(m.A, m.B), true
	}
	return math.NaN(), false
}

// lnBeta returns ln B(a, b) = ln Γ(a) + ln Γ(b) - ln Γ(a+b).
func lnBeta(a, b float64) float64 {
	x, _ := math.Lgamma(a)
	y, _ := math.Lgamma(b)
	z, _ := math.Lgamma(a + b)
	return x + y - z
}

// NewSettings returns the settings of a run of cfg, its model named name
// and its path family path: samples.csv keeps every kept state (Thin 1),
// the workers are cfg's (0: reported as 0, all CPUs), the gradient is
// named as ptbatch's --gradient names it, and log_z_exact is the model's
// closed form (ExactLogZ), NaN without one. The caller adds the model's
// parameters (Params) and the index record, if any.
func NewSettings(name, path string, cfg *batch.Config) *Settings {
	exact, _ := ExactLogZ(cfg.Model)
	gradient := "block"
	if cfg.Gradient != batch.BlockGradient {
		gradient = "full"
	}
	return &Settings{Model: name, Path: path, Gradient: gradient, Thin: 1, Workers: cfg.Workers, ExactLogZ: exact}
}
