package models

import (
	"fmt"
	"math"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// BetaBinomial is the conjugate Beta-binomial model of the paper's
// experiments (appendix "Experimental details", Beta-binomial model): a
// Beta(A, B) prior on the success probability p and binomial data of which
// only the totals matter, S = Successes and F = Failures. The reference is
// the prior and the target the posterior, both unnormalised:
//
//	W0(p) = (A-1) log p + (B-1) log(1-p),
//	W1(p) = W0(p) + S log p + F log(1-p).
//
// The annealed density exp(η0 W0 + η1 W1) is
//
//	p^((η0+η1)(A-1) + η1 S) (1-p)^((η0+η1)(B-1) + η1 F),
//
// the Beta(α, β) density with
//
//	α = (η0+η1)(A-1) + η1 S + 1,  β = (η0+η1)(B-1) + η1 F + 1,
//
// whenever α > 0 and β > 0 (on the linear path η = (1-t, t) these are the
// paper's α = (A-1) + t S + 1, β = (B-1) + t F + 1). Local exploration is
// therefore an exact independent Beta draw; coefficients with α ≤ 0 or
// β ≤ 0 give no proper density and NaN energies.
type BetaBinomial struct {
	A, B                float64 // prior shapes
	Successes, Failures int64   // data totals S and F
}

// maxExactCount bounds the data totals so that they and their sums with
// the prior shapes stay exact in float64.
const maxExactCount = 1 << 52

// NewBetaBinomial returns the Beta-binomial model with prior Beta(a, b) and
// data totals of successes successes and failures failures, or an error
// naming the first bad parameter (a and b must lie in [MinBetaShape,
// MaxBetaShape], the totals in [0, 2^52]).
func NewBetaBinomial(a, b float64, successes, failures int64) (*BetaBinomial, error) {
	switch {
	case !(a >= MinBetaShape && a <= MaxBetaShape):
		return nil, fmt.Errorf("prior a must be in [1e-06, 1e+15], got %v", a)
	case !(b >= MinBetaShape && b <= MaxBetaShape):
		return nil, fmt.Errorf("prior b must be in [1e-06, 1e+15], got %v", b)
	case successes < 0 || successes > maxExactCount:
		return nil, fmt.Errorf("successes must be between 0 and 2^52, got %d", successes)
	case failures < 0 || failures > maxExactCount:
		return nil, fmt.Errorf("failures must be between 0 and 2^52, got %d", failures)
	}
	return &BetaBinomial{A: a, B: b, Successes: successes, Failures: failures}, nil
}

// MaxSimulatedTrials bounds draws×trials in SimulateBinomialData, which
// simulates every Bernoulli trial (about 3 ns each).
const MaxSimulatedTrials = 1_000_000_000

// SimulateBinomialData returns the totals of draws observations
// x_1, …, x_draws ~ Binomial(trials, p) simulated under seed:
// successes = Σ x_i and failures = draws·trials - successes. The
// observations come from a stream of their own, the kernel.Stream lane of
// replicate 2⁶⁴-2 under seed (a replicate number no engine run uses, next
// to MixtureData's 2⁶⁴-1), as draws·trials Bernoulli trials in order, trial
// k a success when its uniform u_k < p. It returns an error when draws or
// trials is below 1, draws·trials exceeds MaxSimulatedTrials, or p is
// outside [0, 1].
func SimulateBinomialData(seed uint64, draws, trials int, p float64) (successes, failures int64, err error) {
	switch {
	case draws < 1:
		return 0, 0, fmt.Errorf("draws must be at least 1, got %d", draws)
	case trials < 1:
		return 0, 0, fmt.Errorf("trials must be at least 1, got %d", trials)
	case int64(draws) > MaxSimulatedTrials/int64(trials):
		return 0, 0, fmt.Errorf("draws×trials must be at most %d, got %d×%d", MaxSimulatedTrials, draws, trials)
	case !(p >= 0 && p <= 1):
		return 0, 0, fmt.Errorf("success probability must be in [0, 1], got %v", p)
	}
	rng := kernel.NewStream(seed, -layout.Lanes).Lane(layout.Lanes - 2)
	n := int64(draws) * int64(trials)
	for k := int64(0); k < n; k++ {
		if rng.Uniform() < p {
			successes++
		}
	}
	return successes, n - successes, nil
}

// Name returns "betabinomial".
func (m *BetaBinomial) Name() string { return "betabinomial" }

// ExactDraws returns true: local exploration is an exact draw.
func (m *BetaBinomial) ExactDraws() bool { return true }

// Observables returns "p", the success probability.
func (m *BetaBinomial) Observables() []string { return []string{"p"} }

// Annealed returns the shapes (α, β) of the annealed Beta density
// exp(eta0·W0 + eta1·W1) (see BetaBinomial), and ok = false when they are
// not both positive and finite.
func (m *BetaBinomial) Annealed(eta0, eta1 float64) (alpha, beta float64, ok bool) {
	e := eta0 + eta1
	alpha = e*(m.A-1) + eta1*float64(m.Successes) + 1
	beta = e*(m.B-1) + eta1*float64(m.Failures) + 1
	if !(alpha > 0) || !(beta > 0) || math.IsInf(alpha, 1) || math.IsInf(beta, 1) {
		return math.NaN(), math.NaN(), false
	}
	return alpha, beta, true
}

// energies returns W0 and W1 at the point whose log p and log(1-p) are lp
// and lq: W0 = (A-1) lp + (B-1) lq and W1 = (A-1+S) lp + (B-1+F) lq.
func (m *BetaBinomial) energies(lp, lq float64) (w0, w1 float64) {
	a1, b1 := m.A-1, m.B-1
	w0 = math.FMA(a1, lp, b1*lq)
	w1 = math.FMA(a1+float64(m.Successes), lp, (b1+float64(m.Failures))*lq)
	return w0, w1
}

// bbCoefs are the coefficients of the energies: A-1, B-1, A-1+S, B-1+F.
type bbCoefs struct{ a1, b1, a1s, b1f float64 }

// coefs returns the coefficients of m's energies.
func (m *BetaBinomial) coefs() bbCoefs {
	a1, b1 := m.A-1, m.B-1
	return bbCoefs{a1, b1, a1 + float64(m.Successes), b1 + float64(m.Failures)}
}

// energies returns W0 = FMA(a1, lp, b1·lq) and W1 = FMA(a1s, lp, b1f·lq),
// BetaBinomial.energies with the sums a1s and b1f made once.
func (c bbCoefs) energies(lp, lq float64) (w0, w1 float64) {
	return math.FMA(c.a1, lp, c.b1*lq), math.FMA(c.a1s, lp, c.b1f*lq)
}

// The gamma variates are kernel.GammaSampler's (Marsaglia and Tsang, "A
// simple method for generating gamma variables", ACM TOMS 26(3), 2000):
// for shape s ≥ 1 an attempt of d = s - 1/3, c = 1/√(9d) takes a normal x
// and, when 1 + cx > 0, a uniform u, and accepts d·(1 + cx)³ on the
// squeeze or the log test; for s < 1 the attempts use shape s + 1 and the
// accepted value is boosted by u'^(1/s), kept as the log boost log(u')/s.
// The sampler is exact: attempts are i.i.d. and the accepted value has the
// Gamma(s, 1) law. For shapes up to 1e6 the acceptance threshold is
// computed with an absolute error below 1e-11 (1 - v is exact and log v
// has a relative error of one ulp), so the rounding changes the acceptance
// probability negligibly.

// betaFromGammas returns p = G_A/(G_A + G_B) and lp = log p, lq = log(1-p)
// for the gamma variates G_A = gA·exp(lbA) and G_B = gB·exp(lbB) (lbA, lbB
// are the log boosts, 0 without boost). Without boost it takes the logs of
// the two ratios G/(G_A+G_B), each exact to a few ulps whatever p, so
// log(1-p) stays accurate when p is near 1. With a boost G may underflow,
// so it works in logs: with Δ = log G_A - log G_B,
//
//	log p = -log1p(e^-Δ),  log(1-p) = -Δ - log1p(e^-Δ)   (Δ ≥ 0),
//
// and symmetrically for Δ < 0, so that the log nearer 0 keeps its relative
// accuracy.
func betaFromGammas(gA, lbA, gB, lbB float64, boosted bool) (p, lp, lq float64) {
	if !boosted {
		s := gA + gB
		p = gA / s
		return p, math.Log(p), math.Log(gB / s)
	}
	delta := (math.Log(gA) + lbA) - (math.Log(gB) + lbB)
	if delta >= 0 {
		t := math.Log1p(math.Exp(-delta))
		lp, lq = -t, -delta-t
	} else {
		t := math.Log1p(math.Exp(delta))
		lp, lq = delta-t, -t
	}
	return math.Exp(lp), lp, lq
}
