package asm

// Impl is one implementation of the kernels: the generic Go twins, or an
// assembly tier. Every implementation gives bit-identical results.
type Impl struct {
	Name           string // "generic", "avx2" or "avx512"
	XoshiroUniform func(dst []float64, s *[4 * lanes]uint64)
	XoshiroNormal  func(dst []float64, s *[4 * lanes]uint64)
	GaussEnergy    func(w0, w1, first, m, s, z []float64, dim int, mu0, mu1, h0, h1 float64)
	SwapAlpha      func(alpha, rej, eta0, eta1, w0, w1 []float64)
}

// Generic is the plain-Go implementation, available everywhere.
var Generic = Impl{
	Name:           "generic",
	XoshiroUniform: XoshiroUniformGeneric,
	XoshiroNormal:  XoshiroNormalGeneric,
	GaussEnergy:    GaussEnergyGeneric,
	SwapAlpha:      SwapAlphaGeneric,
}

// Impls returns the implementations this build and CPU can run, fastest
// first; the last is always Generic. The CPU features are read once, at
// package initialisation.
func Impls() []Impl { return impls }
