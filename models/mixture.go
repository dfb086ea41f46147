package models

import (
	"fmt"
	"math"
)

// MixtureParams are the settings of a Bayesian Gaussian mixture with K
// components of known standard deviation Sigma (see Mixture).
type MixtureParams struct {
	// Name is the model's name on the command line; empty means "mixture".
	Name string
	// K is the number of components, 1 ≤ K ≤ 256 (labels are stored as bytes).
	K int
	// Sigma is the standard deviation σ of every component.
	Sigma float64
	// PriorMean and PriorSD are m and τ of the N(m, τ²) prior on each mean.
	PriorMean, PriorSD float64
	// Alpha is the concentration α ≥ 1 of the symmetric Dir(α,…,α) prior on
	// the weights.
	Alpha float64
	// Data are the observations y_1 … y_N, N ≥ 1.
	Data []float64
}

// Mixture is the Bayesian Gaussian mixture of the paper's galaxy and
// mixture-model experiments (appendix "Experimental details", Galaxy data
// and Mixture model), with the labels not marginalised. Its state is
// x = (w, μ, z): weights w_0 … w_{K-1} on the simplex, means
// μ_0 … μ_{K-1}, one label z_n ∈ {0 … K-1} per observation y_1 … y_N, so
// K + K + N latent variables; its first coordinate (Energies.First) is μ_0.
// The
// complete-data model is p(w) p(μ) Π_n p(z_n | w) p(y_n | μ_{z_n}):
//
//	W0(x) = log Dir(w; α) + Σ_i log N(μ_i; m, τ²) + Σ_n log w_{z_n}
//	      = lnΓ(Kα) - K lnΓ(α) + Σ_i (α - 1 + n_i) log w_i
//	        - K/2 log(2πτ²) - Σ_i (μ_i - m)²/(2τ²),
//	W1(x) = W0(x) + Σ_n log N(y_n; μ_{z_n}, σ²)
//	      = W0(x) - N/2 log(2πσ²) - Σ_n (y_n - μ_{z_n})²/(2σ²),
//
// with n_i = #{n : z_n = i}. The label prior Σ_n log w_{z_n} is part of W0:
// the reference π0 = exp(W0) is then the full prior, a normalised density
// that can be sampled exactly (w ~ Dir(α), μ_i ~ N(m, τ²), z_n ~ Cat(w)),
// and π1 ∝ exp(W1) is the posterior: W0 is a normalised log density, W1
// the log joint density, i.e. the log posterior plus the log evidence.
//
// The annealed density exp(η0 W0 + η1 W1) of the exponential family
// (sec:annealed_exponential_family) is, with β = η0 + η1 and γ = η1,
//
//	π_η(x) ∝ Dir(w; α)^β Π_i N(μ_i; m, τ²)^β Π_n w_{z_n}^β N(y_n; μ_{z_n}, σ²)^γ.
//
// It is proper exactly when β > 0 and β/τ² + min(γ, 0) N/σ² > 0: the
// weights then have density Π_i w_i^{β(α-1+n_i)} with exponents ≥ 0 (this is
// why α ≥ 1), the labels are finite, and every mean has a Gaussian factor of
// precision β/τ² + γ n_i/σ² > 0 for every count n_i ≤ N. Both η = (1, 0)
// and η = (0, 1), and every η ≥ 0 other than 0, are proper. Rows whose
// coefficients are improper are left unchanged and get NaN energies.
//
// Local exploration (Block.Explore) is one sweep of four moves, each
// leaving π_η invariant, in this order:
//
//  1. a Metropolis–Hastings move of w targeting π_η(w | μ) with the labels
//     summed out (the paper's extra step "that approximates a Gibbs step
//     when the indicators are marginalised"; proposal and ratio are
//     derived beside mhLogRatio in mixture_mh.go),
//  2. Gibbs for every label: P(z_n = i) ∝ w_i^β N(y_n; μ_i, σ²)^γ,
//  3. Gibbs for every mean: μ_i ~ N(b_i/p_i, 1/p_i) with precision
//     p_i = β/τ² + γ n_i/σ² and b_i = β m/τ² + γ Σ_{z_n=i} y_n/σ²,
//  4. Gibbs for the weights: w ~ Dir(β(α-1) + β n_i + 1), by Gamma
//     variates (Marsaglia and Tsang, 2000).
//
// Moves 1 and 2 together leave π_η invariant although move 1 alone ignores
// the labels: move 1 preserves the marginal of (w, μ), and move 2 then
// redraws all labels from their exact conditional.
type Mixture struct {
	p MixtureParams

	// Constants of the densities.
	dirConst   float64 // lnΓ(Kα) - K lnΓ(α)
	priorConst float64 // -K/2 log(2πτ²)
	likConst   float64 // -N/2 log(2πσ²)
	hPrior     float64 // 1/(2τ²)
	hLik       float64 // 1/(2σ²)
	precPrior  float64 // 1/τ²
	precLik    float64 // 1/σ²
	meanPrec   float64 // m/τ²
}

