package models

import (
	"fmt"
	"math"
	"strconv"
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
// K + K + N latent variables. Its observables are the means μ_0 … μ_{K-1},
// then the weights w_0 … w_{K-1}.
// The complete-data model is p(w) p(μ) Π_n p(z_n | w) p(y_n | μ_{z_n}):
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
//     variates (kernel.GammaSampler: Marsaglia and Tsang, 2000).
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

	// The data centred on their mean ȳ (the sweeps work in centred
	// coordinates y' = y - ȳ, μ' = μ - ȳ, which keeps the terms they
	// subtract small), with their squares and sums.
	yBar      float64   // ȳ
	yc, yc2   []float64 // y'_n and y'_n², N each
	ycSum     float64   // Σ_n y'_n
	yc2Sum    float64   // Σ_n y'_n²
	ycLo      float64   // min_n y'_n
	ycHi      float64   // max_n y'_n
	meanPrecC float64   // (m - ȳ)/τ²
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
	yBar := 0.0
	for _, y := range p.Data {
		yBar += y
	}
	yBar /= n
	m := &Mixture{
		p:          p,
		dirConst:   lgKa - k*lga,
		priorConst: -k / 2 * math.Log(2*math.Pi*tau2),
		likConst:   -n / 2 * math.Log(2*math.Pi*sigma2),
		hPrior:     1 / (2 * tau2),
		hLik:       1 / (2 * sigma2),
		precPrior:  1 / tau2,
		precLik:    1 / sigma2,
		yBar:       yBar,
		yc:         make([]float64, len(p.Data)),
		yc2:        make([]float64, len(p.Data)),
		meanPrecC:  (p.PriorMean - yBar) / tau2,
	}
	for i, y := range p.Data {
		d := y - yBar
		m.yc[i], m.yc2[i] = d, d*d
		m.ycSum += m.yc[i]
		m.yc2Sum += m.yc2[i]
		if i == 0 || d < m.ycLo {
			m.ycLo = d
		}
		if i == 0 || d > m.ycHi {
			m.ycHi = d
		}
	}
	return m, nil
}

// Params returns a copy of the model's parameters.
func (m *Mixture) Params() MixtureParams {
	p := m.p
	p.Data = append([]float64(nil), p.Data...)
	return p
}

// Name returns the model's name.
func (m *Mixture) Name() string { return m.p.Name }

// Observables returns "mu0", …, "mu{K-1}", "w0", …, "w{K-1}".
func (m *Mixture) Observables() []string {
	names := make([]string, 0, 2*m.p.K)
	for i := 0; i < m.p.K; i++ {
		names = append(names, "mu"+strconv.Itoa(i))
	}
	for i := 0; i < m.p.K; i++ {
		names = append(names, "w"+strconv.Itoa(i))
	}
	return names
}

// Annealed returns the prior power β = eta0 + eta1 and the likelihood power
// γ = eta1 of the annealed density exp(eta0·W0 + eta1·W1), and ok = false
// when that density is improper (see Mixture).
func (m *Mixture) Annealed(eta0, eta1 float64) (beta, gamma float64, ok bool) {
	beta, gamma = eta0+eta1, eta1
	prec := beta * m.precPrior
	if gamma < 0 {
		prec += float64(gamma * float64(len(m.p.Data)) * m.precLik)
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
		s += float64((a1+counts[i])*logw[i]) - float64(m.hPrior*d*d)
	}
	return s
}

// logLik returns the log likelihood given sq = Σ_n (y_n - μ_{z_n})².
func (m *Mixture) logLik(sq float64) float64 { return m.likConst - float64(m.hLik*sq) }

// mixSqDev returns Σ_{z_n=i} (y_n - μ_i)² of one component from the
// sufficient statistics of its observations in centred coordinates: count
// c, sum s = Σ y'_n and sum of squares q = Σ y'_n², and its centred mean
// muc = μ_i - ȳ: q - 2 muc s + c muc² = q + muc (c muc - 2s).
func mixSqDev(c, s, q, muc float64) float64 {
	return q + float64(muc*(float64(c*muc)-2*s))
}

// meanDraw returns a draw of μ_i from its conditional (move 3 of Mixture)
// given the count and the centred sum Σ_{z_n=i} y'_n of the observations
// labelled i and a standard normal z, computed in centred coordinates:
// μ_i - ȳ = b'_i/p_i + z/√p_i with b'_i = β(m - ȳ)/τ² + γ Σ y'_n/σ².
func (m *Mixture) meanDraw(beta, gamma, count, sumc, z float64) float64 {
	prec := float64(beta*m.precPrior) + float64(gamma*count*m.precLik)
	b := float64(beta*m.meanPrecC) + float64(gamma*sumc*m.precLik)
	return m.yBar + (b/prec + z/math.Sqrt(prec))
}

// weightConc returns the Dirichlet parameter β(α-1) + β c + 1 of component
// i's weight given its label count c (move 4), or, with c the sum of its
// responsibilities, of the MH proposal (move 1).
func (m *Mixture) weightConc(beta, c float64) float64 {
	return float64(beta*(m.p.Alpha-1)) + float64(beta*c) + 1
}

