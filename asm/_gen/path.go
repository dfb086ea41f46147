package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The rows of a chain's record (asm/path.go).
const (
	pathRecord = 9
	recM0      = 0
	recM1      = 1
	recC00     = 2
	recC01     = 3
	recC11     = 4
	recE0      = 5
	recE1      = 6
	recSeg     = 7
	recW       = 8
	laneRow    = 64 // a row of 8 lanes
)

func genPath() {
	for _, t := range []tier{avx512, avx2} {
		pathMoments(t)
		pathProject(t)
		pathEta(t)
		scanSums(t)
	}
}

// rec returns the address of row r of the record at base, part o.
func recAt(base reg.Register, r, o int) Mem {
	return Mem{Base: base, Disp: r*laneRow + o}
}

// broadcast returns the float64 parameter name in every lane.
func (t tier) broadcast(name string) reg.VecVirtual {
	x := Load(Param(name), XMM())
	v := t.vec()
	VBROADCASTSD(x, v)
	return v
}

// pathMoments emits pathMoments+tier, PathMomentsGeneric a register of
// lanes of one chain at a time (AVX2: the row's two halves in two passes
// over the chains).
func pathMoments(t tier) {
	fn := t.header("pathMoments", "func(rec, sum0, sum1, shift0, shift1, sq00, sq01, sq11, t, knots []float64, numKnots int, inv, inv1 float64)", "PathMomentsGeneric")
	for h, o := range t.halves() {
		names := []string{"rec", "sum0", "sum1", "shift0", "shift1", "sq00", "sq01", "sq11", "t", "knots"}
		ptr := map[string]reg.Register{}
		for _, s := range names {
			ptr[s] = Load(Param(s).Base(), GP64())
		}
		n := Load(Param("t").Len(), GP64())
		SHRQ(U8(3), n) // chains: rows of 8 lanes
		inv, inv1 := t.broadcast("inv"), t.broadcast("inv1")
		kq := Load(Param("numKnots"), GP64())
		kf := t.vec() // K as a float64 in every lane
		x := XMM()
		CVTSQ2SD(kq, x)
		VBROADCASTSD(x, kf)
		loopN(fmt.Sprintf("%s_loop%d", fn, h), n, func() {
			m := func(s string) Mem { return Mem{Base: ptr[s], Disp: o} }
			// The means and covariances.
			s0, s1, f0, f1 := t.vec(), t.vec(), t.vec(), t.vec()
			VMOVUPD(m("sum0"), s0)
			VMOVUPD(m("sum1"), s1)
			VMULPD(inv, s0, f0)
			VMULPD(inv, s1, f1)
			v := t.vec()
			VADDPD(m("shift0"), f0, v) // shift0 + f0
			VMOVUPD(v, recAt(ptr["rec"], recM0, o))
			VADDPD(m("shift1"), f1, v)
			VMOVUPD(v, recAt(ptr["rec"], recM1, o))
			cov := func(sq string, a, b reg.VecVirtual, row int) {
				p, q := t.vec(), t.vec()
				VMULPD(b, a, p) // a*b
				VMOVUPD(m(sq), q)
				VSUBPD(p, q, q) // sq - a*b
				VMULPD(inv1, q, q)
				VMOVUPD(q, recAt(ptr["rec"], row, o))
			}
			cov("sq00", s0, f0, recC00)
			cov("sq01", s0, f1, recC01)
			cov("sq11", s1, f1, recC11)
			// η, the segment and its weight.
			tt := t.vec()
			VMOVUPD(m("t"), tt)
			t.splineEta(fmt.Sprintf("%s_knots%d", fn, h), ptr["knots"], o, tt, kf, kq, func(row int, v reg.VecVirtual) {
				VMOVUPD(v, recAt(ptr["rec"], row, o))
			}, true)
			for _, s := range names {
				if s == "rec" {
					ADDQ(U32(pathRecord*laneRow), ptr[s])
				} else if s != "knots" {
					ADDQ(U8(laneRow), ptr[s])
				}
			}
		})
	}
	VZEROUPPER()
	RET()
}

