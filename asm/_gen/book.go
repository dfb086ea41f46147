package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// genBook emits the engine's per-chain bookkeeping kernels (asm/book.go):
// the scan's energy moments and the swaps of the communication step. They
// are AVX2 only: one row of 8 lanes is two YMM registers, and the avx512
// tier dispatches these too (the work is a few loads and stores per
// element, which AVX-512 would not make faster enough to be worth
// untested code).
func genBook() {
	momentsAdd()
	momentsAddSq()
	swapApply()
}

// momentsAdd emits momentsAddAVX2, the operations of MomentsAddGeneric.
func momentsAdd() {
	fn := "momentsAddAVX2"
	TEXT(fn, NOSPLIT, "func(sum0, sum1, w0, w1, shift0, shift1 []float64)")
	Pragma("noescape")
	Doc(fn + " computes MomentsAddGeneric (AVX2).")
	sum0 := Load(Param("sum0").Base(), GP64())
	sum1 := Load(Param("sum1").Base(), GP64())
	w0 := Load(Param("w0").Base(), GP64())
	w1 := Load(Param("w1").Base(), GP64())
	s0 := Load(Param("shift0").Base(), GP64())
	s1 := Load(Param("shift1").Base(), GP64())
	n := Load(Param("sum0").Len(), GP64())
	SHRQ(U8(2), n)
	loopN(fn+"_loop", n, func() {
		d0, d1 := YMM(), YMM()
		VMOVUPD(Mem{Base: w0}, d0)
		VSUBPD(Mem{Base: s0}, d0, d0) // w0 - shift0
		VMOVUPD(Mem{Base: w1}, d1)
		VSUBPD(Mem{Base: s1}, d1, d1)
		VADDPD(Mem{Base: sum0}, d0, d0) // sum0 + d0
		VADDPD(Mem{Base: sum1}, d1, d1)
		VMOVUPD(d0, Mem{Base: sum0})
		VMOVUPD(d1, Mem{Base: sum1})
		for _, p := range []reg.Register{sum0, sum1, w0, w1, s0, s1} {
			ADDQ(U8(32), p)
		}
	})
	VZEROUPPER()
	RET()
}

// momentsAddSq emits momentsAddSqAVX2, the operations of
// MomentsAddSqGeneric: every product is rounded before its sum (VMULPD then
// VADDPD, never a fused multiply-add).
func momentsAddSq() {
	fn := "momentsAddSqAVX2"
	TEXT(fn, NOSPLIT, "func(sum0, sum1, sq00, sq01, sq11, w0, w1, shift0, shift1 []float64)")
	Pragma("noescape")
	Doc(fn + " computes MomentsAddSqGeneric (AVX2).")
	sum0 := Load(Param("sum0").Base(), GP64())
	sum1 := Load(Param("sum1").Base(), GP64())
	q00 := Load(Param("sq00").Base(), GP64())
	q01 := Load(Param("sq01").Base(), GP64())
	q11 := Load(Param("sq11").Base(), GP64())
	w0 := Load(Param("w0").Base(), GP64())
	w1 := Load(Param("w1").Base(), GP64())
	s0 := Load(Param("shift0").Base(), GP64())
	s1 := Load(Param("shift1").Base(), GP64())
	n := Load(Param("sum0").Len(), GP64())
	SHRQ(U8(2), n)
	loopN(fn+"_loop", n, func() {
		d0, d1, a, p := YMM(), YMM(), YMM(), YMM()
		VMOVUPD(Mem{Base: w0}, d0)
		VSUBPD(Mem{Base: s0}, d0, d0)
		VMOVUPD(Mem{Base: w1}, d1)
		VSUBPD(Mem{Base: s1}, d1, d1)
		VADDPD(Mem{Base: sum0}, d0, a)
		VMOVUPD(a, Mem{Base: sum0})
		VADDPD(Mem{Base: sum1}, d1, a)
		VMOVUPD(a, Mem{Base: sum1})
		VMULPD(d0, d0, p)
		VADDPD(Mem{Base: q00}, p, p)
		VMOVUPD(p, Mem{Base: q00})
		VMULPD(d1, d0, p)
		VADDPD(Mem{Base: q01}, p, p)
		VMOVUPD(p, Mem{Base: q01})
		VMULPD(d1, d1, p)
		VADDPD(Mem{Base: q11}, p, p)
		VMOVUPD(p, Mem{Base: q11})
		for _, r := range []reg.Register{sum0, sum1, q00, q01, q11, w0, w1, s0, s1} {
			ADDQ(U8(32), r)
		}
	})
	VZEROUPPER()
	RET()
}

