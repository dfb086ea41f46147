package main

import (
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The constants of asm/cubic.go's SolveCubicsGeneric.
const (
	solveHalleySteps = 2
	solveTol         = 1e-16
	solveMaxSlope    = 0x1p511
)

func genCubic() {
	for _, t := range []tier{avx512, avx2} {
		solveCubics(t)
	}
}

// solveCubics emits solveCubics+tier, SolveCubicsGeneric one register of
// targets at a time: every target's steps in registers from its load to
// its store, the targets of consecutive registers independent (the core
// overlaps them). Comparisons are ordered (false on NaN) as Go's; the
// clamps are MAXPD/MINPD with the bound as the first source, which returns
// the second (the iterate) when the two are unordered, as Go's
// `if 0 > dx` and `if h < dx` keep a NaN.
func solveCubics(t tier) {
	fn := "solveCubics" + t.name
	TEXT(fn, NOSPLIT, "func(t, a1, a2, a3, u, h, dy, x0, x1 []float64)")
	alignConsts()
	Pragma("noescape")
	Doc(fn + " computes SolveCubicsGeneric (" + t.name + ").")
	names := []string{"t", "a1", "a2", "a3", "u", "h", "dy", "x0", "x1"}
	ptr := map[string]reg.Register{}
	for _, s := range names {
		ptr[s] = Load(Param(s).Base(), GP64())
	}
	n := Load(Param("t").Len(), GP64())
	if t.zmm() {
		SHRQ(U8(3), n)
	} else {
		SHRQ(U8(2), n)
	}
	zero := t.vec()
	t.zero(zero)
	const (
		gtOQ = 0x1e // >, ordered, quiet
		ltOQ = 0x11 // <
		leOQ = 0x12 // <=
		geOQ = 0x1d // >=
	)
	loopN(fn+"_loop", n, func() {
		mem := func(s string) Mem { return Mem{Base: ptr[s]} }
		a1, a2, a3, u, h := t.vec(), t.vec(), t.vec(), t.vec(), t.vec()
		VMOVUPD(mem("a1"), a1)
		VMOVUPD(mem("a2"), a2)
		VMOVUPD(mem("a3"), a3)
		VMOVUPD(mem("u"), u)
		VMOVUPD(mem("h"), h)
		b2, b3 := t.vec(), t.vec()
		VMULPD(cf(2), a2, b2)
		VMULPD(cf(3), a3, b3)
		dx := t.vec()
		VMULPD(u, h, dx)
		VDIVPD(mem("dy"), dx, dx) // (h*u) / dy
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
		VADDPD(mem("x0"), dx, res) // x0 + dx
		x1 := u
		VMOVUPD(mem("x1"), x1)
		VMINPD(res, x1, res) // x1 < t ? x1 : t
		if t.zmm() {
			ok, k := K(), K()
			VCMPPD(U8(gtOQ), zero, d, ok)
			VCMPPD(U8(ltOQ), cf(solveMaxSlope), d, k)
			KANDB(k, ok, ok)
			VCMPPD(U8(leOQ), tol, m, k)
			KANDB(k, ok, ok)
			VCMPPD(U8(geOQ), zero, dx, k)
			KANDB(k, ok, ok)
			VCMPPD(U8(leOQ), h, dx, k)
			KANDB(k, ok, ok)
			out := a1
			VMOVUPD(c64(math.Float64bits(math.NaN())), out)
			VBLENDMPD(res, out, ok, out) // ok ? t : NaN
			VMOVUPD(out, mem("t"))
		} else {
			ok, k := a1, a2
			VCMPPD(U8(gtOQ), zero, d, ok)
			VCMPPD(U8(ltOQ), cf(solveMaxSlope), d, k)
			VANDPD(k, ok, ok)
			VCMPPD(U8(leOQ), tol, m, k)
			VANDPD(k, ok, ok)
			VCMPPD(U8(geOQ), zero, dx, k)
			VANDPD(k, ok, ok)
			VCMPPD(U8(leOQ), h, dx, k)
			VANDPD(k, ok, ok)
			out := h
			VMOVUPD(c64(math.Float64bits(math.NaN())), out)
			VBLENDVPD(ok, res, out, out) // ok ? t : NaN
			VMOVUPD(out, mem("t"))
		}
		for _, s := range names {
			ADDQ(U8(t.bytes()), ptr[s])
		}
	})
	VZEROUPPER()
	RET()
}
