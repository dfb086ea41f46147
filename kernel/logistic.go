package kernel

import (
	"math"

	"github.com/ptbatch/ptbatch/asm"
)

// LogitTerms computes, for every linear predictor η = eta[i], the two
// element-wise terms of a logistic regression's log-likelihood and its
// gradient, from one exponential e = exp(−|η|) each:
//
//	softplus[i] = log(1 + e^η) = max(η, 0) + log(1 + e)
//
// with log(1 + e) = log u − ((u − 1) − e)/u, u = 1 + e rounded, which
// corrects the rounding of u to first order (as log1p does), and
//
//	sigmoid[i]  = 1/(1 + e^−η)  = 1/(1 + e) for η ≥ 0, e/(1 + e) otherwise
//
// Both forms are stable for every η (no overflow of e^η). The exponential
// is asm.ExpNonPos (a fixed polynomial with math.FMA, within 1 ulp, the
// same bits everywhere) and the logarithm the MixLog kernel (math.Log bit
// for bit, vectorized on amd64), so that every implementation gives the
// same bits, as LogitTermsGeneric, their plain-Go twin, does. A NaN η
// gives a NaN softplus. sigmoid may be nil. It panics with "kernel: slice
// lengths do not match" unless len(softplus) == len(eta) (and
// len(sigmoid) too), a multiple of layout.Lanes; scratch, a multiple of
// layout.Lanes no shorter, holds the exponentials.
func LogitTerms(softplus, sigmoid, eta, scratch []float64) {
	n := len(eta)
	if rowsOf(n) < 0 || len(softplus) != n || (sigmoid != nil && len(sigmoid) != n) || len(scratch) < n {
		panic(errLengths)
	}
	raceRead(eta)
	raceWrite(softplus)
	raceWrite(scratch[:n])
	e := scratch[:n]
	for i, x := range eta {
		e[i] = asm.ExpNonPos(-math.Abs(x))
		softplus[i] = 1 + e[i]
	}
	impl.MixLog(softplus, softplus)
	for i, x := range eta {
		u := 1 + e[i]
		softplus[i] += max(x, 0) - ((u-1)-e[i])/u
	}
	if sigmoid == nil {
		return
	}
	raceWrite(sigmoid)
	for i, x := range eta {
		s := 1 / (1 + e[i])
		if x < 0 {
			s *= e[i]
		}
		sigmoid[i] = s
	}
}

// LogitTermsGeneric is LogitTerms one element at a time with math.Log:
// the plain-Go twin its tests compare it with, bit for bit.
func LogitTermsGeneric(softplus, sigmoid, eta []float64) {
	for i, x := range eta {
		e := asm.ExpNonPos(-math.Abs(x))
		u := 1 + e
		softplus[i] = math.Log(u) + (max(x, 0) - ((u-1)-e)/u)
		if sigmoid != nil {
			s := 1 / (1 + e)
			if x < 0 {
				s *= e
			}
			sigmoid[i] = s
		}
	}
}