// pathProject emits pathProject+tier, PathProjectGeneric a register of
// lanes at a time (AVX2: the two halves of the rows in two passes): chain
// 0, the interior chains, the last chain, each chain's terms added to the
// knots of its segment by a pass over the knots 1 … K that adds only in
// the lanes whose segment it is.
func pathProject(t tier) {
	fn := t.header("pathProject", "func(acc, rec []float64, chains, numKnots int)", "PathProjectGeneric")
	const R = pathRecord * laneRow
	for h, o := range t.halves() {
		acc := Load(Param("acc").Base(), GP64())
		rec := Load(Param("rec").Base(), GP64())
		zero := t.vec()
		t.zero(zero)
		// diff returns D of row r at the chain at rec: 0 + (x_n - x_{n-1})
		// and, with the next chain, + (x_n - x_{n+1}) (or 0 + (x_n -
		// x_{n+1}) for chain 0).
		diff := func(row int, prev, next bool) reg.VecVirtual {
			cur, d := t.vec(), t.vec()
			VMOVUPD(recAt(rec, row, o), cur)
			if prev {
				VSUBPD(recAt(rec, row-pathRecord, o), cur, d)
				VADDPD(d, zero, d) // 0 + ·
			}
			if next {
				x := t.vec()
				VSUBPD(recAt(rec, row+pathRecord, o), cur, x)
				if prev {
					VADDPD(x, d, d)
				} else {
					VADDPD(x, zero, d)
				}
			}
			return d
		}
		chain := func(prev, next bool, label string) {
			z0, z1 := diff(recE0, prev, next), diff(recE1, prev, next)
			l0, l1 := diff(recM0, prev, next), diff(recM1, prev, next)
			// a0 = l0 + (c00·z0 + c01·z1), a1 = l1 + (c01·z0 + c11·z1).
			p, q := t.vec(), t.vec()
			VMULPD(recAt(rec, recC00, o), z0, p)
			VMULPD(recAt(rec, recC01, o), z1, q)
			VADDPD(q, p, p)
			VADDPD(p, l0, l0)
			VMULPD(recAt(rec, recC01, o), z0, p)
			VMULPD(recAt(rec, recC11, o), z1, q)
			VADDPD(q, p, p)
			VADDPD(p, l1, l1)
			a0, a1 := l0, l1
			seg, w, omw := t.vec(), t.vec(), t.vec()
			VMOVUPD(recAt(rec, recSeg, o), seg)
			VMOVUPD(recAt(rec, recW, o), w)
			VMOVUPD(cf(1), omw)
			VSUBPD(w, omw, omw) // 1 - w
			u0, u1 := t.vec(), t.vec()
			VMULPD(a0, omw, u0)
			VMULPD(a1, omw, u1)
			VMULPD(a0, w, a0)
			VMULPD(a1, w, a1)
			terms := []struct {
				v   reg.VecVirtual
				off int
			}{{u0, 0}, {u1, laneRow}, {a0, 2 * laneRow}, {a1, 3 * laneRow}}
			qf := t.vec()
			VMOVUPD(cf(1), qf)
			p2 := GP64()
			MOVQ(acc, p2)
			cnt := Load(Param("numKnots"), GP64())
			loopN(label, cnt, func() {
				mask := t.cmp(cmpEQ, qf, seg) // the lanes whose segment is q
				for _, term := range terms {
					old, sum := t.vec(), t.vec()
					a := Mem{Base: p2, Disp: term.off + o}
					VMOVUPD(a, old)
					VADDPD(term.v, old, sum) // φ += term
					t.pick(mask, sum, old, old)
					VMOVUPD(old, a)
				}
				VADDPD(cf(1), qf, qf)
				ADDQ(U8(2*laneRow), p2)
			})
		}
		chain(false, true, fmt.Sprintf("%s_first%d", fn, h))
		ADDQ(U32(R), rec)
		n := Load(Param("chains"), GP64())
		SUBQ(U8(2), n)
		loopN(fmt.Sprintf("%s_loop%d", fn, h), n, func() {
			chain(true, true, fmt.Sprintf("%s_inner%d", fn, h))
			ADDQ(U32(R), rec)
		})
		chain(true, false, fmt.Sprintf("%s_last%d", fn, h))
	}
	VZEROUPPER()
	RET()
}

