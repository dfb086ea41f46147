package models

import "math"

// The ranges NewGaussian accepts: within them 1/σ², μ/σ² and the annealed
// means and precisions stay well inside float64 (1/σ² overflows for σ below
// about 1e-154 and underflows to a subnormal above about 1e154).
const (
	MinGaussianSigma = 1e-100 // smallest σ0, σ1
	MaxGaussianSigma = 1e100  // largest σ0, σ1
	MaxGaussianMean  = 1e100  // largest |μ0|, |μ1|
	// MaxGaussianEnergy bounds the scale of the energies,
	// d·((|μ1-μ0| + 10⁴·max σ)/min σ)²/2: beyond it W0 and W1 overflow
	// or lose every digit of the differences the swaps need.
	MaxGaussianEnergy = 1e300
)

// GaussianEnergyScale returns log10 of the energy scale
// d·((|μ1-μ0| + 10⁴·max(σ0, σ1))/min(σ0, σ1))²/2 that NewGaussian
// compares with MaxGaussianEnergy (computed in logarithms, so it does not
// overflow).
func GaussianEnergyScale(dim int, mu0, mu1, sigma0, sigma1 float64) float64 {
	lo, hi := min(sigma0, sigma1), max(sigma0, sigma1)
	r := math.Log10(math.Abs(mu1-mu0)/2+1e4/2*hi) + math.Log10(2) - math.Log10(lo)
	return math.Log10(float64(dim)) + 2*r - math.Log10(2)
}

// The range NewBetaBinomial accepts for the prior shapes a and b: below
// MinBetaShape the prior's a - 1 rounds to -1 in the annealed shapes
// (η0+η1)(a-1) + η1·S + 1 (a is lost below 1.1e-16, and its relative error
// is 1e-10 at 1e-6); above MaxBetaShape the shapes lose the integer
// precision of the data totals.
const (
	MinBetaShape = 1e-6
	MaxBetaShape = 1e15
)
