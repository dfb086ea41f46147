package models

import "math"

// mhLogRatio returns log A, the acceptance log ratio of move 1 of the
// mixture sweep (see Mixture): the Metropolis–Hastings step for the weights
// that approximates a Gibbs step with the labels marginalised (appendix
// "Experimental details", Galaxy data).
//
// Target. With μ fixed and the labels summed out, the annealed density of
// the weights is
//
//	π_η(w | μ) ∝ Π_i w_i^{β(α-1)} Π_n Σ_i w_i^β N(y_n; μ_i, σ²)^γ,
//	log π_η(w | μ) = β(α-1) Σ_i log w_i + L(w) + const,
//	L(w) = Σ_n log S_n(w),  S_n(w) = Σ_i E_ni(w),
//	E_ni(w) = w_i^β N(y_n; μ_i, σ²)^γ / C_n,
//
// for any factors C_n > 0 that do not depend on w (they cancel in A): the
// sweeps use the terms E_ni of the label step (see the comment above
// mixCoef), computed once per sweep at the current weights w. At other
// weights w' the terms are E_ni(w') = e^λ a_i E_ni(w) with the factors
// a_i = (w'_i/w_i)^β e^-λ, λ = max_i β log(w'_i/w_i) (mixWeightFactors):
// a_i ≤ 1 cannot overflow, the proposal needs no further exponential per
// observation, and the common factor e^λ of observation n's terms (C_n
// above) cancels everywhere but in ΔL, where it adds Nλ. The label step
// draws z_n = i with probability E_ni/S_n at the weights it keeps, where
// a term E_ni = 0 (flushed, see mixExps) contributes nothing.
//
// Proposal. The soft responsibilities r_ni(w) = E_ni(w)/S_n(w) give
// expected counts R_i(w) = Σ_n r_ni(w) (at w', a_i Σ_n E_ni(w)/S'_n with
// S'_n = Σ_i a_i E_ni(w)), and w' ~ Dir(c(w)) with
//
//	c_i(w) = β(α-1) + β R_i(w) + 1,
//
// the parameters of the Gibbs step for w (move 4) with the counts n_i
// replaced by their expectations.
//
// Ratio. The exact MH log ratio is
//
//	log A = log π_η(w' | μ) - log π_η(w | μ) + log Dir(w; c(w')) - log Dir(w'; c(w))
//	      = ΔL + Σ_i [lnΓ(c_i(w)) - lnΓ(c_i(w'))
//	                            + β R_i(w') log w_i - β R_i(w) log w'_i],
//
// using log Dir(w; c) = lnΓ(Σ_i c_i) - Σ_i lnΓ(c_i) + Σ_i (c_i - 1) log w_i,
// c_i - 1 = β(α-1) + β R_i, and Σ_i c_i(w) = K(β(α-1) + 1) + βN for every w
// (the responsibilities of each observation sum to 1), so the lnΓ(Σ c)
// terms cancel, and ΔL = L(w') - L(w) = Nλ + Σ_n log(S'_n/S_n(w)) is
// summed by mixLogRatioStep (one logarithm per many observations) after
// Nλ. R(w') and ΔL
// are computed from the terms at w by the factors a_i; in the reverse move
// they would be computed from the terms at w'. The two evaluations of the
// same quantity differ by rounding only (relative 1e-15 or so), far below
// any Monte Carlo error. The move accepts when log u < log A for one
// uniform u (a NaN ratio rejects).
//
// Invariance of the full annealed density: if (w, μ, z) ~ π_η then
// (w, μ) ~ π_η(w, μ); move 1 keeps π_η(w | μ), hence π_η(w, μ); move 2
// draws every label afresh from π_η(z | w, μ), which restores the joint
// law. Equivalently, moves 1 and 2 form one MH move on (w, z) with proposal
// q(w'|w) π_η(z'|w', μ), whose full-state ratio reduces to A above.
//
// For one replicate, mhLogRatio takes the log weights logw and logwp of the
// current and proposed state, their expected counts r and rp, the proposal
// parameters c = c(w) and cp = c(w'), and dl = ΔL; it sums over
// components in order.
func mhLogRatio(beta float64, logw, logwp, r, rp, c, cp []float64, dl float64) float64 {
	s := dl
	for i := range logw {
		lc, _ := math.Lgamma(c[i])
		lcp, _ := math.Lgamma(cp[i])
		s += lc - lcp + float64(beta*rp[i]*logw[i]) - float64(beta*r[i]*logwp[i])
	}
	return s
}

// mixWeightFactors sets a[i] = exp(β(lwp[i] - lw[i]) - λ) and returns
// λ = max_i β(lwp[i] - lw[i]), for the log weights lw = log w and
// lwp = log w' (see mhLogRatio): the factors (w'_i/w_i)^β scaled so that
// the largest is 1.
func mixWeightFactors(beta float64, lw, lwp, a []float64) (lambda float64) {
	for i := range a {
		a[i] = beta * (lwp[i] - lw[i])
		if i == 0 || a[i] > lambda {
			lambda = a[i]
		}
	}
	for i := range a {
		a[i] = math.Exp(a[i] - lambda)
	}
	return lambda
}

// mhProposable reports whether the proposal parameters c (K of them) are
// all finite and at least 1. They always are unless S_n(w) underflowed
// (weights near 1e-300), a state of no probability in practice; move 1
// then keeps w without drawing.
func mhProposable(c []float64) bool {
	for _, ci := range c {
		if !(ci >= 1) || math.IsInf(ci, 1) {
			return false
		}
	}
	return true
}

// mixLogRatioStep adds log(ratio) to the log-sum d, where p is a product of
// earlier ratios whose logarithm is still to be added: ratios within
// [2^-332, 2^332) (about 1e±100) are multiplied into p, which is logged and
// reset to 1 when it leaves [2^-498, 2^498) (about 1e±150), so p never
// overflows or underflows; other ratios (zero, negative, NaN, infinite
// included) are logged at once. The sum is d + log(p) at the end. Hot loops
// inline the common case themselves: q = p·ratio and, when
// mixRatioInRange(ratio, q), p = q; otherwise mixLogRatioSlow.
func mixLogRatioStep(p, d, ratio float64) (float64, float64) {
	q := p * ratio
	if mixRatioInRange(ratio, q) {
		return q, d
	}
	return mixLogRatioSlow(p, d, ratio)
}

// mixRatioInRange reports whether mixLogRatioStep just multiplies ratio
// into the product, giving q: both in range, tested on the exponent bits.
func mixRatioInRange(ratio, q float64) bool {
	return mixBinade(ratio)+332 < 2*332 && mixBinade(q)+498 < 2*498
}

// mixLogRatioSlow is mixLogRatioStep when the ratio or the product leaves
// its range.
func mixLogRatioSlow(p, d, ratio float64) (float64, float64) {
	if mixBinade(ratio)+332 < 2*332 {
		return 1, d + math.Log(p*ratio)
	}
	return p, d + math.Log(ratio)
}

// mixBinade returns the unbiased binary exponent e of x, 2^e ≤ |x| < 2^(e+1)
// for normal x, as a uint64 (wrapping for negative e; zero and subnormals
// give 2^64-1023, infinities and NaN 1024, and the sign adds 2048, so all
// of them fall outside the ranges of mixLogRatioStep).
func mixBinade(x float64) uint64 {
	return math.Float64bits(x)>>52 - 1023
}
