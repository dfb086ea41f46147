//go:build !purego

package asm

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestGoExpIsMathExp checks each assembly tier's math.Exp (goExp, through
// expRows) against math.Exp bit for bit: on every edge of its special
// cases (NaN payloads, ±Inf, the overflow threshold and the exponents
// around 1024, the subnormal results and the underflow to 0, arguments
// whose exponent leaves the int32 range) and on 200,000 random arguments
// over the whole range and near 0. The tiers are skipped, saying so, where
// the runtime's math.Exp does not take its FMA path.
func TestGoExpIsMathExp(t *testing.T) {
	edges := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(),
		math.Float64frombits(0x7ff8dead0000beef), math.Float64frombits(0xfff0000000000001),
		7.09782712893384e+02, math.Nextafter(7.09782712893384e+02, 0), math.Nextafter(7.09782712893384e+02, 1000),
		709.78, 709.7, 709.4, 709.09, 708.4, 708.39, -708.39, -708.4, -709.09, -710, -720, -744, -744.4, -745.1,
		-745.13, -745.14, -745.2, -746, -800, -1000, 1000, 1e10, -1e10, 1e300, -1e300, 5e-324, -5e-324,
		1e-300, -1e-300, 1e-20, -1e-20, 0.5 * math.Ln2, -0.5 * math.Ln2, math.Ln2, 2 * math.Ln2, math.MaxFloat64, -math.MaxFloat64}
	rng := rand.New(rand.NewPCG(61, 62))
	src := append([]float64(nil), edges...)
	for len(src) < 200_000 {
		switch rng.IntN(3) {
		case 0:
			src = append(src, 1500*rng.Float64()-750)
		case 1:
			src = append(src, 2*rng.Float64()-1)
		default:
			src = append(src, math.Ldexp(rng.NormFloat64(), rng.IntN(30)-25))
		}
	}
	for len(src)%8 != 0 {
		src = append(src, 0)
	}
	tiers := []struct {
		name string
		has  bool
		exp  func(dst, src []float64)
	}{{"avx512", HasAVX512, expRowsAVX512}, {"avx2", HasAVX2, expRowsAVX2}}
	for _, tier := range tiers {
		t.Run(tier.name, func(t *testing.T) {
			if !tier.has {
				t.Skipf("this CPU has no %s", tier.name)
			}
			if !goExpMatches(tier.exp) {
				t.Skip("the runtime's math.Exp is not its FMA path here (GODEBUG=cpu.fma=off?): the tier's SplineSteps is the generic twin")
			}
			dst := make([]float64, len(src))
			tier.exp(dst, src)
			for i, x := range src {
				if want := math.Exp(x); math.Float64bits(dst[i]) != math.Float64bits(want) {
					t.Fatalf("exp(%v) = %v (%#x), math.Exp %v (%#x)", x, dst[i], math.Float64bits(dst[i]), want, math.Float64bits(want))
				}
			}
		})
	}
}

// TestGoExpMatchesDetectsTheOtherPath checks that goExpMatches tells the
// runtime's two paths apart: the probe's arguments computed by the
// non-FMA path's operations (roundings after each product) differ from
// math.Exp in some last bit wherever math.Exp is the FMA path.
func TestGoExpMatchesDetectsTheOtherPath(t *testing.T) {
	if !HasAVX2 || !goExpMatches(expRowsAVX2) {
		t.Skip("the runtime's math.Exp is not its FMA path here, or the CPU has no AVX2")
	}
	if goExpMatches(expRowsSSE) {
		t.Error("goExpMatches accepted the non-FMA path's results")
	}
}

// expRowsSSE computes math/exp_amd64.s's non-FMA path for finite
// arguments of moderate size (the probe's): each product rounded before
// it is subtracted or added.
func expRowsSSE(dst, src []float64) {
	taylor := []float64{2.4801587301587301587e-5, 1.9841269841269841270e-4, 1.3888888888888888889e-3,
		8.3333333333333333333e-3, 4.1666666666666666667e-2, 1.6666666666666666667e-1, 0.5, 1.0}
	for i, x := range src {
		e := math.RoundToEven(x * 1.4426950408889634073599246810018920)
		x0 := x - float64(e*0.69314718055966295651160180568695068359375)
		x0 -= float64(e * 0.28235290563031577122588448175013436025525412068e-12)
		x0 *= 0.0625
		p := taylor[0]
		for _, c := range taylor[1:] {
			p = float64(p*x0) + c
		}
		x0 *= p
		for k := 0; k < 4; k++ {
			x0 *= x0 + 2
		}
		dst[i] = (x0 + 1) * math.Ldexp(1, int(e))
	}
}

// TestSplineStepsTiersAreAssembly checks that the tiers this CPU has
// dispatch their assembly spline steps wherever the runtime's math.Exp is
// its FMA path, which expRowsFMA (the path written in Go with math.FMA)
// tells independently of the probe: a probe that refused a correct
// assembly exp would leave the twin tests comparing the fallback.
func TestSplineStepsTiersAreAssembly(t *testing.T) {
	if !HasAVX2 {
		t.Skip("the CPU has no AVX2")
	}
	if !goExpMatches(expRowsFMA) {
		t.Skip("the runtime's math.Exp is not its FMA path here")
	}
	want := map[string]uintptr{"avx2": reflect.ValueOf(splineStepsAVX2).Pointer(), "avx512": reflect.ValueOf(splineStepsAVX512).Pointer()}
	for _, im := range Impls() {
		if w, ok := want[im.Name]; ok && reflect.ValueOf(im.SplineSteps).Pointer() != w {
			t.Errorf("%s dispatches the generic spline steps", im.Name)
		}
	}
}

// expRowsFMA computes math/exp_amd64.s's FMA path in Go for the probe's
// arguments (finite, and the special cases as math.Exp returns them): the
// reduction and the Taylor steps fused by math.FMA, as VFNMADD231SD and
// VFMADD213SD fuse them.
func expRowsFMA(dst, src []float64) {
	taylor := []float64{2.4801587301587301587e-5, 1.9841269841269841270e-4, 1.3888888888888888889e-3,
		8.3333333333333333333e-3, 4.1666666666666666667e-2, 1.6666666666666666667e-1, 0.5, 1.0}
	for i, x := range src {
		if math.IsNaN(x) || math.IsInf(x, 0) || x > 7.09782712893384e+02 || x < -700 {
			dst[i] = math.Exp(x) // the special cases and subnormal results, not the path's arithmetic
			continue
		}
		e := math.RoundToEven(x * 1.4426950408889634073599246810018920)
		x0 := math.FMA(-e, 0.69314718055966295651160180568695068359375, x)
		x0 = math.FMA(-e, 0.28235290563031577122588448175013436025525412068e-12, x0)
		x0 *= 0.0625
		p := taylor[0]
		for _, c := range taylor[1:] {
			p = math.FMA(p, x0, c)
		}
		x0 *= p
		for k := 0; k < 3; k++ {
			x0 *= x0 + 2
		}
		x0 = math.FMA(x0, x0+2, 1)
		dst[i] = x0 * math.Ldexp(1, int(e))
	}
}
