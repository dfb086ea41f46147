package asm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// splineInputs draws n components of splines under Adagrad: knots in
// (0, 1] (now and then 1, a tiny or a special value), sums of squared
// scaled gradients from 0 up (the first step's 0 included), and gradients
// of many scales and either sign, with now and then a special value.
func splineInputs(rng *rand.Rand, n int) (knots, accum, grad []float64) {
	knots, accum, grad = make([]float64, n), make([]float64, n), make([]float64, n)
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e300, -1e300, 5e-324, 1e-310}
	for i := range knots {
		knots[i] = rng.Float64() + 1e-3
		switch rng.IntN(12) {
		case 0:
			knots[i] = 1
		case 1:
			knots[i] = math.Ldexp(rng.Float64(), -rng.IntN(60))
		case 2:
			knots[i] = special[rng.IntN(len(special))]
		}
		accum[i] = float64(rng.IntN(40)) * rng.Float64()
		if rng.IntN(6) == 0 {
			accum[i] = 0
		}
		grad[i] = math.Ldexp(rng.NormFloat64(), rng.IntN(40)-20)
		if rng.IntN(10) == 0 {
			grad[i] = special[rng.IntN(len(special))]
		}
	}
	return knots, accum, grad
}

// TestSplineStepsMatchesGeneric checks every tier against
// SplineStepsGeneric bit for bit (knots and sums) on lengths up to 80
// components, with learning rates from the paper's 0.2 to ones whose
// exponentials overflow and underflow, and guards past both outputs.
func TestSplineStepsMatchesGeneric(t *testing.T) {
	forEachImpl(t, func(t *testing.T, im Impl) {
		rng := rand.New(rand.NewPCG(51, 52))
		for n := 0; n <= 80; n += 8 {
			for rep, lr := range []float64{0.2, 0.05, 1, 30, 800, 2000, -0.3, 0} {
				knots, accum, grad := splineInputs(rng, n)
				wantK, wantA := append([]float64(nil), knots...), append([]float64(nil), accum...)
				SplineStepsGeneric(wantK, wantA, grad, lr, 1e-8)
				gotK, gk := guarded(n)
				gotA, ga := guarded(n)
				copy(gotK, knots)
				copy(gotA, accum)
				im.SplineSteps(gotK, gotA, grad, lr, 1e-8)
				checkGuard(t, gk)
				checkGuard(t, ga)
				what := fmt.Sprintf("n=%d rep=%d lr=%v", n, rep, lr)
				sameBits(t, what+": knots", gotK, wantK)
				sameBits(t, what+": accum", gotA, wantA)
			}
		}
	})
}

// TestSplineStepsIsAdagrad checks the generic step against the update
// written out for one component: the paper's Adagrad on θ = log φ with
// the scaled gradient g̃ = g/(|g| + φ).
func TestSplineStepsIsAdagrad(t *testing.T) {
	knots, accum, grad := []float64{0.5}, []float64{0.25}, []float64{0.3}
	SplineStepsGeneric(knots, accum, grad, 0.2, 1e-8)
	g := 0.3 / (0.3 + 0.5)
	G := 0.25 + g*g
	theta := math.Log(0.5) - 0.2*g/math.Sqrt(G+1e-8)
	if math.Abs(accum[0]-G) > 1e-16 || math.Abs(knots[0]-math.Exp(theta)) > 1e-15 {
		t.Errorf("knot %v, sum %v; want %v, %v", knots[0], accum[0], math.Exp(theta), G)
	}
}
