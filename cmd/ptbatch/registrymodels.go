package main

import (
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
)

// newGaussianPair builds the registry's Gaussian pair N(μ0·1, σ0² I) →
// N(μ1·1, σ1² I) in dimension d, for sweep and highdim.
func newGaussianPair(d int, mu0, mu1, sigma0, sigma1 float64) (models.Model, error) {
	return registry.New(registry.Gaussian, registry.Values{"dim": float64(d), "mu0": mu0, "mu1": mu1,
		"sigma0": sigma0, "sigma1": sigma1}, 0)
}
