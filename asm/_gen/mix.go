package main

import (
	"math"
	"math/big"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The mixture models' kernels (asm/mix.go has their Go twins, whose doc
// comments give the operations). Every product is rounded before it is
// added, as in the twins: no FMA here. Rows are 64 bytes (8 lanes); the
// AVX2 kernels walk the two 32-byte halves of a row one after the other,
// except the MH pass, whose stopping rule looks at all 8 lanes of an
// observation at once.

// The constants of asm.MixExp (asm/mixexp.go).
const (
	mixExpBits    = 7
	mixExpN       = 1 << mixExpBits
	mixExpInvLn2N = 0x1.71547652b82fep0 * mixExpN
	mixExpLn2NHi  = 0x1.62e42fefa0000p-8
	mixExpLn2NLo  = 0x1.cf79abc9e3b3ap-47
	mixExpShifter = 0x1.8p52
	mixExpMin     = -700.0
)

// mixExpTable is asm.MixExpTable: the pairs (tail_j, bits_j - j·2^45) of
// 2^(j/128), computed from 2^(1/128) to 256 bits.
func mixExpTable() [2 * mixExpN]uint64 {
	const prec = 256
	root := new(big.Float).SetPrec(prec).SetInt64(2)
	for i := 0; i < mixExpBits; i++ {
		root.Sqrt(root)
	}
	var tab [2 * mixExpN]uint64
	p := new(big.Float).SetPrec(prec).SetInt64(1)
	for j := 0; j < mixExpN; j++ {
		h, _ := p.Float64()
		tail := new(big.Float).SetPrec(prec).Sub(p, new(big.Float).SetPrec(prec).SetFloat64(h))
		tail.Quo(tail, new(big.Float).SetPrec(prec).SetFloat64(h))
		t, _ := tail.Float64()
		tab[2*j] = math.Float64bits(t)
		tab[2*j+1] = math.Float64bits(h) - uint64(j)<<(52-mixExpBits)
		p.Mul(p, root)
	}
	return tab
}

func genMix() {
	for _, t := range []tier{avx512, avx2} {
		mixTerms2(t)
		mixProp2(t)
		mixLabels2(t)
		mixTermsK(t)
		mixPropK(t)
		mixLabelsK(t)
		mixGammaTry(t)
		mixLog(t)
	}
	GLOBL("mixexptab", RODATA|NOPTR)
	for i, b := range mixExpTable() {
		DATA(8*i, U64(b))
	}
}

// halves returns the byte offsets of the register-wide parts of a row.
func (t tier) halves() []int {
	if t.zmm() {
		return []int{0}
	}
	return []int{0, 32}
}

func (t tier) v() reg.VecVirtual { return t.vec() }

// ones returns a register of all-ones bits.
func (t tier) ones() reg.VecVirtual {
	v := t.vec()
	VMOVUPD(c64(math.MaxUint64), v)
	return v
}

// cmp returns a - pred - b as a register of all-ones (true) and zero
// (false) lanes: VCMPPD's predicate imm on a (a register) and b.
func (t tier) cmp(imm int, b Op, a reg.VecVirtual) reg.VecVirtual {
	dst := t.vec()
	if t.zmm() {
		k := K()
		VCMPPD(U8(imm), b, a, k)
		VPMOVM2Q(k, dst)
	} else {
		VCMPPD(U8(imm), b, a, dst)
	}
	return dst
}

// Predicates of VCMPPD.
const (
	cmpEQ    = 0x00 // EQ_OQ
	cmpUnord = 0x03 // UNORD_Q
	cmpLE    = 0x12 // LE_OQ
	cmpGE    = 0x1d // GE_OQ
)

func (t tier) and1(a, b Op, dst reg.VecVirtual) { t.and(a, b, dst) }

// gather returns the float64 at tab + 8·idx + disp of each lane.
func (t tier) gather(tab reg.Register, idx reg.VecVirtual, disp int) reg.VecVirtual {
	dst := t.vec()
	t.zero(dst)
	addr := Mem{Base: tab, Index: idx, Scale: 8, Disp: disp}
	if t.zmm() {
		g := GP32()
		MOVL(U32(0xff), g)
		k := K()
		KMOVB(g, k)
		VGATHERQPD(addr, k, dst)
	} else {
		VGATHERQPD(t.ones(), addr, dst)
	}
	return dst
}

// lookup returns the words tail_j and bits_j of the exp table for the
// index j = bits(z) % 128 of each lane. AVX-512 gathers them; AVX2 loads
// each lane's pair with ordinary loads, which on the AMD Zen 3 this was
// measured on take a quarter of the time of VGATHERQPD (the gathers were
// half of the galaxy's term kernel).
func (t tier) lookup(tab reg.Register, z reg.VecVirtual) (tail, bits reg.VecVirtual) {
	idx := t.vec()
	t.and(c64(mixExpN-1), z, idx)
	if t.zmm() {
		VPSLLQ(U8(1), idx, idx) // 2j: the pair's first word
		return t.gather(tab, idx, 0), t.gather(tab, idx, 8)
	}
	VPSLLQ(U8(4), idx, idx) // 16j: the pair's offset
	lo, hi := idx.(reg.VecVirtual).AsX(), XMM()
	VEXTRACTI128(U8(1), idx, hi)
	r := [4]reg.GPVirtual{GP64(), GP64(), GP64(), GP64()}
	VMOVQ(lo, r[0])
	VPEXTRQ(U8(1), lo, r[1])
	VMOVQ(hi, r[2])
	VPEXTRQ(U8(1), hi, r[3])
	a, b := t.vec(), t.vec()
	VMOVUPD(Mem{Base: tab, Index: r[0], Scale: 1}, a.AsX())
	VINSERTF128(U8(1), Mem{Base: tab, Index: r[2], Scale: 1}, a, a) // [t0 b0 | t2 b2]
	VMOVUPD(Mem{Base: tab, Index: r[1], Scale: 1}, b.AsX())
	VINSERTF128(U8(1), Mem{Base: tab, Index: r[3], Scale: 1}, b, b) // [t1 b1 | t3 b3]
	tail, bits = t.vec(), t.vec()
	VUNPCKLPD(b, a, tail) // [t0 t1 | t2 t3]
	VUNPCKHPD(b, a, bits) // [b0 b1 | b2 b3]
	return tail, bits
}

// mixExp returns asm.MixExp(x) in every lane (x is kept): the operations of
// its doc comment, then the flush of x < MixExpMin and NaN to 0.
//
// ok, when not nil, is the mask of the lanes with x >= MixExpMin, which the
// caller has already computed.
func (t tier) mixExp(x reg.VecVirtual, tab reg.Register, ok reg.VecVirtual) reg.VecVirtual {
	z := t.vec()
	VMULPD(cf(mixExpInvLn2N), x, z)
	VADDPD(cf(mixExpShifter), z, z) // z = x*(128/ln2) + shifter; k in its low bits
	kd := t.vec()
	VSUBPD(cf(mixExpShifter), z, kd)
	tmp := t.vec()
	VMULPD(cf(mixExpLn2NHi), kd, tmp)
	r := t.vec()
	VSUBPD(tmp, x, r) // x - kd*Hi
	VMULPD(cf(mixExpLn2NLo), kd, kd)
	VSUBPD(kd, r, r) // (x - kd*Hi) - kd*Lo
	tail, scale := t.lookup(tab, z)
	VPSLLQ(U8(52-mixExpBits), z, z)
	VPADDQ(z, scale, scale) // bits_j + ki<<45
	r2 := t.vec()
	VMULPD(r, r, r2)
	a := t.vec()
	VMULPD(cf(1.0/6), r, a)
	VADDPD(cf(0.5), a, a)
	VMULPD(r2, a, a) // r2*(0.5 + r/6)
	p := tail
	VADDPD(r, p, p) // tail + r
	VADDPD(a, p, p)
	b := t.vec()
	VMULPD(cf(1.0/120), r, b)
	VADDPD(cf(1.0/24), b, b)
	VMULPD(r2, r2, r2)
	VMULPD(r2, b, b) // r2*r2*(1/24 + r/120)
	VADDPD(b, p, p)
	VMULPD(scale, p, p)
	VADDPD(scale, p, p) // scale + scale*p
	if ok == nil {
		ok = t.cmp(cmpGE, cf(mixExpMin), x)
	}
	t.and(ok, p, p)
	return p
}

// jumpIfNone jumps to label when no lane of the mask m is set.
func (t tier) jumpIfNone(m reg.VecVirtual, label string) {
	if t.zmm() {
		k := K()
		VPTESTMQ(m, m, k)
		KORTESTB(k, k)
	} else {
		VPTEST(m, m)
	}
	JE(LabelRef(label))
}

// tabAddr loads the address of the exp table.
func tabAddr() reg.GPVirtual {
	r := GP64()
	LEAQ(NewDataAddr(NewStaticSymbol("mixexptab"), 0), r)
	return r
}

// storeLabels writes the whole-number labels of lab (float64, below 256)
// as bytes to m.
func (t tier) storeLabels(lab reg.VecVirtual, m Mem) {
	if t.zmm() {
		q := t.vec()
		VCVTTPD2QQ(lab, q)
		VPMOVQB(q, m)
		return
	}
	d := XMM()
	VCVTTPD2DQY(lab, d)
	VPACKUSDW(d, d, d)
	VPACKUSWB(d, d, d)
	VMOVD(d, m)
}

func mixTerms2(t tier) {
	fn := "mixTerms2" + t.name
	TEXT(fn, NOSPLIT, "func(e, inv, r, y, coef []float64)")
	alignConsts()
	Pragma("noescape")
	Doc(fn + " computes MixTerms2Generic (" + t.name + ").")
	tab := tabAddr()
	for h, o := range t.halves() {
		e := Load(Param("e").Base(), GP64())
		inv := Load(Param("inv").Base(), GP64())
		r := Load(Param("r").Base(), GP64())
		y := Load(Param("y").Base(), GP64())
		coef := Load(Param("coef").Base(), GP64())
		n := Load(Param("y").Len(), GP64())
		r0 := t.load(1, Mem{Base: r, Disp: o})[0].(reg.VecVirtual)
		r1 := t.load(1, Mem{Base: r, Disp: 64 + o})[0].(reg.VecVirtual)
		c700 := t.load(1, cf(700))[0].(reg.VecVirtual)
		loopN(fn+"_loop"+string(rune('0'+h)), n, func() {
			d := t.vec()
			VBROADCASTSD(Mem{Base: y}, d)
			VSUBPD(Mem{Base: coef, Disp: 128 + o}, d, d) // y - mid
			VMULPD(Mem{Base: coef, Disp: 64 + o}, d, d)  // b*(y - mid)
			VADDPD(Mem{Base: coef, Disp: o}, d, d)       // a + ·
			VMINPD(d, c700, d)                           // 700 < d ? 700 : d (NaN stays)
			x := t.mixExp(d, tab, nil)
			VMOVUPD(x, Mem{Base: e, Disp: o})
			v := t.vec()
			VADDPD(cf(1), x, v)
			one := t.load(1, cf(1))[0].(reg.VecVirtual)
			VDIVPD(v, one, v) // 1/(1 + x)
			VMOVUPD(v, Mem{Base: inv, Disp: o})
			VADDPD(v, r0, r0)
			VMULPD(v, x, x)
			VADDPD(x, r1, r1)
			ADDQ(U8(8), y)
			ADDQ(U8(64), e)
			ADDQ(U8(64), inv)
		})
		VMOVUPD(r0, Mem{Base: r, Disp: o})
		VMOVUPD(r1, Mem{Base: r, Disp: 64 + o})
	}
	VZEROUPPER()
	RET()
}

// inRange returns, in the sign bit of each lane, asm.MixRatioInRange(ratio,
// q): with d = (bits>>52) - lo, d is below w as an unsigned number exactly
// when d - w is negative and d is not (|d| < 2^13 here), i.e. when the
// sign bit of ^d & (d - w) is set.
func (t tier) inRange(ratio, q reg.VecVirtual) reg.VecVirtual {
	one := func(x reg.VecVirtual, lo, w uint64) reg.VecVirtual {
		d := t.vec()
		VPSRLQ(U8(52), x, d)
		VPSUBQ(c64(lo), d, d)
		dw := t.vec()
		VPSUBQ(c64(w), d, dw)
		if t.zmm() {
			VPANDNQ(dw, d, dw)
		} else {
			VPANDN(dw, d, dw)
		}
		return dw
	}
	a := one(ratio, 1023-332, 2*332)
	b := one(q, 1023-498, 2*498)
	t.and(a, b, a)
	return a
}

// allInRange jumps to stop unless the sign bit is set in every lane of
// every flag.
func (t tier) allInRange(flags []reg.VecVirtual, stop string) {
	f := flags[0]
	for _, g := range flags[1:] {
		t.and(g, f, f)
	}
	m := GP32()
	if t.zmm() {
		k := K()
		VPMOVQ2M(f, k)
		KMOVB(k, m)
		CMPL(m, U32(0xff))
	} else {
		VMOVMSKPD(f, m)
		CMPL(m, U32(0xf))
	}
	JNE(LabelRef(stop))
}

// propLoop emits the loop of the MH pass over observations n = from, …:
// part(o) computes, for the register-wide part at byte offset o of the
// rows of observation n, S'_n (t) and q = p·ratio, the flags of inRange;
// update(o, t, q) then adds to the running sums. It returns n at the
// first observation where a lane is out of range, else the count.
func propLoop(t tier, fn string, nd, from reg.Register,
	part func(o int) (tt, q, flag reg.VecVirtual), update func(o int, tt, q reg.VecVirtual), advance func()) {
	n := from
	Label(fn + "_loop")
	CMPQ(n, nd)
	JAE(LabelRef(fn + "_stop"))
	hs := t.halves()
	ts := make([]reg.VecVirtual, len(hs))
	qs := make([]reg.VecVirtual, len(hs))
	fs := make([]reg.VecVirtual, len(hs))
	for h, o := range hs {
		ts[h], qs[h], fs[h] = part(o)
	}
	t.allInRange(fs, fn+"_stop")
	for h, o := range hs {
		update(o, ts[h], qs[h])
	}
	advance()
	INCQ(n)
	JMP(LabelRef(fn + "_loop"))
	Label(fn + "_stop")
	Store(n, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

func mixProp2(t tier) {
	fn := "mixProp2" + t.name
	TEXT(fn, NOSPLIT, "func(acc, e, inv, a []float64, from int) int")
	alignConsts()
	Pragma("noescape")
	Doc(fn + " computes MixProp2Generic (" + t.name + ").")
	acc := Load(Param("acc").Base(), GP64())
	a := Load(Param("a").Base(), GP64())
	e := Load(Param("e").Base(), GP64())
	inv := Load(Param("inv").Base(), GP64())
	nd := Load(Param("inv").Len(), GP64())
	SHRQ(U8(3), nd)
	from := Load(Param("from"), GP64())
	off := GP64()
	MOVQ(from, off)
	SHLQ(U8(6), off)
	ADDQ(off, e)
	ADDQ(off, inv)
	propLoop(t, fn, nd, from, func(o int) (tt, q, flag reg.VecVirtual) {
		tt = t.vec()
		VMOVUPD(Mem{Base: e, Disp: o}, tt)
		VMULPD(Mem{Base: a, Disp: 64 + o}, tt, tt) // a1*e
		VADDPD(Mem{Base: a, Disp: o}, tt, tt)      // a0 + ·
		ratio := t.vec()
		VMULPD(Mem{Base: inv, Disp: o}, tt, ratio)
		q = t.vec()
		VMULPD(Mem{Base: acc, Disp: 128 + o}, ratio, q)
		return tt, q, t.inRange(ratio, q)
	}, func(o int, tt, q reg.VecVirtual) {
		v := t.load(1, cf(1))[0].(reg.VecVirtual)
		VDIVPD(tt, v, v) // 1/t
		x := t.vec()
		VMOVUPD(Mem{Base: e, Disp: o}, x)
		VMULPD(v, x, x)
		VADDPD(Mem{Base: acc, Disp: o}, v, v)
		VMOVUPD(v, Mem{Base: acc, Disp: o})
		VADDPD(Mem{Base: acc, Disp: 64 + o}, x, x)
		VMOVUPD(x, Mem{Base: acc, Disp: 64 + o})
		VMOVUPD(q, Mem{Base: acc, Disp: 128 + o})
	}, func() {
		ADDQ(U8(64), e)
		ADDQ(U8(64), inv)
	})
}

func mixLabels2(t tier) {
	fn := "mixLabels2" + t.name
	TEXT(fn, NOSPLIT, "func(z []uint8, acc, e, u, f, yc, yc2 []float64)")
	alignConsts()
	Pragma("noescape")
	Doc(fn + " computes MixLabels2Generic (" + t.name + ").")
	for h, o := range t.halves() {
		z := Load(Param("z").Base(), GP64())
		acc := Load(Param("acc").Base(), GP64())
		e := Load(Param("e").Base(), GP64())
		u := Load(Param("u").Base(), GP64())
		f := Load(Param("f").Base(), GP64())
		yc := Load(Param("yc").Base(), GP64())
		yc2 := Load(Param("yc2").Base(), GP64())
		n := Load(Param("yc").Len(), GP64())
		n1 := t.load(1, Mem{Base: acc, Disp: o})[0].(reg.VecVirtual)
		s1 := t.load(1, Mem{Base: acc, Disp: 64 + o})[0].(reg.VecVirtual)
		q1 := t.load(1, Mem{Base: acc, Disp: 128 + o})[0].(reg.VecVirtual)
		f0 := t.load(1, Mem{Base: f, Disp: o})[0].(reg.VecVirtual)
		loopN(fn+"_loop"+string(rune('0'+h)), n, func() {
			x := t.vec()
			VMOVUPD(Mem{Base: e, Disp: o}, x)
			VMULPD(Mem{Base: f, Disp: 64 + o}, x, x) // f1*e
			VADDPD(f0, x, x)                         // f0 + ·
			VMULPD(Mem{Base: u, Disp: o}, x, x)      // u*·
			l := t.cmp(cmpLE, x, f0)                 // f0 <= ·
			one := t.vec()
			t.and(cf(1), l, one)
			VADDPD(one, n1, n1)
			t.storeLabels(one, Mem{Base: z, Disp: o / 8})
			y := t.vec()
			VBROADCASTSD(Mem{Base: yc}, y)
			t.and(l, y, y)
			VADDPD(y, s1, s1)
			VBROADCASTSD(Mem{Base: yc2}, y)
			t.and(l, y, y)
			VADDPD(y, q1, q1)
			ADDQ(U8(8), z)
			ADDQ(U8(64), e)
			ADDQ(U8(64), u)
			ADDQ(U8(8), yc)
			ADDQ(U8(8), yc2)
		})
		VMOVUPD(n1, Mem{Base: acc, Disp: o})
		VMOVUPD(s1, Mem{Base: acc, Disp: 64 + o})
		VMOVUPD(q1, Mem{Base: acc, Disp: 128 + o})
	}
	VZEROUPPER()
	RET()
}

// rowLoop emits `for c := bytes(); c != 0; c -= 64 { body(); p += 64 for p
// in ptrs }`, then moves the pointers back by bytes(): bytes loads m·64 for
// m ≥ 1 rows into a new register (it is called twice, so that nothing
// stays live across the loop).
func rowLoop(name string, bytes func() reg.GPVirtual, ptrs []reg.Register, body func()) {
	cnt := bytes()
	Label(name)
	body()
	for _, p := range ptrs {
		ADDQ(U8(64), p)
	}
	SUBQ(U8(64), cnt)
	JNZ(LabelRef(name))
	back := bytes()
	for _, p := range ptrs {
		SUBQ(back, p)
	}
}

// rowBytes returns a function that loads len(param)·8, the bytes of its
// rows.
func rowBytes(param string) func() reg.GPVirtual {
	return func() reg.GPVirtual {
		r := GP64()
		Load(Param(param).Len(), r)
		SHLQ(U8(3), r)
		return r
	}
}

// mixTermsK walks the observations once, with both halves of a row (AVX2)
// in each pass, so that the out-of-order core has two independent chains
// (maximum, exponentials, sum, division) to overlap.
func mixTermsK(t tier) {
	fn := "mixTermsK" + t.name
	TEXT(fn, NOSPLIT, "func(e, inv, r, yc, cc, cb []float64)")
	alignConsts()
	Pragma("noescape")
	Doc(fn + " computes MixTermsKGeneric (" + t.name + ").")
	tab := tabAddr()
	e := Load(Param("e").Base(), GP64())
	inv := Load(Param("inv").Base(), GP64())
	r := Load(Param("r").Base(), GP64())
	yc := Load(Param("yc").Base(), GP64())
	cc := Load(Param("cc").Base(), GP64())
	cb := Load(Param("cb").Base(), GP64())
	m := rowBytes("cc")
	n := Load(Param("yc").Len(), GP64())
	hs := t.halves()
	loopN(fn+"_obs", n, func() {
		y := t.vec()
		VBROADCASTSD(Mem{Base: yc}, y)
		// l_i into e; their maximum, NaN if any is NaN.
		mx := make([]reg.VecVirtual, len(hs))
		nan := make([]reg.VecVirtual, len(hs))
		for h := range hs {
			mx[h] = t.load(1, cf(math.Inf(-1)))[0].(reg.VecVirtual)
			nan[h] = t.vec()
			t.zero(nan[h])
		}
		rowLoop(fn+"_max", m, []reg.Register{e, cc, cb}, func() {
			for h, o := range hs {
				l := t.vec()
				VMOVUPD(Mem{Base: cb, Disp: o}, l)
				VMULPD(y, l, l)
				VADDPD(Mem{Base: cc, Disp: o}, l, l)
				VMOVUPD(l, Mem{Base: e, Disp: o})
				VMAXPD(l, mx[h], mx[h]) // mx > l ? mx : l
				un := t.cmp(cmpUnord, l, l)
				t.or(un, nan[h], nan[h])
			}
		})
		s := make([]reg.VecVirtual, len(hs))
		for h := range hs {
			t.or(nan[h], mx[h], mx[h])
			s[h] = t.vec()
			t.zero(s[h])
		}
		// E_i = MixExp(l_i - mx) and their sum. A register whose
		// arguments all flush skips the exponential (its terms are 0, and
		// adding 0 to s changes nothing), and so does one whose arguments
		// are all flushed or exactly 0 (MixExp(0) = 1): in the galaxy's
		// sweeps most lanes have a single live component, whose argument
		// is 0, and the components kept for other lanes flush.
		rowLoop(fn+"_exp", m, []reg.Register{e}, func() {
			for h, o := range hs {
				name := fn + string(rune('0'+h))
				x := t.vec()
				VMOVUPD(Mem{Base: e, Disp: o}, x)
				VSUBPD(mx[h], x, x)
				ok := t.cmp(cmpGE, cf(mixExpMin), x)
				t.jumpIfNone(ok, name+"_flushed")
				z := t.cmp(cmpEQ, cf(0), x)
				other := t.vec()
				if t.zmm() {
					VPANDNQ(ok, z, other)
				} else {
					VPANDN(ok, z, other) // ok && x != 0
				}
				t.jumpIfNone(other, name+"_ones")
				x = t.mixExp(x, tab, ok)
				VMOVUPD(x, Mem{Base: e, Disp: o})
				VADDPD(x, s[h], s[h])
				JMP(LabelRef(name + "_next"))
				Label(name + "_ones")
				t.and(cf(1), z, x)
				VMOVUPD(x, Mem{Base: e, Disp: o})
				VADDPD(x, s[h], s[h])
				JMP(LabelRef(name + "_next"))
				Label(name + "_flushed")
				t.zero(x)
				VMOVUPD(x, Mem{Base: e, Disp: o})
				Label(name + "_next")
			}
		})
		v := make([]reg.VecVirtual, len(hs))
		for h, o := range hs {
			v[h] = t.load(1, cf(1))[0].(reg.VecVirtual)
			VDIVPD(s[h], v[h], v[h])
			VMOVUPD(v[h], Mem{Base: inv, Disp: o})
		}
		rowLoop(fn+"_sum", m, []reg.Register{e, r}, func() {
			for h, o := range hs {
				x := t.vec()
				VMULPD(Mem{Base: e, Disp: o}, v[h], x)
				VADDPD(Mem{Base: r, Disp: o}, x, x)
				VMOVUPD(x, Mem{Base: r, Disp: o})
			}
		})
		ADDQ(m(), e)
		ADDQ(U8(8), yc)
		ADDQ(U8(64), inv)
	})
	VZEROUPPER()
	RET()
}

func mixPropK(t tier) {
	fn := "mixPropK" + t.name
	TEXT(fn, NOSPLIT, "func(acc, e, inv, a []float64, from int) int")
	alignConsts()
	Pragma("noescape")
	Doc(fn + " computes MixPropKGeneric (" + t.name + ").")
	acc := Load(Param("acc").Base(), GP64())
	a := Load(Param("a").Base(), GP64())
	e := Load(Param("e").Base(), GP64())
	inv := Load(Param("inv").Base(), GP64())
	m := rowBytes("a")
	nd := Load(Param("inv").Len(), GP64())
	SHRQ(U8(3), nd)
	from := Load(Param("from"), GP64())
	off := m()
	IMULQ(from, off)
	ADDQ(off, e)
	MOVQ(from, off)
	SHLQ(U8(6), off)
	ADDQ(off, inv)
	pRow := m() // the row of p in acc
	ADDQ(acc, pRow)
	propLoop(t, fn, nd, from, func(o int) (tt, q, flag reg.VecVirtual) {
		tt = t.vec()
		t.zero(tt)
		name := fn + "_t" + string(rune('0'+o/32))
		rowLoop(name, m, []reg.Register{e, a}, func() {
			x := t.vec()
			VMOVUPD(Mem{Base: e, Disp: o}, x)
			VMULPD(Mem{Base: a, Disp: o}, x, x)
			VADDPD(x, tt, tt)
		})
		ratio := t.vec()
		VMULPD(Mem{Base: inv, Disp: o}, tt, ratio)
		q = t.vec()
		VMULPD(Mem{Base: pRow, Disp: o}, ratio, q)
		return tt, q, t.inRange(ratio, q)
	}, func(o int, tt, q reg.VecVirtual) {
		v := t.load(1, cf(1))[0].(reg.VecVirtual)
		VDIVPD(tt, v, v) // 1/t
		name := fn + "_r" + string(rune('0'+o/32))
		rowLoop(name, m, []reg.Register{e, acc}, func() {
			x := t.vec()
			VMULPD(Mem{Base: e, Disp: o}, v, x)
			VADDPD(Mem{Base: acc, Disp: o}, x, x)
			VMOVUPD(x, Mem{Base: acc, Disp: o})
		})
		VMOVUPD(q, Mem{Base: pRow, Disp: o})
	}, func() {
		ADDQ(m(), e)
		ADDQ(U8(64), inv)
	})
}

// mixLabelsK, like mixTermsK, has both halves of a row (AVX2) in each
// pass.
func mixLabelsK(t tier) {
	fn := "mixLabelsK" + t.name
	TEXT(fn, NOSPLIT, "func(z []uint8, acc, e, u, f, lv, tv, yc, yc2 []float64)")
	alignConsts()
	Pragma("noescape")
	Doc(fn + " computes MixLabelsKGeneric (" + t.name + ").")
	z := Load(Param("z").Base(), GP64())
	e := Load(Param("e").Base(), GP64())
	u := Load(Param("u").Base(), GP64())
	f := Load(Param("f").Base(), GP64())
	yc := Load(Param("yc").Base(), GP64())
	yc2 := Load(Param("yc2").Base(), GP64())
	m := rowBytes("f")
	n := Load(Param("yc").Len(), GP64())
	hs := t.halves()
	loopN(fn+"_obs", n, func() {
		s := make([]reg.VecVirtual, len(hs))
		for h := range hs {
			s[h] = t.vec()
			t.zero(s[h])
		}
		rowLoop(fn+"_sum", m, []reg.Register{e, f}, func() {
			for h, o := range hs {
				x := t.vec()
				VMOVUPD(Mem{Base: e, Disp: o}, x)
				VMULPD(Mem{Base: f, Disp: o}, x, x)
				VADDPD(x, s[h], s[h])
			}
		})
		c := make([]reg.VecVirtual, len(hs))
		l := make([]reg.VecVirtual, len(hs))
		step := Load(Param("lv").Base(), GP64())
		for h, o := range hs {
			VMULPD(Mem{Base: u, Disp: o}, s[h], s[h]) // t = u*S
			c[h] = t.vec()
			t.zero(c[h])
			l[h] = t.vec()
			VBROADCASTSD(Mem{Base: step}, l[h])
		}
		rowLoop(fn+"_cum", m, []reg.Register{e, f}, func() {
			ADDQ(U8(8), step)
			d := t.vec()
			VBROADCASTSD(Mem{Base: step}, d)
			for h, o := range hs {
				x := t.vec()
				VMOVUPD(Mem{Base: e, Disp: o}, x)
				VMULPD(Mem{Base: f, Disp: o}, x, x)
				VADDPD(x, c[h], c[h]) // cum_i
				le := t.cmp(cmpLE, s[h], c[h])
				t.and(d, le, le)
				VADDPD(le, l[h], l[h])
			}
		})
		for h, o := range hs {
			t.storeLabels(l[h], Mem{Base: z, Disp: o / 8})
		}
		y1 := t.vec()
		VBROADCASTSD(Mem{Base: yc}, y1)
		y2 := t.vec()
		VBROADCASTSD(Mem{Base: yc2}, y2)
		cnt := Load(Param("tv").Len(), GP64())
		tp := Load(Param("tv").Base(), GP64())
		ap := Load(Param("acc").Base(), GP64())
		loopN(fn+"_tally", cnt, func() {
			v := t.vec()
			VBROADCASTSD(Mem{Base: tp}, v)
			for _, o := range hs {
				eq := t.cmp(cmpEQ, v, l[0])
				if o != 0 {
					eq = t.cmp(cmpEQ, v, l[1])
				}
				x := t.vec()
				t.and(cf(1), eq, x)
				VADDPD(Mem{Base: ap, Disp: o}, x, x)
				VMOVUPD(x, Mem{Base: ap, Disp: o})
				t.and(y1, eq, x)
				VADDPD(Mem{Base: ap, Disp: 64 + o}, x, x)
				VMOVUPD(x, Mem{Base: ap, Disp: 64 + o})
				t.and(y2, eq, x)
				VADDPD(Mem{Base: ap, Disp: 128 + o}, x, x)
				VMOVUPD(x, Mem{Base: ap, Disp: 128 + o})
			}
			ADDQ(U8(8), tp)
			ADDQ(U8(192), ap)
		})
		ADDQ(m(), e)
		ADDQ(U8(8), z)
		ADDQ(U8(64), u)
		ADDQ(U8(8), yc)
		ADDQ(U8(8), yc2)
	})
	VZEROUPPER()
	RET()
}

// icmp returns the lanes where the 64-bit integers a > b (gt) or a == b,
// as all-ones and zero lanes.
func (t tier) icmp(gt bool, b Op, a reg.VecVirtual) reg.VecVirtual {
	dst := t.vec()
	if t.zmm() {
		k := K()
		if gt {
			VPCMPGTQ(b, a, k)
		} else {
			VPCMPEQQ(b, a, k)
		}
		VPMOVM2Q(k, dst)
		return dst
	}
	if gt {
		VPCMPGTQ(b, a, dst)
	} else {
		VPCMPEQQ(b, a, dst)
	}
	return dst
}

// blend sets x to a where the mask m is set, keeping x elsewhere.
func (t tier) blend(m reg.VecVirtual, a Op, x reg.VecVirtual) {
	keep := t.vec()
	if t.zmm() {
		VPANDNQ(x, m, keep)
	} else {
		VPANDN(x, m, keep) // ^m & x
	}
	t.and(a, m, m)
	t.or(m, keep, x)
}

// eachRegister emits a loop over the register-wide parts of the rows of
// slice param, calling body with the byte offset register.
func (t tier) eachRegister(name, param string, body func(off reg.GPVirtual)) {
	n := Load(Param(param).Len(), GP64())
	if t.zmm() {
		SHRQ(U8(3), n)
	} else {
		SHRQ(U8(2), n)
	}
	off := GP64()
	XORQ(off, off)
	loopN(name, n, func() {
		body(off)
		ADDQ(U8(t.bytes()), off)
	})
}

func mixGammaTry(t tier) {
	fn := "mixGammaTry" + t.name
	TEXT(fn, NOSPLIT, "func(g, conc, x, u []float64)")
	alignConsts()
	Pragma("noescape")
	Doc(fn + " computes MixGammaTryGeneric (" + t.name + ").")
	g := Load(Param("g").Base(), GP64())
	conc := Load(Param("conc").Base(), GP64())
	x := Load(Param("x").Base(), GP64())
	u := Load(Param("u").Base(), GP64())
	t.eachRegister(fn+"_loop", "conc", func(off reg.GPVirtual) {
		at := func(b reg.Register) Mem { return Mem{Base: b, Index: off, Scale: 1} }
		d := t.vec()
		VMOVUPD(at(conc), d)
		VSUBPD(cf(1.0/3), d, d)
		c := t.vec()
		VMULPD(cf(9), d, c)
		VSQRTPD(c, c)
		one := t.load(1, cf(1))[0].(reg.VecVirtual)
		VDIVPD(c, one, c) // 1/sqrt(9d)
		xv := t.vec()
		VMOVUPD(at(x), xv)
		tt := t.vec()
		VMULPD(xv, c, tt)
		VADDPD(one, tt, tt) // 1 + c*x
		v := t.vec()
		VMULPD(tt, tt, v)
		VMULPD(tt, v, v) // t*t*t
		VMULPD(xv, xv, xv)
		sq := t.vec()
		VMULPD(cf(0.0331), xv, sq)
		VMULPD(xv, sq, sq)
		VSUBPD(sq, one, sq) // 1 - 0.0331*x2*x2
		zero := t.vec()
		t.zero(zero)
		pos := t.cmp(0x1e, zero, tt) // t > 0 (GT_OQ)
		uv := t.vec()
		VMOVUPD(at(u), uv)
		acc := t.cmp(0x11, sq, uv) // u < · (LT_OQ)
		VMULPD(v, d, d)
		t.and(pos, d, d)
		t.and(acc, d, d)
		VMOVUPD(d, at(g))
	})
	VZEROUPPER()
	RET()
}

// The constants of math/log_amd64.s, as its #defines spell them.
const (
	logHSqrt2 = 7.07106781186547524401e-01
	logLn2Hi  = 6.93147180369123816490e-01
	logLn2Lo  = 1.90821492927058770002e-10
	logL1     = 6.666666666666735130e-01
	logL2     = 3.999999999940941908e-01
	logL3     = 2.857142874366239149e-01
	logL4     = 2.222219843214978396e-01
	logL5     = 1.818357216161805012e-01
	logL6     = 1.531383769920937332e-01
	logL7     = 1.479819860511658591e-01
)

// mixLog emits the operations of the standard library's amd64 math.Log
// (math/log_amd64.s) lane by lane: the same frexp by bits, the same
// polynomial in the same order, and its special cases (±0 → -Inf, negative
// → its NaN, +Inf and NaN → x) as masks.
func mixLog(t tier) {
	fn := "mixLog" + t.name
	TEXT(fn, NOSPLIT, "func(dst, src []float64)")
	alignConsts()
	Pragma("noescape")
	Doc(fn + " computes MixLogGeneric (" + t.name + ").")
	dst := Load(Param("dst").Base(), GP64())
	src := Load(Param("src").Base(), GP64())
	t.eachRegister(fn+"_loop", "src", func(off reg.GPVirtual) {
		x := t.vec()
		VMOVUPD(Mem{Base: src, Index: off, Scale: 1}, x)
		// f1, k := frexp(x) by the bits; then f1 in (HSqrt2/2·2, …]
		f1 := t.vec()
		t.and(c64(0x000FFFFFFFFFFFFF), x, f1)
		t.or(c64(0x3FE0000000000000), f1, f1)
		k := t.vec()
		VPSRLQ(U8(52), x, k)
		t.and(c64(0x7FF), k, k)
		VPADDQ(c64(0x4338000000000000-0x3FE), k, k) // k - 0x3FE in the bits of 1.5·2^52 + k
		VSUBPD(cf(0x1.8p52), k, k)                  // k, exact
		m := t.cmp(cmpLE, cf(logHSqrt2), f1)        // !(HSqrt2 < f1): f1 is never NaN
		t.and(cf(1), m, m)
		VSUBPD(m, k, k)
		VADDPD(cf(1), m, m)
		VMULPD(m, f1, f1)
		f := f1
		VSUBPD(cf(1), f, f)
		s := t.vec()
		VADDPD(cf(2), f, s)
		VDIVPD(s, f, s) // f/(2 + f)
		s2 := t.vec()
		VMULPD(s, s, s2)
		s4 := t.vec()
		VMULPD(s2, s2, s4)
		p := t.vec()
		VMULPD(cf(logL7), s4, p)
		VADDPD(cf(logL5), p, p)
		VMULPD(s4, p, p)
		VADDPD(cf(logL3), p, p)
		VMULPD(s4, p, p)
		VADDPD(cf(logL1), p, p)
		VMULPD(p, s2, s2) // t1
		q := t.vec()
		VMULPD(cf(logL6), s4, q)
		VADDPD(cf(logL4), q, q)
		VMULPD(s4, q, q)
		VADDPD(cf(logL2), q, q)
		VMULPD(q, s4, s4)  // t2
		VADDPD(s4, s2, s2) // R = t1 + t2
		h := t.vec()
		VMULPD(cf(0.5), f, h)
		VMULPD(f, h, h) // hfsq
		VADDPD(h, s2, s2)
		VMULPD(s2, s, s) // s*(hfsq+R)
		lo := t.vec()
		VMULPD(cf(logLn2Lo), k, lo)
		VADDPD(lo, s, s)
		VSUBPD(s, h, h) // hfsq - (·)
		VSUBPD(f, h, h) // · - f
		VMULPD(cf(logLn2Hi), k, k)
		VSUBPD(h, k, k) // k*Ln2Hi - ·
		abs := t.vec()
		t.and(c64(0x7FFFFFFFFFFFFFFF), x, abs)
		zero := t.vec()
		t.zero(zero)
		isZero := t.icmp(false, zero, abs)
		isNeg := t.icmp(true, x, zero)                       // 0 > bits
		isInfNaN := t.icmp(true, c64(0x7FEFFFFFFFFFFFFF), x) // bits ≥ +Inf
		t.blend(isInfNaN, x, k)
		t.blend(isNeg, c64(0x7FF8000000000001), k)
		t.blend(isZero, c64(0xFFF0000000000000), k)
		VMOVUPD(k, Mem{Base: dst, Index: off, Scale: 1})
	})
	VZEROUPPER()
	RET()
}
