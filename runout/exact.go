package runout

import (
	"math"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// ExactLogZ returns log(Z1/Z0), Z_i = ∫ exp(W_i), for a model with a
// closed form (models.ExactLogZ), with W0 and W1 as the model defines
// them; for example
//
//	Gaussian:       W_i = -Σ_d (x_d-μ_i)²/(2σ_i²), Z_i = (2πσ_i²)^{d/2},
//	                log(Z1/Z0) = d·(ln σ1 - ln σ0);
//	Beta-binomial:  W0 = (A-1) ln p + (B-1) ln(1-p), W1 = W0 + S ln p + F ln(1-p),
//	                log(Z1/Z0) = ln B(A+S, B+F) - ln B(A, B),
//
// the Beta-binomial's being its log marginal likelihood without the
// binomial coefficients. The mixtures (galaxy, mixture) have a normalised
// W0, so log(Z1/Z0) is their log evidence, which has no closed form: ok is
// false and logZ NaN.
func ExactLogZ(m models.Model) (logZ float64, ok bool) {
	if e, ok := m.(models.ExactLogZ); ok {
		return e.ExactLogZ(), true
	}
	return math.NaN(), false
}

// ExactBarrier returns the global communication barrier Λ of the linear
// path in closed form (models.ExactBarrier), NaN and false for a model
// without one.
func ExactBarrier(m models.Model) (barrier float64, ok bool) {
	if e, ok := m.(models.ExactBarrier); ok {
		return e.ExactBarrier(), true
	}
	return math.NaN(), false
}

// NewSettings returns the settings of a run of cfg, its model named name
// and its path family path: samples.csv keeps every kept state (Thin 1),
// the workers are cfg's (0: reported as 0, all CPUs), the gradient is
// named as ptbatch's --gradient names it, and log_z_exact is the model's
// closed form (ExactLogZ), NaN without one, and barrier_exact Λ's
// (ExactBarrier), likewise. The caller adds the model's
// parameters (Params) and the index record, if any.
func NewSettings(name, path string, cfg *batch.Config) *Settings {
	exact, _ := ExactLogZ(cfg.Model)
	barrier, _ := ExactBarrier(cfg.Model)
	gradient := "block"
	if cfg.Gradient != batch.BlockGradient {
		gradient = "full"
	}
	return &Settings{Model: name, Path: path, Gradient: gradient, Thin: 1, Workers: cfg.Workers, ExactLogZ: exact, ExactBarrier: barrier}
}
