package tune

import "math"

// BestChains returns the number of chains N that maximises the round trips
// per unit of work, EquiRejectionRate(lambda, N)/N: an iteration costs one
// local exploration and one swap attempt per chain, and with N chains on
// the equi-rejection schedule of a path of barrier Λ the round-trip rate
// is τ(N) = 1/(2 + 2Λ/(1 - Λ/(N-1))) (eq:nrpt_rtr at r_n = Λ/(N-1)). For
// large Λ the maximiser is close to 2Λ + 1 (τ(N)/N ≈ (c-1)/(2c²Λ²) at
// N - 1 = cΛ, largest at c = 2), the rule of thumb of Syed et al. (2022).
// It returns 2 for Λ ≤ 0 and at most maxChains (maxChains itself when Λ ≥
// maxChains - 1, where every N allowed saturates); it panics on a NaN or
// infinite Λ.
func BestChains(lambda float64, maxChains int) int {
	if math.IsNaN(lambda) || math.IsInf(lambda, 0) {
		panic("tune: barrier not finite")
	}
	if lambda <= 0 || maxChains <= 2 {
		return 2
	}
	// τ(N)/N is 0 up to N = Λ+1 and unimodal above: scan from the
	// smallest N with a positive rate until it falls.
	best, bestVal := 0, 0.0
	for n := max(2, int(lambda)+2); n <= maxChains; n++ {
		v := EquiRejectionRate(lambda, n) / float64(n)
		if v <= bestVal {
			break
		}
		best, bestVal = n, v
	}
	if best == 0 {
		return maxChains // Λ ≥ maxChains-1: every N allowed saturates
	}
	return best
}
