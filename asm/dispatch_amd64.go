//go:build !purego

package asm

import (
	"math"

	"golang.org/x/sys/cpu"
)

// HasAVX512 and HasAVX2 report the CPU features the assembly tiers need:
// AVX-512 F and DQ (VPROLQ, VCVTUQQ2PD, opmasks), and AVX2 with FMA. They
// are read once; x/sys/cpu also checks that the OS saves the registers.
var (
	HasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ
	HasAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasFMA
)

// avx512 and avx2 are the assembly implementations, listed by Impls only
// when HasAVX512 and HasAVX2 are true.
var (
	avx2 = Impl{
		Name:           "avx2",
		XoshiroUniform: xoshiroUniformAVX2,
		XoshiroNormal:  xoshiroNormalAVX2,
		GaussEnergy:    gaussEnergyAVX2,
		SwapAlpha:      swapAlphaAVX2,
		MomentsAdd:     momentsAddAVX2,
		MomentsAddSq:   momentsAddSqAVX2,
		SwapApply:      swapApplyAVX2,
		MixTerms2:      mixTerms2AVX2,
		MixProp2:       mixProp2AVX2,
		MixLabels2:     mixLabels2AVX2,
		MixTermsK:      mixTermsKAVX2,
		MixPropK:       mixPropKAVX2,
		MixLabelsK:     mixLabelsKAVX2,
		MixGammaTry:    mixGammaTryAVX2,
		MixLog:         mixLogAVX2,
		IsingLine:      isingLineAVX2,
		IsingXor:       isingXorAVX2,
		SolveCubicsAt:  solveCubicsAtAVX2,
		TargetIndices:  targetIndicesAVX2,
		CubicSlopes:    cubicSlopesAVX2,
		CubicDerivs:    cubicDerivsAVX2,
		CubicCoeffs:    cubicCoeffsAVX2,
		PathMoments:    pathMomentsAVX2,
		PathProject:    pathProjectAVX2,
		PathEta:        pathEtaAVX2,
		SplineSteps:    goExpKernel(HasAVX2, splineStepsAVX2, expRowsAVX2),
		ScanSums:       scanSumsAVX2,
	}
	// avx512 is avx2 with the AVX-512 kernels substituted: the random
	// fills, energies, swap acceptances, the mixture kernels (terms,
	// proportions, labels, gamma proposals, logarithm) and the schedule
	// update's interpolant and root finding, the path step's gradient, and the scan's statistics. The bookkeeping
	// and Ising kernels exist in AVX2 only (asm/_gen/book.go, ising.go);
	// every CPU with AVX-512 F and DQ has AVX2 and FMA. Each kernel agrees
	// with its generic twin (kernels_test.go, the fuzz targets), which is
	// checked on every CPU that runs the tests, AVX-512 ones included.
	avx512 = func() Impl {
		im := avx2
		im.Name = "avx512"
		im.XoshiroUniform, im.XoshiroNormal = xoshiroUniformAVX512, xoshiroNormalAVX512
		im.GaussEnergy, im.SwapAlpha = gaussEnergyAVX512, swapAlphaAVX512
		im.MixTerms2, im.MixProp2, im.MixLabels2 = mixTerms2AVX512, mixProp2AVX512, mixLabels2AVX512
		im.MixTermsK, im.MixPropK, im.MixLabelsK = mixTermsKAVX512, mixPropKAVX512, mixLabelsKAVX512
		im.MixGammaTry, im.MixLog = mixGammaTryAVX512, mixLogAVX512
		im.SolveCubicsAt, im.TargetIndices = solveCubicsAtAVX512, targetIndicesAVX512
		im.CubicSlopes, im.CubicDerivs, im.CubicCoeffs = cubicSlopesAVX512, cubicDerivsAVX512, cubicCoeffsAVX512
		im.PathMoments, im.PathProject, im.PathEta = pathMomentsAVX512, pathProjectAVX512, pathEtaAVX512
		im.SplineSteps = goExpKernel(HasAVX512, splineStepsAVX512, expRowsAVX512)
		im.ScanSums = scanSumsAVX512
		return im
	}()
)

