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
//	L(w) = Σ_n log S_n(w),  S_n(w) = Σ_i w_i^β E_ni,
//	E_ni = exp(-γ (y_n - μ_i)²/(2σ²) - M_n),  M_n = max_i -γ (y_n - μ_i)²/(2σ²),
//
// where the factors dropped from S_n (the normalising constant of
// N(·; μ_i, σ²)^γ and exp(M_n)) do not depend on w and cancel in A. E is
// computed once per sweep (it depends on μ and γ only) and also serves the
// label step, whose probabilities are w_i^β E_ni / S_n(w).
//
// Proposal. The soft responsibilities r_ni(w) = w_i^β E_ni / S_n(w) give
// expected counts R_i(w) = Σ_n r_ni(w) = w_i^β Σ_n E_ni/S_n(w), and
// w' ~ Dir(c(w)) with
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
// terms cancel, and ΔL = L(w') - L(w) = Σ_n log(S_n(w')/S_n(w)) is summed
// by mixLogRatioStep (one logarithm per many observations). The move
// accepts when log u < log A for one uniform u (a NaN ratio rejects).
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
		s += lc - lcp + beta*rp[i]*logw[i] - beta*r[i]*logwp[i]
	}
	return s
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
// (1e-100, 1e100) are multiplied into p, which is logged and reset to 1 when
// it leaves (1e-150, 1e150), so p never overflows or underflows; other
// ratios (and NaN) are logged at once. The sum is d + log(p) at the end.
func mixLogRatioStep(p, d, ratio float64) (float64, float64) {
	if ratio > 1e-100 && ratio < 1e100 {
		p *= ratio
		if p > 1e-150 && p < 1e150 {
			return p, d
		}
		return 1, d + math.Log(p)
	}
	return p, d + math.Log(ratio)
}