// The label terms. Moves 1 and 2 need, for every observation n and
// component i, the unnormalised label probability w_i^β N(y_n; μ_i, σ²)^γ
// up to a factor common to the components of n. In centred coordinates its
// logarithm is, up to such a factor (the -γ y'_n²/(2σ²) and the Gaussian
// constant),
//
//	l_ni = β log w_i - g2 μ'_i² + 2 g2 μ'_i y'_n,  g2 = γ/(2σ²),
//
// linear in y'_n, and the sweeps use E_ni = exp(l_ni - M_n) with
// M_n = max_i l_ni (mixCoef, mixTerm): E_ni ≤ 1 with equality at the
// largest, so the sum S_n = Σ_i E_ni lies in [1, K]. For K = 2 the terms
// are taken relative to component 0 instead, E_n0 = 1 and
// E_n1 = exp(d_n) with d_n = l_n1 - l_n0 = A + B (y_n - (μ_0 + μ_1)/2),
// A = β log(w_1/w_0), B = 2 g2 (μ_1 - μ_0) (mix2Coef, mix2Term): one
// exponential per observation; d_n is clamped at 700 (E_n1 ≤ 1e304), which
// changes the label probability of component 0 only when it is below
// 1e-304, and mixExps flushes E_n1 to 0 below e^-700 likewise. The
// rounding error of l_ni or d_n is a few ulps of the largest of its terms
// (|β log w_i|, g2 μ'_i², |2 g2 μ'_i y'_n|), which for the components that
// carry weight at an observation are of order 10–100 in the paper's
// models: a relative error near 1e-14 in a label probability (components
// far from the observation have larger terms, and terms E_ni below
// e^-600 or so).

// mixCoef returns the coefficients of l_ni = c + b y'_n for a component of
// log weight lw and centred mean muc.
func mixCoef(beta, g2, lw, muc float64) (c, b float64) {
	return float64(beta*lw) - float64(g2*muc*muc), 2 * g2 * muc
}

// mixTerm returns l_ni = c + b y'_n.
func mixTerm(c, b, yc float64) float64 { return c + float64(b*yc) }

// liveComponents appends to live, in increasing order, the components of
// one replicate whose label terms are not all flushed to 0, given the
// coefficients cc, cb of its terms l_ni = c_i + b_i y'_n (mixCoef), and
// returns it; the others need no work (their terms E_ni are exactly 0 for
// every n). Component i is certainly flushed when another component l
// beats it by more than 701 at both ends of the data range [y'_lo, y'_hi]:
// l_ni - l_nl is linear in y'_n, so it is below -701 at every observation,
// hence E_ni = exp(l_ni - M_n) with M_n ≥ l_nl has an argument below
// mixExpMin = -700. The candidates l are the largest components at the two
// ends. The margin covers rounding: the computed l_ni differ from the exact
// ones by at most 2^-52 (|c_i| + |b_i| max|y'|), far less than the
// 1e-14 (|c_i| + |c_l| + (|b_i| + |b_l|) max|y'|) allowed.
func (m *Mixture) liveComponents(cc, cb []float64, live []int32) []int32 {
	lo, hi := m.ycLo, m.ycHi
	yMax := max(-lo, hi)
	iLo, iHi := 0, 0
	for i := range cc {
		if mixTerm(cc[i], cb[i], lo) > mixTerm(cc[iLo], cb[iLo], lo) {
			iLo = i
		}
		if mixTerm(cc[i], cb[i], hi) > mixTerm(cc[iHi], cb[iHi], hi) {
			iHi = i
		}
	}
	beaten := func(i, l int) bool {
		lim := mixExpMin - 1 - 1e-14*(math.Abs(cc[i])+math.Abs(cc[l])+(math.Abs(cb[i])+math.Abs(cb[l]))*yMax)
		return mixTerm(cc[i], cb[i], lo)-mixTerm(cc[l], cb[l], lo) < lim &&
			mixTerm(cc[i], cb[i], hi)-mixTerm(cc[l], cb[l], hi) < lim
	}
	for i := range cc {
		if !beaten(i, iLo) && !beaten(i, iHi) {
			live = append(live, int32(i))
		}
	}
	return live
}

// mix2Coef returns A, B and the midpoint (μ_0 + μ_1)/2 of the two-component
// terms from the log weights and the means.
func mix2Coef(beta, g2, lw0, lw1, mu0, mu1 float64) (a, b, mid float64) {
	return beta * (lw1 - lw0), 2 * g2 * (mu1 - mu0), 0.5 * (mu0 + mu1)
}

// mix2Term returns d_n = A + B (y_n - mid), clamped at 700.
func mix2Term(a, b, mid, y float64) float64 {
	d := a + float64(b*(y-mid))
	if d > 700 {
		d = 700
	}
	return d
}

// mixLabel returns the label drawn by the uniform u from the cumulative
// sums cum[0] ≤ … ≤ cum[K-1] of the unnormalised label probabilities: the
// number of i < K-1 with cum[i] ≤ u·cum[K-1], i.e. the first i whose
// cumulative sum exceeds u·cum[K-1] (K-1 if rounding leaves none).
func mixLabel(cum []float64, u float64) uint8 {
	k := len(cum)
	t := u * cum[k-1]
	var z uint8
	for _, c := range cum[:k-1] {
		z += b2u8(c <= t)
	}
	return z
}

// mix2Label is mixLabel for two components with cumulative sums f0 and
// f0 + f1·e, e = E_n1.
func mix2Label(f0, f1, e, u float64) uint8 {
	return b2u8(f0 <= u*(f0+float64(f1*e)))
}

// b2u8 returns 1 for true and 0 for false (compiled without a branch).
func b2u8(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
