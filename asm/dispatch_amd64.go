//go:build !purego

package asm

import "golang.org/x/sys/cpu"

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
		CubicSlopes:    cubicSlopesAVX2,
		CubicDerivs:    cubicDerivsAVX2,
		CubicCoeffs:    cubicCoeffsAVX2,
		PathMoments:    pathMomentsAVX2,
		PathProject:    pathProjectAVX2,
		PathEta:        pathEtaAVX2,
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
		im.SolveCubicsAt = solveCubicsAtAVX512
		im.CubicSlopes, im.CubicDerivs, im.CubicCoeffs = cubicSlopesAVX512, cubicDerivsAVX512, cubicCoeffsAVX512
		im.PathMoments, im.PathProject, im.PathEta = pathMomentsAVX512, pathProjectAVX512, pathEtaAVX512
		im.ScanSums = scanSumsAVX512
		return im
	}()
)

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
