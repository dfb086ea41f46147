//go:build !purego

package asm

import "os"

// experimentalImpl returns the avx512 tier with the AVX-512 mixture
// kernels (mixAVX512), which the dispatch does not use yet, when
// PTBATCH_MIX_AVX512 is set and the CPU has AVX-512.
func experimentalImpl() (Impl, bool) {
	return mixAVX512, HasAVX512 && os.Getenv("PTBATCH_MIX_AVX512") != ""
}
