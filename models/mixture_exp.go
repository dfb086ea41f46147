package models

import "github.com/ptbatch/ptbatch/kernel"

// mixExpMin is the flush threshold of mixExps: e^x is 0 below it.
const mixExpMin = kernel.MixExpMin

// mixExps replaces every x of xs, x ≤ 709, by e^x to within 0.52 units in
// the last place (TestMixExpAccuracy checks it against a 160-bit
// computation), or by 0 when x < mixExpMin = -700 (e^x < 1e-304) or x is
// NaN; x > 709 gives meaningless results (callers clamp). It is
// kernel.MixExp, the table-driven method of Tang (ACM TOMS 15(2), 1989),
// written once in package asm (asm.MixExp gives the operations), without
// fused multiply-adds, so the result does not depend on the CPU. The flush
// keeps the mixture's sweeps off the slow subnormal path: its exponentials
// are terms relative to a largest term of 1, where a term below 1e-304 is
// far below the rounding of any sum it enters. The scalar reference calls
// mixExp, and the batched sweep's kernels perform the same operations lane
// by lane, so block and scalar agree bit for bit.
func mixExps(xs []float64) {
	for i, x := range xs {
		xs[i] = kernel.MixExp(x)
	}
}

// mixExp returns e^x as mixExps computes it.
func mixExp(x float64) float64 { return kernel.MixExp(x) }
