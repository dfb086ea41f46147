package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// The polynomial coefficients and constants of asm/elem.go (which see for
// their provenance and the error bounds).
var logP = []float64{
	-0x1.0000000000000p-1, 0x1.555555555555cp-2, -0x1.fffffffffff34p-3, 0x1.999999999772bp-3,
	-0x1.5555555561dddp-3, 0x1.249249261f2ccp-3, -0x1.fffffff7e955cp-4, 0x1.c71c70c1303cbp-4,
	-0x1.99999a6364b62p-4, 0x1.745d460eacbc4p-4, -0x1.55556c388aeddp-4, 0x1.3b0eda8f5d75cp-4,
	-0x1.248b2a78bff20p-4, 0x1.115b4daceee38p-4, -0x1.00b0e81fd59f4p-4, 0x1.dd3093b701211p-5,
	-0x1.b635ac30a3dacp-5, 0x1.bb08e0be73d94p-5, -0x1.fc84a09888c57p-5, 0x1.ceab3eecb74d9p-5,
	-0x1.8e8f5f6d78efbp-6,
}

var sinS = []float64{
	-0x1.4abbce625be52p-1, 0x1.466bc6775a476p-4, -0x1.32d2cce500387p-8, 0x1.50783208843ebp-13,
	-0x1.e3027dea82bd7p-19, 0x1.e4a9d9166f052p-25,
}

var cosC = []float64{
	-0x1.3bd3cc9be45dep+0, 0x1.03c1f081b5ac0p-2, -0x1.55d3c7e3cb241p-6, 0x1.e1f5068688d5bp-11,
	-0x1.a6d1eef479be1p-16, 0x1.f9ce245cada0bp-22, -0x1.b2f3eb054afcdp-28,
}

var expE = []float64{
	0x1.0000000000000p-1, 0x1.5555555555557p-3, 0x1.5555555555556p-5, 0x1.11111111100dfp-7,
	0x1.6c16c16c162d6p-10, 0x1.a01a01abe62ddp-13, 0x1.a01a01a6d7808p-16, 0x1.71de02375656cp-19,
	0x1.27e4db67b4303p-22, 0x1.af4ddd84882fep-26, 0x1.1f72fc730b4ffp-29,
}

const (
	ln2      = 0x1.62e42fefa39efp-1
	ln2Lo    = 0x1.abc9e3b39803fp-56
	halfPi   = 0x1.921fb54442d18p+0
	hpLo     = 0x1.1a62633145c07p-54
	log2e    = 0x1.71547652b82fep+0
	ln2Hi    = 0x1.62e42feep-1
	ln2Lo2   = 0x1.a39ef35793c76p-33
	expMin   = -0x1.6232bdd7abcd2p+9
	sqrtHalf = 0x3fe6a09e667f3bcd
	logOff   = 0x3ff0000000000000 - sqrtHalf
	mantMask = 1<<52 - 1
	expTwo52 = 0x4330000000000000
	round52  = 0x1.8p52
)

// unit converts the xoshiro outputs in u (destroyed) to round((u>>11) +
// 0.5) * 2^-e: e = 53 is asm.UnitOpen, e = 51 is 4*UnitOpen. float64(u>>11)
// is exact (53 bits) and the one rounding is that of the +0.5, as in Go;
// the scaling by 2^-e, exact, subtracts e from the exponent field (an
// integer operation, which leaves the FMA pipes to the polynomials).
func (t tier) unit(u V, e int) V {
	v := u
	if t.zmm() {
		t.do(VPSRLQ, U8(11), u, u)
		t.do(VCVTUQQ2PD, u, u)
		t.do(VADDPD, cf(0.5), u, u)
	} else {
		// No 64-bit integer conversion in AVX2: m = hi*2^32 + lo with
		// hi = u>>43 and lo = (u>>11) & (2^32-1), both made exact floats
		// by the 2^84 and 2^52 exponent tricks; then (hi*2^32) + (lo+0.5)
		// is rounded once, like float64(m) + 0.5.
		v = t.vecs(len(u))
		t.do(VPSRLQ, U8(43), u, v)
		t.or(c64(0x4530000000000000), v, v)
		t.do(VSUBPD, cf(0x1p84), v, v)
		t.do(VPSRLQ, U8(11), u, u)
		t.and(c64(0xffffffff), u, u)
		t.or(c64(expTwo52), u, u)
		t.do(VSUBPD, cf(0x1p52-0.5), u, u)
		t.do(VADDPD, u, v, v)
	}
	t.do(VPSUBQ, c64(uint64(e)<<52), v, v) // v >= 0.5: the result is normal
	return v
}