// NewMixtureModel returns the mixture with parameters p, or an error naming
// the first bad parameter. It keeps its own copy of p.Data.
func NewMixtureModel(p MixtureParams) (*Mixture, error) {
	switch {
	case p.K < 1 || p.K > 256:
		return nil, fmt.Errorf("k must be between 1 and 256, got %d", p.K)
	case !(p.Sigma > 0) || !finite(p.Sigma):
		return nil, fmt.Errorf("sigma must be positive and finite, got %v", p.Sigma)
	case !finite(p.PriorMean):
		return nil, fmt.Errorf("prior mean must be finite, got %v", p.PriorMean)
	case !(p.PriorSD > 0) || !finite(p.PriorSD):
		return nil, fmt.Errorf("prior sd must be positive and finite, got %v", p.PriorSD)
	case !(p.Alpha >= 1) || !finite(p.Alpha):
		return nil, fmt.Errorf("alpha must be at least 1 and finite, got %v", p.Alpha)
	case len(p.Data) == 0:
		return nil, fmt.Errorf("data must hold at least one observation, got %d", len(p.Data))
	}
	for n, y := range p.Data {
		if !finite(y) {
			return nil, fmt.Errorf("data[%d] must be finite, got %v", n, y)
		}
	}
	if p.Name == "" {
		p.Name = "mixture"
	}
	p.Data = append([]float64(nil), p.Data...)
	k, n := float64(p.K), float64(len(p.Data))
	lgKa, _ := math.Lgamma(k * p.Alpha)
	lga, _ := math.Lgamma(p.Alpha)
	tau2, sigma2 := p.PriorSD*p.PriorSD, p.Sigma*p.Sigma
	return &Mixture{
		p:          p,
		dirConst:   lgKa - k*lga,
		priorConst: -k / 2 * math.Log(2*math.Pi*tau2),
		likConst:   -n / 2 * math.Log(2*math.Pi*sigma2),
		hPrior:     1 / (2 * tau2),
		hLik:       1 / (2 * sigma2),
		precPrior:  1 / tau2,
		precLik:    1 / sigma2,
		meanPrec:   p.PriorMean / tau2,
	}, nil
}

// Params returns a copy of the model's parameters.
func (m *Mixture) Params() MixtureParams {
	p := m.p
	p.Data = append([]float64(nil), p.Data...)
	return p
}

// Name returns the model's name.
func (m *Mixture) Name() string { return m.p.Name }

// Independent returns false: a sweep moves the current state.
func (m *Mixture) Independent() bool { return false }

// Annealed returns the prior power β = eta0 + eta1 and the likelihood power
// γ = eta1 of the annealed density exp(eta0·W0 + eta1·W1), and ok = false
// when that density is improper (see Mixture).
func (m *Mixture) Annealed(eta0, eta1 float64) (beta, gamma float64, ok bool) {
	beta, gamma = eta0+eta1, eta1
	prec := beta * m.precPrior
	if gamma < 0 {
		prec += gamma * float64(len(m.p.Data)) * m.precLik
	}
	ok = finite(eta0) && finite(eta1) && beta > 0 && prec > 0 && finite(prec)
	return beta, gamma, ok
}

// logPrior returns W0 of the state with log weights logw, means mu and label
// counts counts (each K long), summing over components in order.
func (m *Mixture) logPrior(logw, mu, counts []float64) float64 {
	s := m.dirConst + m.priorConst
	a1 := m.p.Alpha - 1
	for i := range logw {
		d := mu[i] - m.p.PriorMean
		s += (a1+counts[i])*logw[i] - m.hPrior*d*d
	}
	return s
}

// logLik returns the log likelihood given sq = Σ_n (y_n - μ_{z_n})².
func (m *Mixture) logLik(sq float64) float64 { return m.likConst - m.hLik*sq }

// mixLogLik returns -g2 (y - μ)², with g2 = γ/(2σ²): the log of
// N(y; μ, σ²)^γ up to a constant.
func mixLogLik(g2, y, mu float64) float64 {
	d := y - mu
	return -g2 * d * d
}

// meanDraw returns a draw of μ_i from its conditional (move 3 of Mixture)
// given the count and sum of the observations labelled i and a standard
// normal z.
func (m *Mixture) meanDraw(beta, gamma, count, sum, z float64) float64 {
	prec := beta*m.precPrior + gamma*count*m.precLik
	b := beta*m.meanPrec + gamma*sum*m.precLik
	return b/prec + z/math.Sqrt(prec)
}

// weightConc returns the Dirichlet parameter β(α-1) + β c + 1 of component
// i's weight given its label count c (move 4), or, with c the sum of its
// responsibilities, of the MH proposal (move 1).
func (m *Mixture) weightConc(beta, c float64) float64 {
	return beta*(m.p.Alpha-1) + beta*c + 1
}

// mixPick returns the label chosen by t ∈ [0, Σ_i wb[i*stride]·e[i*stride])
// among the K unnormalised probabilities wb[i*stride]·e[i*stride]: the
// first i whose cumulative sum exceeds t (the last one if rounding leaves
// none).
func mixPick(wb, e []float64, stride, k int, t float64) int {
	cum := 0.0
	for i := 0; i < k-1; i++ {
		cum += wb[i*stride] * e[i*stride]
		if t < cum {
			return i
		}
	}
	return k - 1
}