// swapApply emits swapApplyAVX2, SwapApplyGeneric: for every active pair,
// the lanes where u ≤ α exchange the pair's two rows of w0, w1 and rep.
// The lane masks come from VCMPPD (LE_OS: false when either is NaN, as Go's
// <=); the two 4-lane masks of a row are packed into one 8-lane mask of
// 32-bit elements for the replica row (VSHUFPS keeps the low half of each
// 64-bit mask, VPERMPD puts the lanes back in order).
func swapApply() {
	fn := "swapApplyAVX2"
	TEXT(fn, NOSPLIT, "func(w0, w1 []float64, rep []int32, alpha, u []float64, from int)")
	Pragma("noescape")
	Doc(fn + " computes SwapApplyGeneric (AVX2).")
	w0 := Load(Param("w0").Base(), GP64())
	w1 := Load(Param("w1").Base(), GP64())
	rep := Load(Param("rep").Base(), GP64())
	alpha := Load(Param("alpha").Base(), GP64())
	u := Load(Param("u").Base(), GP64())
	from := Load(Param("from"), GP64())
	c := Load(Param("w0").Len(), GP64())
	SHRQ(U8(3), c) // rows (chains)
	// Pairs from, from+2, … while pair+1 < c: count = (c - from) / 2.
	n := GP64()
	MOVQ(c, n)
	SUBQ(from, n)
	SHRQ(U8(1), n)
	// Start at pair from: row offsets from·64 bytes (w0, w1, alpha), from·32
	// (rep); u advances one row per pair, from row 0.
	off := GP64()
	MOVQ(from, off)
	SHLQ(U8(6), off)
	ADDQ(off, w0)
	ADDQ(off, w1)
	ADDQ(off, alpha)
	SHRQ(U8(1), off)
	ADDQ(off, rep)
	loopN(fn+"_loop", n, func() {
		m0, m1 := YMM(), YMM()
		VMOVUPD(Mem{Base: u}, m0)
		VCMPPD(U8(0x02), Mem{Base: alpha}, m0, m0) // u <= alpha
		VMOVUPD(Mem{Base: u, Disp: 32}, m1)
		VCMPPD(U8(0x02), Mem{Base: alpha, Disp: 32}, m1, m1)
		for _, w := range []reg.Register{w0, w1} {
			for h, m := range []reg.VecVirtual{m0, m1} {
				x, y, nx, ny := YMM(), YMM(), YMM(), YMM()
				VMOVUPD(Mem{Base: w, Disp: 32 * h}, x)
				VMOVUPD(Mem{Base: w, Disp: 64 + 32*h}, y)
				VBLENDVPD(m, y, x, nx) // m ? y : x
				VBLENDVPD(m, x, y, ny)
				VMOVUPD(nx, Mem{Base: w, Disp: 32 * h})
				VMOVUPD(ny, Mem{Base: w, Disp: 64 + 32*h})
			}
		}
		m := YMM()
		VSHUFPS(U8(0x88), m1, m0, m) // [L0 L1 L4 L5 | L2 L3 L6 L7] as 32-bit masks
		VPERMPD(U8(0xd8), m, m)      // [L0 … L7]
		x, y, nx, ny := YMM(), YMM(), YMM(), YMM()
		VMOVDQU(Mem{Base: rep}, x)
		VMOVDQU(Mem{Base: rep, Disp: 32}, y)
		VBLENDVPS(m, y, x, nx)
		VBLENDVPS(m, x, y, ny)
		VMOVDQU(nx, Mem{Base: rep})
		VMOVDQU(ny, Mem{Base: rep, Disp: 32})
		ADDQ(U32(128), w0)
		ADDQ(U32(128), w1)
		ADDQ(U32(128), alpha)
		ADDQ(U8(64), rep)
		ADDQ(U8(64), u)
	})
	VZEROUPPER()
	RET()
}