// negTwoLog returns -2*asm.Log(x); x is destroyed. It computes Log's
// operations on values scaled by -2, which is exact and commutes with
// rounding: with p' the Estrin tree on the coefficients times -2,
//
//	-2lo = FMA(f*f, p', k*(-2 ln2Lo))
//	-2s  = -2lo - (2z - 2)             // -2(f + lo)
//	-2L  = FMA(k, -2 ln2, -2s)
//
// so that the Box–Muller radius needs no multiplication by -2.
func (t tier) negTwoLog(x V) V {
	n := len(x)
	t.do(VPADDQ, c64(logOff), x, x) // t = bits(x) + bits(1) - bits(√½)
	k := t.vecs(n)
	t.do(VPSRLQ, U8(52), x, k)
	t.or(c64(expTwo52), k, k)
	t.do(VSUBPD, cf(0x1p52+1023), k, k) // k, exact
	t.and(c64(mantMask), x, x)
	t.do(VPADDQ, c64(sqrtHalf), x, x) // z in [√½, √2)
	twoF := t.vecs(n)
	t.do(VPADDQ, c64(1<<52), x, twoF) // 2z
	t.do(VSUBPD, cf(2), twoF, twoF)   // 2f = 2z - 2, exact
	f := x
	t.do(VSUBPD, cf(1), x, f) // f = z - 1, exact
	f2 := t.vecs(n)
	t.do(VMULPD, f, f, f2)
	c := make([]float64, len(logP))
	for i := range c {
		c[i] = -2 * logP[i]
	}
	p := t.estrin(c, []V{f, f2})
	lo := t.vecs(n)
	t.do(VMULPD, cf(-2*ln2Lo), k, lo)
	t.do(VFMADD231PD, p, f2, lo) // -2lo
	t.do(VSUBPD, twoF, lo, lo)   // -2lo - 2f
	t.do(VFMADD231PD, cf(-2*ln2), k, lo)
	return lo
}

// sincos returns asm.SinCos2Pi(u) given x = 4u; x is destroyed.
func (t tier) sincos(x V) (sin, cos V) {
	n := len(x)
	qq := t.vecs(n)
	t.do(VADDPD, cf(round52), x, qq)
	y := t.vecs(n)
	t.do(VSUBPD, cf(round52), qq, y)
	t.do(VSUBPD, y, x, y) // y = x - q, exact
	z := x
	t.do(VMULPD, y, y, z)
	s := t.horner(sinS, z)
	t.do(VFMADD213PD, cf(hpLo), z, s)   // FMA(z, ps, hpLo)
	t.do(VMULPD, y, s, s)               // y*·
	t.do(VFMADD231PD, cf(halfPi), y, s) // FMA(y, halfPi, ·)
	c := t.horner(cosC, z)
	t.do(VFMADD213PD, cf(1), z, c) // FMA(z, pc, 1)
	sin, cos = t.vecs(n), t.vecs(n)
	if t.zmm() {
		odd := make(V, n)
		for i := range odd {
			odd[i] = K()
		}
		t.do(VPTESTMQ, c64(1), qq, odd)
		t.do(VBLENDMPD, c, s, odd, sin) // odd ? c : s
		t.do(VBLENDMPD, s, c, odd, cos)
	} else {
		m := t.vecs(n)
		t.do(VPSLLQ, U8(63), qq, m)
		t.do4(VBLENDVPD, m, c, s, sin) // sign(m) ? c : s
		t.do4(VBLENDVPD, m, s, c, cos)
	}
	sg := s
	t.and(c64(2), qq, sg)
	t.do(VPSLLQ, U8(62), sg, sg)
	t.xor(sg, sin, sin)
	t.do(VPADDQ, c64(1), qq, qq)
	t.and(c64(2), qq, qq)
	t.do(VPSLLQ, U8(62), qq, qq)
	t.xor(qq, cos, cos)
	return sin, cos
}

// exp returns asm.ExpNonPos(x) for x >= ExpMin (NaN and x < ExpMin lanes
// hold garbage: the caller masks them); x is not changed.
func (t tier) exp(x V) V {
	n := len(x)
	kk := t.load(n, cf(round52))
	t.do(VFMADD231PD, cf(log2e), x, kk) // kk = FMA(x, log2e, round52)
	nn := t.vecs(n)
	t.do(VSUBPD, cf(round52), kk, nn)
	r := t.vecs(n)
	t.do(VMOVAPD, x, r)
	t.do(VFMADD231PD, cf(-ln2Hi), nn, r) // FMA(n, -ln2Hi, x)
	t.do(VFMADD231PD, cf(-ln2Lo2), nn, r)
	p := t.estrin(expE, []V{r})
	t.do(VFMADD213PD, cf(1), r, p)
	t.do(VFMADD213PD, cf(1), r, p)
	t.do(VPADDQ, c64(1023), kk, kk)
	t.do(VPSLLQ, U8(52), kk, kk) // 2^n
	t.do(VMULPD, kk, p, p)
	return p
}