// splineEta computes η(t) of each lane's spline at the schedule points tt
// (PathMomentsGeneric's second part): the segment k, kept in [1, K] in
// every lane (the knots are at knots + o, lane j of knot φ_k's component
// i in row 2k+i), its weight w,
// η = (1-w)·φ_{k-1} + w·φ_k, then the ends' values where t ≥ 1 or t ≤ 0.
// It passes η0, η1 and, with segs, k and w to store with their record
// rows.
func (t tier) splineEta(label string, knots reg.Register, o int, tt, kf reg.VecVirtual, kq reg.Register, store func(row int, v reg.VecVirtual), segs bool) {
	hi := t.cmp(cmpGE, cf(1), tt) // t >= 1
	lo := t.cmp(cmpLE, cf(0), tt) // t <= 0
	xk := t.vec()
	VMULPD(kf, tt, xk) // x = t·K
	k := t.vec()
	if t.zmm() {
		idx := t.vec()
		VCVTTPD2QQ(xk, idx)
		VPADDQ(c64(1), idx, idx) // int(x) + 1
		kv := t.vec()
		VPBROADCASTQ(kq, kv)
		VPMINSQ(kv, idx, idx)
		VPMAXSQ(c64(1), idx, idx)
		VCVTQQ2PD(idx, k)
	} else {
		d := XMM()
		VCVTTPD2DQY(xk, d)
		VPADDD(c64(0x0000000100000001), d, d) // int32 lanes of 1
		kd := XMM()
		MOVQ(kq, kd)
		VPBROADCASTD(kd, kd)
		VPMINSD(kd, d, d)
		VPMAXSD(c64(0x0000000100000001), d, d)
		VCVTDQ2PD(d, k)
	}
	w := t.vec()
	VSUBPD(cf(1), k, w) // k-1, exact
	VSUBPD(w, xk, w)    // x - (k-1)
	// The knots φ_{k-1} and φ_k of each lane's segment, by a pass over
	// the segments q = 1 … K that keeps row q's knots in the lanes whose
	// k is q (exactly one q, k being a whole number in [1, K]): four blends
	// a segment, where a gather of each knot took longer.
	a0, a1, b0, b1 := t.vec(), t.vec(), t.vec(), t.vec()
	for _, v := range []reg.VecVirtual{a0, a1, b0, b1} {
		t.zero(v)
	}
	qf := t.vec()
	VMOVUPD(cf(1), qf)
	p := GP64()
	MOVQ(knots, p)
	cnt := GP64()
	MOVQ(kq, cnt)
	loopN(label, cnt, func() {
		rows := []reg.VecVirtual{a0, a1, b0, b1}
		if t.zmm() {
			m := K()
			VCMPPD(U8(cmpEQ), qf, k, m)
			for r, v := range rows {
				VBLENDMPD(Mem{Base: p, Disp: o + r*laneRow}, v, m, v)
			}
		} else {
			m := t.vec()
			VCMPPD(U8(cmpEQ), qf, k, m)
			for r, v := range rows {
				VBLENDVPD(m, Mem{Base: p, Disp: o + r*laneRow}, v, v)
			}
		}
		VADDPD(cf(1), qf, qf)
		ADDQ(U8(2*laneRow), p)
	})
	omw := t.vec()
	VMOVUPD(cf(1), omw)
	VSUBPD(w, omw, omw) // 1 - w
	eta := func(a, b reg.VecVirtual, row int, atHi, atLo float64) {
		VMULPD(omw, a, a)
		VMULPD(w, b, b)
		VADDPD(b, a, a) // (1-w)·a + w·b
		t.pick(hi, cf(atHi), a, a)
		t.pick(lo, cf(atLo), a, a)
		store(row, a)
	}
	eta(a0, b0, recE0, 0, 1)
	eta(a1, b1, recE1, 1, 0)
	if !segs {
		return
	}
	t.pick(hi, kf, k, k)
	t.pick(lo, cf(1), k, k)
	store(recSeg, k)
	t.pick(hi, cf(1), w, w)
	t.pick(lo, cf(0), w, w)
	store(recW, w)
}

// pathEta emits pathEta+tier, PathEtaGeneric a register of lanes of one
// chain at a time (AVX2: the rows' two halves in two passes).
func pathEta(t tier) {
	fn := t.header("pathEta", "func(eta0, eta1, t, knots []float64, numKnots int)", "PathEtaGeneric")
	for h, o := range t.halves() {
		names := []string{"eta0", "eta1", "t", "knots"}
		ptr := map[string]reg.Register{}
		for _, s := range names {
			ptr[s] = Load(Param(s).Base(), GP64())
		}
		n := Load(Param("t").Len(), GP64())
		SHRQ(U8(3), n) // chains: rows of 8 lanes
		kq := Load(Param("numKnots"), GP64())
		kf := t.vec()
		x := XMM()
		CVTSQ2SD(kq, x)
		VBROADCASTSD(x, kf)
		loopN(fmt.Sprintf("%s_loop%d", fn, h), n, func() {
			tt := t.vec()
			VMOVUPD(Mem{Base: ptr["t"], Disp: o}, tt)
			t.splineEta(fmt.Sprintf("%s_knots%d", fn, h), ptr["knots"], o, tt, kf, kq, func(row int, v reg.VecVirtual) {
				dst := ptr["eta0"]
				if row == recE1 {
					dst = ptr["eta1"]
				}
				VMOVUPD(v, Mem{Base: dst, Disp: o})
			}, false)
			for _, s := range []string{"eta0", "eta1", "t"} {
				ADDQ(U8(laneRow), ptr[s])
			}
		})
	}
	VZEROUPPER()
	RET()
}

