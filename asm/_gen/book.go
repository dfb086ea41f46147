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
	moments(false)
	moments(true)
	swapApply()
}

// moments emits momentsAddAVX2, the operations of MomentsAddGeneric, or
// with sq momentsAddSqAVX2, those of MomentsAddSqGeneric: every product is
// rounded before its sum (VMULPD then VADDPD, never a fused multiply-add).
func moments(sq bool) {
	fn, sig, name := "momentsAddAVX2", "func(sum0, sum1, w0, w1, shift0, shift1 []float64)", "MomentsAddGeneric"
	params := []string{"sum0", "sum1", "w0", "w1", "shift0", "shift1"}
	if sq {
		fn, sig, name = "momentsAddSqAVX2", "func(sum0, sum1, sq00, sq01, sq11, w0, w1, shift0, shift1 []float64)", "MomentsAddSqGeneric"
		params = []string{"sum0", "sum1", "sq00", "sq01", "sq11", "w0", "w1", "shift0", "shift1"}
	}
	TEXT(fn, NOSPLIT, sig)
	Pragma("noescape")
	Doc(fn + " computes " + name + " (AVX2).")
	ptr := map[string]reg.Register{}
	var ptrs []reg.Register
	for _, p := range params {
		ptr[p] = Load(Param(p).Base(), GP64())
		ptrs = append(ptrs, ptr[p])
	}
	n := Load(Param("sum0").Len(), GP64())
	SHRQ(U8(2), n)
	// add emits dst[i] += v (the sum's rounding: VADDPD, then the store).
	add := func(dst string, v, tmp reg.VecVirtual) {
		VADDPD(Mem{Base: ptr[dst]}, v, tmp)
		VMOVUPD(tmp, Mem{Base: ptr[dst]})
	}
	loopN(fn+"_loop", n, func() {
		d0, d1, a, p := YMM(), YMM(), YMM(), YMM()
		VMOVUPD(Mem{Base: ptr["w0"]}, d0)
		VSUBPD(Mem{Base: ptr["shift0"]}, d0, d0) // w0 - shift0
		VMOVUPD(Mem{Base: ptr["w1"]}, d1)
		VSUBPD(Mem{Base: ptr["shift1"]}, d1, d1)
		add("sum0", d0, a)
		add("sum1", d1, a)
		if sq {
			VMULPD(d0, d0, p)
			add("sq00", p, p)
			VMULPD(d1, d0, p)
			add("sq01", p, p)
			VMULPD(d1, d1, p)
			add("sq11", p, p)
		}
		for _, r := range ptrs {
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
