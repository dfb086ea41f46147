package main

import (
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The constants of asm/cubic.go's SolveCubicsAtGeneric.
const (
	solveHalleySteps = 2
	solveTol         = 1e-16
	solveMaxSlope    = 0x1p511
)

// Predicates of VCMPPD: ordered (false on NaN) and quiet.
const (
	gtOQ = 0x1e // >
	ltOQ = 0x11 // <
	leOQ = 0x12 // <=
	geOQ = 0x1d // >=
)

func genCubic() {
	for _, t := range []tier{avx512, avx2} {
		solveCubicsAt(t)
		targetIndices(t)
	}
}

// solveCubicsAt emits solveCubicsAt+tier, SolveCubicsAtGeneric one
// register of targets at a time: each target's segment gathered from the
// fit's columns by its index (the second knot's values at displacement 8),
// every target's steps in registers from its gathers to its store, the
// targets of consecutive registers independent (the core overlaps them,
// and the gathers of one with the divisions of another).
func solveCubicsAt(t tier) {
	fn := t.header("solveCubicsAt", "func(t []float64, segs []int, targets, xs, ys, d, a2, a3 []float64)", "SolveCubicsAtGeneric")
	ptr, n := t.slices("t", "segs", "targets", "xs", "ys", "d", "a2", "a3")
	zero := t.vec()
	t.zero(zero)
	loopN(fn+"_loop", n, func() {
		idx := t.vec()
		if t.zmm() {
			VMOVDQU64(Mem{Base: ptr["segs"]}, idx)
		} else {
			VMOVDQU(Mem{Base: ptr["segs"]}, idx)
		}
		at := func(col string, disp int) reg.VecVirtual { return t.gather(ptr[col], idx, disp) }
		a0, y1 := at("ys", 0), at("ys", 8)
		x0, x1 := at("xs", 0), at("xs", 8)
		a1, a2, a3 := at("d", 0), at("a2", 0), at("a3", 0)
		u, h, dy := t.vec(), t.vec(), y1
		VMOVUPD(Mem{Base: ptr["targets"]}, u)
		VSUBPD(a0, u, u)   // targets[i] - a0
		VSUBPD(x0, x1, h)  // x1 - x0
		VSUBPD(a0, y1, dy) // ys[seg+1] - a0
		out := t.solveSteps(a1, a2, a3, u, h, dy, x0, x1, zero)
		VMOVUPD(out, Mem{Base: ptr["t"]})
		t.advance(ptr, []string{"t", "segs", "targets"})
	})
	VZEROUPPER()
	RET()
}

// solveSteps emits SolveCubic's operations on a register of targets whose
// rows are in a1, a2, a3, u, h, dy, x0 and x1 (dy and x0 registers or
// memory) and returns the register of their roots, NaN where the
// iteration did not converge. Comparisons are ordered (false on NaN) as
// Go's; the clamps are MAXPD/MINPD with the bound as the first source,
// which returns the second (the iterate) when the two are unordered, as
// Go's `if 0 > dx` and `if h < dx` keep a NaN.
func (t tier) solveSteps(a1, a2, a3, u, h reg.VecVirtual, dy, x0, x1 Op, zero reg.VecVirtual) reg.VecVirtual {
	b2, b3 := t.vec(), t.vec()
	VMULPD(cf(2), a2, b2)
	VMULPD(cf(3), a3, b3)
	dx := t.vec()
	VMULPD(u, h, dx)
	VDIVPD(dy, dx, dx) // (h*u) / dy
	r, d, v := t.vec(), t.vec(), t.vec()
	// residual sets r = ((a3·dx + a2)·dx + a1)·dx − u, v = b3·dx and
	// d = (v + b2)·dx + a1, each product rounded.
	residual := func() {
		VMULPD(dx, a3, r)
		VADDPD(a2, r, r)
		VMULPD(dx, r, r)
		VADDPD(a1, r, r)
		VMULPD(dx, r, r)
		VSUBPD(u, r, r)
		VMULPD(dx, b3, v)
		VADDPD(b2, v, d)
		VMULPD(dx, d, d)
		VADDPD(a1, d, d)
	}
	for k := 0; k < solveHalleySteps; k++ {
		residual()
		num, den := t.vec(), t.vec()
		VADDPD(v, a2, v)    // c = a2 + v
		VMULPD(v, r, v)     // r*c
		VMULPD(d, d, den)   // d*d
		VSUBPD(v, den, den) // d*d - r*c
		VMULPD(d, r, num)   // r*d
		VDIVPD(den, num, num)
		VSUBPD(num, dx, dx)  // dx - (r*d)/(d*d - r*c)
		VMAXPD(dx, zero, dx) // 0 > dx ? 0 : dx
		VMINPD(dx, h, dx)    // h < dx ? h : dx
	}
	residual()
	delta := r
	VDIVPD(d, r, delta) // δ = r / d
	VSUBPD(delta, dx, dx)
	m := v
	VANDPD(c64(0x7fffffffffffffff), a2, m) // |a2|
	VANDPD(c64(0x7fffffffffffffff), b3, b3)
	VMULPD(h, b3, b3) // |b3|*h
	VADDPD(b3, m, m)
	VMULPD(delta, m, m)
	VMULPD(delta, m, m) // (m*δ)*δ
	tol := b2
	VMULPD(cf(solveTol), d, tol) // SolveTol*d
	res := a3
	VADDPD(x0, dx, res)  // x0 + dx
	VMINPD(res, x1, res) // x1 < t ? x1 : t
	// ok: d > 0, d < SolveMaxSlope, (m·δ)·δ <= SolveTol·d, dx >= 0 and
	// dx <= h, each comparison ordered (false on NaN) as Go's.
	tests := []struct {
		imm int
		b   Op
		a   reg.VecVirtual
	}{{gtOQ, zero, d}, {ltOQ, cf(solveMaxSlope), d}, {leOQ, tol, m}, {geOQ, zero, dx}, {leOQ, h, dx}}
	out := t.vec()
	VMOVUPD(c64(math.Float64bits(math.NaN())), out)
	// The tests' masks: opmask registers with AVX-512, the registers of
	// a1 and a2 (no longer needed) with AVX2.
	var ok, k Op = a1, a2
	if t.zmm() {
		ok, k = K(), K()
	}
	for i, c := range tests {
		if i == 0 {
			VCMPPD(U8(c.imm), c.b, c.a, ok)
			continue
		}
		VCMPPD(U8(c.imm), c.b, c.a, k)
		if t.zmm() {
			KANDB(k, ok, ok)
		} else {
			VANDPD(k, ok, ok)
		}
	}
	if t.zmm() {
		VBLENDMPD(res, out, ok, out) // ok ? t : NaN
	} else {
		VBLENDVPD(ok, res, out, out) // ok ? t : NaN
	}
	return out
}

// The constants of asm/cubic.go's Fritsch–Butland fit.
const (
	fitTinyStep  = 1e-100
	fitMinNormal = 0x1p-1022
	absMask      = 0x7fffffffffffffff
)

func genFit() {
	for _, t := range []tier{avx512, avx2} {
		cubicSlopes(t)
		cubicDerivs(t)
		cubicCoeffs(t)
	}
}

// header starts the kernel name+tier with the Go signature sig, its
// constants' base and its documentation (the computation of generic,
// its twin), and returns its name.
func (t tier) header(name, sig, generic string) string {
	fn := name + t.name
	TEXT(fn, NOSPLIT, sig)
	alignConsts()
	Pragma("noescape")
	Doc(fn + " computes " + generic + " (" + t.name + ").")
	return fn
}

// rowKernel emits the kernel name+tier over the rows of the slice
// parameters names, a register of each at a time: body, given their
// pointers and a register of zeros, emits one step, after which every
// pointer moves on by a register (the first slice's length a multiple of
// the register's lanes).
func (t tier) rowKernel(name, sig, generic string, names []string, body func(ptr map[string]reg.Register, zero reg.VecVirtual)) {
	fn := t.header(name, sig, generic)
	ptr, n := t.slices(names...)
	zero := t.vec()
	t.zero(zero)
	loopN(fn+"_loop", n, func() {
		body(ptr, zero)
		t.advance(ptr, names)
	})
	VZEROUPPER()
	RET()
}

// advance moves each of the pointers ptr[s] of names by a register's
// bytes.
func (t tier) advance(ptr map[string]reg.Register, names []string) {
	for _, s := range names {
		ADDQ(U8(t.bytes()), ptr[s])
	}
}

// pick sets dst = m ? a : b lane by lane, for a mask m of all-ones or
// all-zeros lanes (as cmp makes).
func (t tier) pick(m reg.VecVirtual, a, b Op, dst reg.VecVirtual) {
	if t.zmm() {
		k := K()
		VPMOVQ2M(m, k)
		VBLENDMPD(a, b, k, dst)
	} else {
		VBLENDVPD(m, a, b, dst)
	}
}

// andNot sets dst = a &^ b.
func (t tier) andNot(a, b, dst reg.VecVirtual) {
	if t.zmm() {
		VPANDNQ(a, b, dst)
	} else {
		VANDNPD(a, b, dst)
	}
}

// slices loads the base pointers of the slice parameters names and the
// register count of the first (its length over the register's width).
func (t tier) slices(names ...string) (map[string]reg.Register, reg.Register) {
	ptr := map[string]reg.Register{}
	for _, s := range names {
		ptr[s] = Load(Param(s).Base(), GP64())
	}
	n := Load(Param(names[0]).Len(), GP64())
	if t.zmm() {
		SHRQ(U8(3), n)
	} else {
		SHRQ(U8(2), n)
	}
	return ptr, n
}

// cubicSlopes emits cubicSlopes+tier, CubicSlopesGeneric a register of
// segments at a time (both quotients computed, the one a lane needs
// kept).
func cubicSlopes(t tier) {
	names := []string{"slopes", "invs", "xs", "ys"}
	t.rowKernel("cubicSlopes", "func(slopes, invs, xs, ys []float64)", "CubicSlopesGeneric", names, func(ptr map[string]reg.Register, zero reg.VecVirtual) {
		dx, dy := t.vec(), t.vec()
		VMOVUPD(Mem{Base: ptr["xs"], Disp: 8}, dx)
		VSUBPD(Mem{Base: ptr["xs"]}, dx, dx) // xs[i+1] - xs[i]
		VMOVUPD(Mem{Base: ptr["ys"], Disp: 8}, dy)
		VSUBPD(Mem{Base: ptr["ys"]}, dy, dy)
		ok := t.cmp(cmpGE, cf(fitTinyStep), dx) // dx >= 1e-100, false for NaN
		inv := t.vec()
		VMOVUPD(cf(1), inv)
		VDIVPD(dx, inv, inv) // 1 / dx
		s := t.vec()
		VMULPD(inv, dy, s) // dy * inv
		q := t.vec()
		VDIVPD(dx, dy, q) // dy / dx
		t.and(ok, inv, inv)
		t.pick(ok, s, q, s)
		VMOVUPD(inv, Mem{Base: ptr["invs"]})
		VMOVUPD(s, Mem{Base: ptr["slopes"]})
	})
}

// cubicDerivs emits cubicDerivs+tier, CubicDerivsGeneric a register of
// knots at a time; gonum's three-division form only when some lane needs
// it (a product or denominator out of the normal range).
func cubicDerivs(t tier) {
	names := []string{"d", "slopes", "xs"}
	t.rowKernel("cubicDerivs", "func(d, slopes, xs []float64)", "CubicDerivsGeneric", names, func(ptr map[string]reg.Register, zero reg.VecVirtual) {
		s0, s1 := t.vec(), t.vec()
		VMOVUPD(Mem{Base: ptr["slopes"]}, s0)
		VMOVUPD(Mem{Base: ptr["slopes"], Disp: 8}, s1)
		x0, x2 := t.vec(), t.vec()
		VMOVUPD(Mem{Base: ptr["xs"]}, x0)
		VMOVUPD(Mem{Base: ptr["xs"], Disp: 16}, x2)
		p := t.vec()
		VMULPD(s1, s0, p)           // s0*s1
		pos := t.cmp(0x1e, zero, p) // GT_OQ
		w0, w1, h := t.vec(), t.vec(), t.vec()
		VMULPD(cf(2), x2, w0)
		VSUBPD(x0, w0, w0)
		VSUBPD(Mem{Base: ptr["xs"], Disp: 8}, w0, w0) // (2*x2 - x0) - x1
		VMOVUPD(Mem{Base: ptr["xs"], Disp: 8}, w1)
		VADDPD(x2, w1, w1) // x2 + x1
		VMULPD(cf(2), x0, h)
		VSUBPD(h, w1, w1) // (x2 + x1) - 2*x0
		VSUBPD(x0, x2, h)
		VMULPD(cf(3), h, h) // 3*(x2 - x0)
		num, den := t.vec(), t.vec()
		VMULPD(p, h, num) // h*p
		VMULPD(s1, w0, den)
		VMULPD(s0, w1, x0)
		VADDPD(x0, den, den) // w0*s1 + w1*s0
		// normal: p >= minNormal, num <= MaxFloat64, minNormal <= |den| <= MaxFloat64.
		normal := t.cmp(cmpGE, cf(fitMinNormal), p)
		t.and(t.cmp(cmpLE, cf(math.MaxFloat64), num), normal, normal)
		abs := x2
		VANDPD(c64(absMask), den, abs)
		t.and(t.cmp(cmpGE, cf(fitMinNormal), abs), normal, normal)
		t.and(t.cmp(cmpLE, cf(math.MaxFloat64), abs), normal, normal)
		v := num
		VDIVPD(den, num, v) // num / den
		sel := t.vec()
		t.and(pos, normal, sel)
		t.and(sel, v, v) // 0 where p ≤ 0 (or NaN) or out of range
		fb := sel
		t.andNot(pos, normal, fb) // p > 0, out of range
		done := "cubicDerivs" + t.name + "_normal"
		t.jumpIfNone(fb, done)
		q0, q1 := t.vec(), t.vec()
		VDIVPD(s0, w0, q0) // w0/s0
		VDIVPD(s1, w1, q1) // w1/s1
		VADDPD(q1, q0, q0)
		VDIVPD(q0, h, q0) // h / (w0/s0 + w1/s1)
		t.pick(fb, q0, v, v)
		Label(done)
		VMOVUPD(v, Mem{Base: ptr["d"]})
	})
}

// cubicCoeffs emits cubicCoeffs+tier, CubicCoeffsGeneric a register of
// segments at a time; the divisions by the step only when some lane's
// reciprocal is 0.
func cubicCoeffs(t tier) {
	names := []string{"a2", "a3", "d", "xs", "ys", "invs"}
	t.rowKernel("cubicCoeffs", "func(a2, a3, d, xs, ys, invs []float64)", "CubicCoeffsGeneric", names, func(ptr map[string]reg.Register, zero reg.VecVirtual) {
		d0, d1 := t.vec(), t.vec()
		VMOVUPD(Mem{Base: ptr["d"]}, d0)
		VMOVUPD(Mem{Base: ptr["d"], Disp: 8}, d1)
		dx, dy := t.vec(), t.vec()
		VMOVUPD(Mem{Base: ptr["xs"], Disp: 8}, dx)
		VSUBPD(Mem{Base: ptr["xs"]}, dx, dx)
		VMOVUPD(Mem{Base: ptr["ys"], Disp: 8}, dy)
		VSUBPD(Mem{Base: ptr["ys"]}, dy, dy)
		p2, u := t.vec(), t.vec()
		VMULPD(cf(3), dy, p2)
		VMULPD(cf(2), d0, u)
		VADDPD(d1, u, u)
		VMULPD(dx, u, u)
		VSUBPD(u, p2, p2) // 3*dy - (2*d0 + d1)*dx
		p3 := t.vec()
		VMULPD(cf(-2), dy, p3)
		VADDPD(d1, d0, u)
		VMULPD(dx, u, u)
		VADDPD(u, p3, p3) // -2*dy + (d0 + d1)*dx
		inv, inv2 := t.vec(), t.vec()
		VMOVUPD(Mem{Base: ptr["invs"]}, inv)
		VMULPD(inv, inv, inv2)
		r2, r3 := d0, d1
		VMULPD(inv2, p2, r2) // p2*inv²
		VMULPD(inv2, p3, r3)
		VMULPD(inv, r3, r3)             // (p3*inv²)*inv
		tiny := t.cmp(cmpEQ, zero, inv) // inv == 0 (false for NaN, as Go's !=)
		done := "cubicCoeffs" + t.name + "_recip"
		t.jumpIfNone(tiny, done)
		VDIVPD(dx, p2, p2)
		VDIVPD(dx, p2, p2) // p2/dx/dx
		VDIVPD(dx, p3, p3)
		VDIVPD(dx, p3, p3)
		VDIVPD(dx, p3, p3) // p3/dx/dx/dx
		t.pick(tiny, p2, r2, r2)
		t.pick(tiny, p3, r3, r3)
		Label(done)
		VMOVUPD(r2, Mem{Base: ptr["a2"]})
		VMOVUPD(r3, Mem{Base: ptr["a3"]})
	})
}

// targetIndices emits targetIndices+tier, TargetIndicesGeneric a register
// of knots at a time, the index k held as a float64 (an exact integer)
// until its store: the guess, then the corrections of each lane in turn
// as two loops that run while any active lane still needs one.
func targetIndices(t tier) {
	fn := t.header("targetIndices", "func(g []int, ys []float64, step, inv float64, num int)", "TargetIndicesGeneric")
	ptr, n := t.slices("g", "ys")
	step, inv := t.broadcast("step"), t.broadcast("inv")
	numF := t.vec()
	{
		gp := Load(Param("num"), GP64())
		x := XMM()
		CVTSQ2SD(gp, x)
		VBROADCASTSD(x, numF)
	}
	zero := t.vec()
	t.zero(zero)
	loopN(fn+"_loop", n, func() {
		y, x, k := t.vec(), t.vec(), t.vec()
		VMOVUPD(Mem{Base: ptr["ys"]}, y)
		VMULPD(inv, y, x)
		active := t.fcmp(ltOQ, numF, x) // x < num, false for NaN
		if t.zmm() {                    // trunc(x)
			VRNDSCALEPD(U8(3), x, k)
		} else {
			VROUNDPD(U8(3), x, k)
		}
		VMAXPD(zero, k, k) // lanes below 0 from 0 (a NaN lane is inactive)
		VADDPD(cf(1), k, k)
		t.sel(active, k, numF, k)
		// While k > 1 and (k−1)·step > y: k−−.
		down := fn + "_down"
		Label(down)
		km1, p := t.vec(), t.vec()
		VSUBPD(cf(1), k, km1)
		VMULPD(step, km1, p)
		m := t.fcmp(gtOQ, cf(1), k)
		t.andMask(t.fcmp(gtOQ, y, p), m)
		t.andMask(active, m)
		t.jumpIfNoLane(m, fn+"_up")
		t.sel(m, km1, k, k)
		JMP(LabelRef(down))
		// While k < num and k·step ≤ y: k++.
		Label(fn + "_up")
		kp1, q := t.vec(), t.vec()
		VMULPD(step, k, q)
		m2 := t.fcmp(ltOQ, numF, k)
		t.andMask(t.fcmp(leOQ, y, q), m2)
		t.andMask(active, m2)
		t.jumpIfNoLane(m2, fn+"_store")
		VADDPD(cf(1), k, kp1)
		t.sel(m2, kp1, k, k)
		JMP(LabelRef(fn + "_up"))
		Label(fn + "_store")
		if t.zmm() {
			VCVTTPD2QQ(k, k)
			VMOVDQU64(k, Mem{Base: ptr["g"]})
		} else {
			h := XMM()
			VCVTTPD2DQY(k, h)
			out := t.vec()
			VPMOVSXDQ(h, out)
			VMOVDQU(out, Mem{Base: ptr["g"]})
		}
		t.advance(ptr, []string{"g", "ys"})
	})
	VZEROUPPER()
	RET()
}
