package asm

// Impl is one implementation of the kernels: the generic Go twins, or an
// assembly tier. Every implementation gives bit-identical results.
type Impl struct {
	Name           string // "generic", "avx2" or "avx512"
	XoshiroUniform func(dst []float64, s *[4 * lanes]uint64)
	XoshiroNormal  func(dst []float64, s *[4 * lanes]uint64)
	GaussEnergy    func(w0, w1, first, m, s, z []float64, dim int, mu0, mu1, h0, h1 float64)
	SwapAlpha      func(alpha, rej, eta0, eta1, w0, w1 []float64)

	// The engine's bookkeeping kernels (book.go).
	MomentsAdd   func(sum0, sum1, w0, w1, shift0, shift1 []float64)
	MomentsAddSq func(sum0, sum1, sq00, sq01, sq11, w0, w1, shift0, shift1 []float64)
	SwapApply    func(w0, w1 []float64, rep []int32, alpha, u []float64, from int)

	// The mixture models' kernels (mix.go).
	MixTerms2   func(e, inv, r, y, coef []float64)
	MixProp2    func(acc, e, inv, a []float64, from int) int
	MixLabels2  func(z []uint8, acc, e, u, f, yc, yc2 []float64)
	MixTermsK   func(e, inv, r, yc, cc, cb []float64)
	MixPropK    func(acc, e, inv, a []float64, from int) int
	MixLabelsK  func(z []uint8, acc, e, u, f, lv, tv, yc, yc2 []float64)
	MixGammaTry func(g, conc, x, u []float64)
	MixLog      func(dst, src []float64)

	// The Ising model's checkerboard line and spin counts (ising.go).
	IsingLine func(row, up, down []uint64, x0 int, q *[80]int32, s *[4 * lanes]uint64)
	IsingXor  func(dst *[4]uint64, a, b []uint64)

	// The schedule update's interpolant and its root finding (cubic.go).
	SolveCubicsAt func(t []float64, segs []int, targets, xs, ys, d, a2, a3 []float64)
	TargetIndices func(g []int, ys []float64, step, inv float64, num int)
	CubicSlopes   func(slopes, invs, xs, ys []float64)
	CubicDerivs   func(d, slopes, xs []float64)
	CubicCoeffs   func(a2, a3, d, xs, ys, invs []float64)

	// The path step's gradient for a block's lanes (path.go).
	PathMoments func(rec, sum0, sum1, shift0, shift1, sq00, sq01, sq11, t, knots []float64, numKnots int, inv, inv1 float64)
	PathProject func(acc, rec []float64, chains, numKnots int)
	PathEta     func(eta0, eta1, t, knots []float64, numKnots int)
	SplineSteps func(knots, accum, grad []float64, lr, eps float64)

	// The scan's statistics of a block's lanes (scanstats.go).
	ScanSums func(out, rej, xrej, eta0, eta1, shift0, sum0, shift1, sum1 []float64, inv float64)
}

// Generic is the plain-Go implementation, available everywhere.
var Generic = Impl{
	Name:           "generic",
	XoshiroUniform: XoshiroUniformGeneric,
	XoshiroNormal:  XoshiroNormalGeneric,
	GaussEnergy:    GaussEnergyGeneric,
	SwapAlpha:      SwapAlphaGeneric,
	MomentsAdd:     MomentsAddGeneric,
	MomentsAddSq:   MomentsAddSqGeneric,
	SwapApply:      SwapApplyGeneric,
	MixTerms2:      MixTerms2Generic,
	MixProp2:       MixProp2Generic,
	MixLabels2:     MixLabels2Generic,
	MixTermsK:      MixTermsKGeneric,
	MixPropK:       MixPropKGeneric,
	MixLabelsK:     MixLabelsKGeneric,
	MixGammaTry:    MixGammaTryGeneric,
	MixLog:         MixLogGeneric,
	IsingLine:      IsingLineGeneric,
	IsingXor:       IsingXorGeneric,
	SolveCubicsAt:  SolveCubicsAtGeneric,
	TargetIndices:  TargetIndicesGeneric,
	CubicSlopes:    CubicSlopesGeneric,
	CubicDerivs:    CubicDerivsGeneric,
	CubicCoeffs:    CubicCoeffsGeneric,
	PathMoments:    PathMomentsGeneric,
	PathProject:    PathProjectGeneric,
	PathEta:        PathEtaGeneric,
	SplineSteps:    SplineStepsGeneric,
	ScanSums:       ScanSumsGeneric,
}

// Impls returns the implementations this build and CPU can run, fastest
// first; the last is always Generic. The CPU features are read once, at
// package initialisation.
func Impls() []Impl { return impls }
