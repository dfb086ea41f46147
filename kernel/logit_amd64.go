//go:build amd64 && !purego

package kernel

import "github.com/ptbatch/ptbatch/asm"

// expNegAbsAVX2 sets dst[i] = asm.ExpNonPos(−|src[i]|), len(src) a
// multiple of 4 (logit_amd64.s).
//
//go:noescape
func expNegAbsAVX2(dst, src []float64)

// expNegAbs sets dst[i] = asm.ExpNonPos(−|src[i]|): the assembly under
// an assembly implementation (asm.HasAVX2: AVX2 and FMA), the plain loop
// under "generic".
func expNegAbs(dst, src []float64) {
	if impl.Name != asm.Generic.Name && asm.HasAVX2 {
		expNegAbsAVX2(dst, src)
		return
	}
	expNegAbsGeneric(dst, src)
}
