package main

import (
	"strconv"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The constants of the Go runtime's math.Exp on amd64 (math/exp_amd64.s,
// after Shibata's SLEEF), parsed from the same decimal strings as the Go
// assembler parses them.
var (
	goExpLog2e    = parse("1.4426950408889634073599246810018920")
	goExpLn2U     = parse("0.69314718055966295651160180568695068359375")
	goExpLn2L     = parse("0.28235290563031577122588448175013436025525412068e-12")
	goExpOverflow = parse("7.09782712893384e+02")
	// goExpTaylor are exprodata's coefficients 1/8! … 1/3!, 1/2, 1 in the
	// order the Horner steps add them.
	goExpTaylor = []float64{parse("2.4801587301587301587e-5"), parse("1.9841269841269841270e-4"),
		parse("1.3888888888888888889e-3"), parse("8.3333333333333333333e-3"),
		parse("4.1666666666666666667e-2"), parse("1.6666666666666666667e-1"), 0.5, 1.0}
)

func parse(s string) float64 {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(err)
	}
	return x
}

func genSpline() {
	for _, t := range []tier{avx512, avx2} {
		splineSteps(t)
		expRows(t)
	}
}

// half returns a register of half the tier's width (the int32 exponents).
func (t tier) half() reg.VecVirtual {
	if t.zmm() {
		return YMM()
	}
	return XMM()
}

// mask is a comparison's result: an opmask with AVX-512, a register of
// all-ones and zero lanes with AVX2.
func (t tier) mask() Op {
	if t.zmm() {
		return K()
	}
	return t.vec()
}

// fcmp returns the mask of a imm b (VCMPPD, a a register).
func (t tier) fcmp(imm int, b Op, a reg.VecVirtual) Op {
	m := t.mask()
	VCMPPD(U8(imm), b, a, m)
	return m
}

// igt returns the mask of a > b as signed 64-bit integers (VPCMPGTQ, a a
// register).
func (t tier) igt(b Op, a reg.VecVirtual) Op {
	m := t.mask()
	VPCMPGTQ(b, a, m)
	return m
}

// sel sets dst = m ? a : b lane by lane (a a register or memory, b a
// register).
func (t tier) sel(m Op, a, b Op, dst reg.VecVirtual) {
	if t.zmm() {
		VBLENDMPD(a, b, m, dst)
	} else {
		VBLENDVPD(m, a, b, dst)
	}
}

// goExp returns math.Exp(x) lane by lane, bit for bit as the Go runtime's
// amd64 assembly computes it on a CPU with FMA (math/exp_amd64.s, its
// avxfma path): x·log2e rounded to an int32 exponent e (CVTSD2SL,
// round to nearest; out of range, the integer indefinite), the reduced
// argument x − e·ln2 in two fused steps, divided by 16, a Taylor
// polynomial by fused Horner steps, four squarings of the form
// y·(y + 2) (the last fused with the + 1), and the scaling by 2^e, with
// math.Exp's special cases: a NaN is returned as it is, +Inf and
// arguments above 709.78… give +Inf, as do exponents e + 1023 ≥ 2047;
// e + 1023 ≤ 0 scales in two steps (to a subnormal result), or gives +0
// below −52; −Inf gives +0. x is not changed.
func (t tier) goExp(x reg.VecVirtual) reg.VecVirtual {
	x1, x0 := t.vec(), t.vec()
	VMULPD(cf(goExpLog2e), x, x1)
	e32 := t.half()
	if t.zmm() {
		VCVTPD2DQ(x1, e32)
	} else {
		VCVTPD2DQY(x1, e32)
	}
	VCVTDQ2PD(e32, x1)
	VMOVAPD(x, x0)
	VFNMADD231PD(cf(goExpLn2U), x1, x0) // x0 = x − e·ln2U
	VFNMADD231PD(cf(goExpLn2L), x1, x0) // x0 −= e·ln2L
	VMULPD(cf(0.0625), x0, x0)
	p := x1
	VMOVUPD(cf(goExpTaylor[0]), p)
	for _, c := range goExpTaylor[1:] {
		VFMADD213PD(cf(c), x0, p) // p = p·x0 + c
	}
	VMULPD(p, x0, x0)
	for i := 0; i < 4; i++ {
		VADDPD(cf(2), x0, p) // p = x0 + 2
		if i < 3 {
			VMULPD(p, x0, x0)
		} else {
			VFMADD213PD(cf(1), p, x0) // x0 = x0·p + 1
		}
	}
	// The scaling: b = e + 1023, 2^e as the bits b << 52.
	b := t.vec()
	VPMOVSXDQ(e32, b)
	if t.zmm() {
		VPADDQ(c64(1023), b, b)
	} else {
		VPADDQ(c64(1023), b, b)
	}
	scale, res := t.vec(), t.vec()
	VPSLLQ(U8(52), b, scale)
	VMULPD(scale, x0, res)
	// b ≤ 0: x0·2^(b−1) (the bits (b + 1022) << 52), then ·2^−1022.
	den := p
	VPADDQ(c64(1022), b, scale)
	VPSLLQ(U8(52), scale, scale)
	VMULPD(scale, x0, den)
	VMULPD(c64(1<<52), den, den)
	t.sel(t.igt(c64(0), b), res, den, res)
	zero := scale
	t.zero(zero)
	t.sel(t.igt(c64(uint64(0xffffffffffffffcb)), b), res, zero, res) // b < −52 (not b > −53): +0
	inf := den
	VMOVUPD(c64(0x7ff0000000000000), inf)
	t.sel(t.igt(c64(2046), b), inf, res, res) // b ≥ 2047: +Inf
	t.sel(t.fcmp(gtOQ, cf(goExpOverflow), x), inf, res, res)
	t.sel(t.fcmp(eqOQ, c64(0xfff0000000000000), x), zero, res, res) // −Inf: +0
	t.sel(t.fcmp(unordQ, x, x), x, res, res)                        // NaN: itself
	return res
}