// scanSums emits scanSums+tier, ScanSumsGeneric a register of lanes at a
// time (AVX2: the rows' two halves in two passes), the sums in registers.
func scanSums(t tier) {
	fn := t.header("scanSums", "func(out, rej, xrej, eta0, eta1, shift0, sum0, shift1, sum1 []float64, inv float64)", "ScanSumsGeneric")
	for h, o := range t.halves() {
		inv := t.broadcast("inv")
		// The pairs: r, Λ, the non-asymptotic barrier and whether some r ≥ 1.
		rej := Load(Param("rej").Base(), GP64())
		xrej := Load(Param("xrej").Base(), GP64())
		n := Load(Param("xrej").Len(), GP64())
		SHRQ(U8(3), n) // pairs
		barrier, nab, full := t.vec(), t.vec(), t.vec()
		t.zero(barrier)
		t.zero(nab)
		t.zero(full)
		loopN(fmt.Sprintf("%s_pairs%d", fn, h), n, func() {
			r := t.vec()
			VMULPD(Mem{Base: xrej, Disp: o}, inv, r) // xrej·inv
			VMOVUPD(r, Mem{Base: rej, Disp: o})
			VADDPD(r, barrier, barrier)
			t.or(t.cmp(cmpGE, cf(1), r), full, full)
			q := t.vec()
			VMOVUPD(cf(1), q)
			VSUBPD(r, q, q) // 1 - r
			VDIVPD(q, r, q) // r/(1-r)
			VADDPD(q, nab, nab)
			ADDQ(U8(laneRow), xrej)
			ADDQ(U8(laneRow), rej)
		})
		t.pick(full, cf(math.Inf(1)), nab, nab)
		out := Load(Param("out").Base(), GP64())
		VMOVUPD(barrier, Mem{Base: out, Disp: o})
		VMOVUPD(nab, Mem{Base: out, Disp: laneRow + o})
		// The SKL estimate over the chains.
		names := []string{"eta0", "eta1", "shift0", "sum0", "shift1", "sum1"}
		ptr := map[string]reg.Register{}
		for _, s := range names {
			ptr[s] = Load(Param(s).Base(), GP64())
		}
		mean := func(shift, sum string) reg.VecVirtual {
			m := t.vec()
			VMULPD(Mem{Base: ptr[sum], Disp: o}, inv, m) // sum·inv
			VADDPD(Mem{Base: ptr[shift], Disp: o}, m, m) // shift + ·
			return m
		}
		m0, m1 := mean("shift0", "sum0"), mean("shift1", "sum1")
		e0, e1 := t.vec(), t.vec()
		VMOVUPD(Mem{Base: ptr["eta0"], Disp: o}, e0)
		VMOVUPD(Mem{Base: ptr["eta1"], Disp: o}, e1)
		skl := t.vec()
		t.zero(skl)
		m := Load(Param("xrej").Len(), GP64())
		SHRQ(U8(3), m) // pairs: chains 1 … P
		loopN(fmt.Sprintf("%s_chains%d", fn, h), m, func() {
			for _, s := range names {
				ADDQ(U8(laneRow), ptr[s])
			}
			p0, p1 := mean("shift0", "sum0"), mean("shift1", "sum1")
			f0, f1 := t.vec(), t.vec()
			VMOVUPD(Mem{Base: ptr["eta0"], Disp: o}, f0)
			VMOVUPD(Mem{Base: ptr["eta1"], Disp: o}, f1)
			d, x := t.vec(), t.vec()
			VSUBPD(e0, f0, d) // f0 - e0
			VSUBPD(m0, p0, x) // p0 - m0
			VMULPD(x, d, d)
			y, z := t.vec(), t.vec()
			VSUBPD(e1, f1, y)
			VSUBPD(m1, p1, z)
			VMULPD(z, y, y)
			VADDPD(y, d, d)
			VADDPD(d, skl, skl)
			VMOVAPD(p0, m0)
			VMOVAPD(p1, m1)
			VMOVAPD(f0, e0)
			VMOVAPD(f1, e1)
		})
		VMOVUPD(skl, Mem{Base: out, Disp: 2*laneRow + o})
		_ = h
	}
	VZEROUPPER()
	RET()
}
