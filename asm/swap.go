package asm

import "math"

// SwapAlphaGeneric computes the swap acceptance probability of every pair
// of adjacent chains (§2 "Communication") for a block of lanes and
// accumulates the rejections (alg:NRPT, r_n += 1 - α_n). Rows are chains;
// for pair n = 0..len(alpha)/8-1 and lane j, with i = n*8+j and i1 = i+8:
//
//	lr := FMA(eta0[i]-eta0[i1], w0[i1]-w0[i], (eta1[i]-eta1[i1])*(w1[i1]-w1[i]))
//	alpha[i] = ExpNonPos(min(lr, 0))   // 1 for lr >= 0; 0 for NaN or lr < ExpMin
//	rej[i] += 1 - alpha[i]
//
// lr is the log of π_{t_n}(x^{n+1}) π_{t_{n+1}}(x^n) / (π_{t_n}(x^n)
// π_{t_{n+1}}(x^{n+1})) for the exponential family π_t ∝ exp(η(t)·W).
// eta0, eta1, w0 and w1 have one more row than alpha and rej.
func SwapAlphaGeneric(alpha, rej, eta0, eta1, w0, w1 []float64) {
	for i := range alpha {
		i1 := i + lanes
		lr := math.FMA(eta0[i]-eta0[i1], w0[i1]-w0[i], (eta1[i]-eta1[i1])*(w1[i1]-w1[i]))
		if lr > 0 {
			lr = 0
		}
		a := ExpNonPos(lr)
		alpha[i] = a
		rej[i] += 1 - a
	}
}
