package asm

import "math"

// SplineStepsGeneric takes the Adagrad step of the spline path's knots
// (alg:PT_tuning's gradient step, tune.Spline.Step before its monotonicity
// repair) for every element i of its rows: with φ = knots[i], the
// gradient's component grad[i] and Adagrad's sum accum[i],
//
//	g := grad / (|grad| + φ)
//	accum += g·g
//	φ = φ · math.Exp(−lr·g / sqrt(accum + eps))
//
// each product rounded before it is added. The rows hold the components
// of several splines at once (package batch lays out a block's lanes
// innermost); all three have one length, a multiple of 8 for the assembly
// twins (the checked layer in package kernel guarantees it). The assembly
// twins compute math.Exp with the operations of the Go runtime's amd64
// assembly on a CPU with FMA (math/exp_amd64.s), so they agree with this
// function bit for bit where that is the runtime's path (dispatch_amd64.go
// checks it when the package starts).
func SplineStepsGeneric(knots, accum, grad []float64, lr, eps float64) {
	accum, grad = accum[:len(knots)], grad[:len(knots)]
	for i, phi := range knots {
		g := grad[i] / (math.Abs(grad[i]) + phi)
		accum[i] += float64(g * g)
		knots[i] = phi * math.Exp(-lr*g/math.Sqrt(accum[i]+eps))
	}
}
