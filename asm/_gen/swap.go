package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

func genSwap() {
	for _, t := range []tier{avx512, avx2} {
		swapAlpha(t)
	}
}

// swapAlpha emits swapAlpha+tier, the operations of SwapAlphaGeneric with
// the polynomial ExpNonPos, one register of lanes at a time (pairs are
// independent, so the AVX2 version simply walks 4 values at a time).
func swapAlpha(t tier) {
	fn := "swapAlpha" + t.name
	TEXT(fn, NOSPLIT, "func(alpha, rej, eta0, eta1, w0, w1 []float64)")
	alignConsts()
	Pragma("noescape")
	Doc(fn + " computes SwapAlphaGeneric (" + t.name + ").")
	alpha := Load(Param("alpha").Base(), GP64())
	rej := Load(Param("rej").Base(), GP64())
	eta0 := Load(Param("eta0").Base(), GP64())
	eta1 := Load(Param("eta1").Base(), GP64())
	w0 := Load(Param("w0").Base(), GP64())
	w1 := Load(Param("w1").Base(), GP64())
	n := Load(Param("alpha").Len(), GP64())
	if t.zmm() {
		SHRQ(U8(3), n)
	} else {
		SHRQ(U8(2), n)
	}
	zero := t.vec()
	t.zero(zero)
	loopN(fn+"_loop", n, func() {
		a := t.vec()
		VMOVUPD(Mem{Base: eta0}, a)
		VSUBPD(Mem{Base: eta0, Disp: 64}, a, a) // eta0[i]-eta0[i1]
		b := t.vec()
		VMOVUPD(Mem{Base: w0, Disp: 64}, b)
		VSUBPD(Mem{Base: w0}, b, b) // w0[i1]-w0[i]
		c := t.vec()
		VMOVUPD(Mem{Base: eta1}, c)
		VSUBPD(Mem{Base: eta1, Disp: 64}, c, c)
		d := t.vec()
		VMOVUPD(Mem{Base: w1, Disp: 64}, d)
		VSUBPD(Mem{Base: w1}, d, d)
		VMULPD(d, c, c)
		VFMADD231PD(b, a, c) // lr = FMA(a, b, c*d)
		x := a
		VMINPD(c, zero, x) // lr > 0 ? 0 : lr (NaN stays NaN)
		e := t.exp(V{x})[0]
		if t.zmm() {
			ok := K()
			VCMPPD(U8(0x1d), cf(expMin), x, ok) // x >= ExpMin, false for NaN
			VMOVAPD_Z(e, ok, e)
		} else {
			ok := t.vec()
			VCMPPD(U8(0x1d), cf(expMin), x, ok)
			VANDPD(ok, e, e)
		}
		VMOVUPD(e, Mem{Base: alpha})
		one := t.vec()
		VMOVUPD(cf(1), one)
		VSUBPD(e, one, one)
		VADDPD(Mem{Base: rej}, one, one) // rej + (1 - a)
		VMOVUPD(one, Mem{Base: rej})
		for _, p := range []Op{alpha, rej, eta0, eta1, w0, w1} {
			ADDQ(U8(t.bytes()), p)
		}
	})
	VZEROUPPER()
	RET()
}