// goExpKernel returns the assembly spline step kernel when the CPU has its
// tier (has) and the tier's math.Exp (exp) gives the runtime's bits
// (goExpMatches), and SplineStepsGeneric otherwise.
func goExpKernel(has bool, kernel func(knots, accum, grad []float64, lr, eps float64), exp func(dst, src []float64)) func(knots, accum, grad []float64, lr, eps float64) {
	if has && goExpMatches(exp) {
		return kernel
	}
	return SplineStepsGeneric
}

// goExpMatches reports whether exp, an assembly tier's math.Exp, returns
// math.Exp's bits on probe arguments. The assembly makes the operations of
// the runtime's FMA path (math/exp_amd64.s), which the runtime takes only
// where its own CPU check finds FMA (GODEBUG=cpu.fma=off turns it off);
// its other path rounds the reduced argument twice and differs in the
// last bit of many of these arguments.
func goExpMatches(exp func(dst, src []float64)) bool {
	// The special cases' edges (overflow, the exponents around 1024, the
	// subnormal results, the underflow to 0, NaN and the infinities), then
	// arguments over [-30, 30] and below the spline steps' learning rates.
	edges := []float64{709.78, 709.7, 709.4, 708.39, -708.39, -709.09, -720, -744.4, -745.13, -745.14, -800,
		1000, -1000, math.Inf(1), math.Inf(-1), math.NaN(), 0, math.Copysign(0, -1), 5e-324, -1e-300,
		1, -1, 0.5, 1e-20} // 24, whole registers
	src := make([]float64, 256+len(edges))
	copy(src[256:], edges)
	u := uint64(0x9e3779b97f4a7c15)
	for i := range src[:256] {
		u = u*6364136223846793005 + 1442695040888963407
		r := float64(u>>11) / (1 << 53) // in [0, 1)
		src[i] = 60*r - 30
		if i%2 == 1 {
			src[i] = 0.6*r - 0.3 // the spline step's arguments are below lr
		}
	}
	dst := make([]float64, len(src))
	exp(dst, src)
	for i, x := range src {
		if math.Float64bits(dst[i]) != math.Float64bits(math.Exp(x)) {
			return false
		}
	}
	return true
}

var impls = func() []Impl {
	var is []Impl
	if HasAVX512 {
		is = append(is, avx512)
	}
	if HasAVX2 {
		is = append(is, avx2)
	}
	return append(is, Generic)
}()

// The assembly stubs have the signatures of their generic twins.
func _() {
	x := xoshiroUniformAVX512
	x = xoshiroUniformAVX2
	x = xoshiroNormalAVX512
	x = xoshiroNormalAVX2
	x = XoshiroUniformGeneric
	g := gaussEnergyAVX512
	g = gaussEnergyAVX2
	g = GaussEnergyGeneric
	s := swapAlphaAVX512
	s = swapAlphaAVX2
	s = SwapAlphaGeneric
	_, _, _ = x, g, s
	t2 := mixTerms2AVX512
	t2 = mixTerms2AVX2
	t2 = MixTerms2Generic
	p2 := mixProp2AVX512
	p2 = mixProp2AVX2
	p2 = MixProp2Generic
	l2 := mixLabels2AVX512
	l2 = mixLabels2AVX2
	l2 = MixLabels2Generic
	tk := mixTermsKAVX512
	tk = mixTermsKAVX2
	tk = MixTermsKGeneric
	pk := mixPropKAVX512
	pk = mixPropKAVX2
	pk = MixPropKGeneric
	lk := mixLabelsKAVX512
	lk = mixLabelsKAVX2
	lk = MixLabelsKGeneric
	gt := mixGammaTryAVX512
	gt = mixGammaTryAVX2
	gt = MixGammaTryGeneric
	lg := mixLogAVX512
	lg = mixLogAVX2
	lg = MixLogGeneric
	_, _, _, _, _, _, _, _ = t2, p2, l2, tk, pk, lk, gt, lg
	ma := momentsAddAVX2
	ma = MomentsAddGeneric
	mq := momentsAddSqAVX2
	mq = MomentsAddSqGeneric
	sw := swapApplyAVX2
	sw = SwapApplyGeneric
	_, _, _ = ma, mq, sw
	il := isingLineAVX2
	il = IsingLineGeneric
	ix := isingXorAVX2
	ix = IsingXorGeneric
	_, _ = il, ix
}
