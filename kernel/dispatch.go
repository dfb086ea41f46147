package kernel

import "github.com/ptbatch/ptbatch/asm"

// The primitives used by this package; the throughput work switches these
// to the assembly versions when the CPU has the features.
var (
	xoshiroUniform = asm.XoshiroUniformGeneric
	boxMuller      = asm.BoxMullerGeneric
	gaussEnergy    = asm.GaussEnergyGeneric
	swapAlpha      = asm.SwapAlphaGeneric
)

// Impl names the kernel implementation in use.
func Impl() string { return "generic" }