// Predicates of VCMPPD not in cubic.go.
const (
	eqOQ   = 0x00
	unordQ = 0x03
)

// splineSteps emits splineSteps+tier, SplineStepsGeneric a register of
// components at a time.
func splineSteps(t tier) {
	fn := t.header("splineSteps", "func(knots, accum, grad []float64, lr, eps float64)", "SplineStepsGeneric")
	names := []string{"knots", "accum", "grad"}
	ptr, n := t.slices(names...)
	negLr, eps := t.broadcast("lr"), t.broadcast("eps")
	VXORPD(c64(1<<63), negLr, negLr) // −lr
	loopN(fn+"_loop", n, func() {
		phi, g, acc := t.vec(), t.vec(), t.vec()
		VMOVUPD(Mem{Base: ptr["knots"]}, phi)
		VMOVUPD(Mem{Base: ptr["grad"]}, g)
		den := t.vec()
		VANDPD(c64(absMask), g, den)
		VADDPD(phi, den, den) // |grad| + φ
		VDIVPD(den, g, g)     // g = grad / (|grad| + φ)
		VMULPD(g, g, acc)
		VADDPD(Mem{Base: ptr["accum"]}, acc, acc) // G + g·g
		VMOVUPD(acc, Mem{Base: ptr["accum"]})
		VADDPD(eps, acc, acc)
		VSQRTPD(acc, acc)
		VMULPD(g, negLr, g) // −lr·g
		VDIVPD(acc, g, g)   // / sqrt(G + ε)
		e := t.goExp(g)
		VMULPD(e, phi, phi)
		VMOVUPD(phi, Mem{Base: ptr["knots"]})
		t.advance(ptr, names)
	})
	VZEROUPPER()
	RET()
}

// expRows emits expRows+tier, dst[i] = math.Exp(src[i]) bit for bit
// (goExp), for the tests of goExp.
func expRows(t tier) {
	fn := t.header("expRows", "func(dst, src []float64)", "math.Exp")
	names := []string{"dst", "src"}
	ptr, n := t.slices(names...)
	loopN(fn+"_loop", n, func() {
		x := t.vec()
		VMOVUPD(Mem{Base: ptr["src"]}, x)
		VMOVUPD(t.goExp(x), Mem{Base: ptr["dst"]})
		t.advance(ptr, names)
	})
	VZEROUPPER()
	RET()
}

// andMask sets a = a & b for two masks of fcmp.
func (t tier) andMask(b, a Op) {
	if t.zmm() {
		KANDB(b, a, a)
	} else {
		VANDPD(b, a, a)
	}
}

// jumpIfNoLane jumps to label when no lane of the mask m is set.
func (t tier) jumpIfNoLane(m Op, label string) {
	if t.zmm() {
		KORTESTB(m, m)
	} else {
		g := GP32()
		VMOVMSKPD(m, g)
		TESTL(g, g)
	}
	JE(LabelRef(label))
}
