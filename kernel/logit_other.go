//go:build !amd64 || purego

package kernel

// expNegAbs sets dst[i] = asm.ExpNonPos(−|src[i]|) with the plain loop:
// no assembly on this build.
func expNegAbs(dst, src []float64) { expNegAbsGeneric(dst, src) }
