package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// genIsing emits isingXorAVX2 (see isingXor) and isingLineAVX2, the moves of asm.IsingLineGeneric: the
// lanes' xoshiro256++ states live in 8 YMM registers (lanes 0-3 and 4-7 of
// each state word) for the whole row; each output pair is split into the
// 8 lanes' high and low 31-bit uniforms (one YMM of dwords each, in lane
// order); a site's neighbour count is made for all lanes at once in a
// general register, as in the twin; each lane's threshold is selected
// from the 10 entries by a tree of blends (VPGATHERDD, tried first, made
// the whole sweep about 20 % slower on this AMD EPYC); a signed dword compare
// gives the rejections, whose sign mask indexes a table of the flip words.
func genIsing() {
	TEXT("isingLineAVX2", NOSPLIT, "func(row, up, down []uint64, x0 int, q *[80]int32, s *[32]uint64)")
	Pragma("noescape")
	Doc("isingLineAVX2 runs the moves of IsingLineGeneric (AVX2).")
	p := isingParams{
		row: Load(Param("row").Base(), GP64()), up: Load(Param("up").Base(), GP64()),
		down: Load(Param("down").Base(), GP64()), n: Load(Param("row").Len(), GP64()),
		x: Load(Param("x0"), GP64()), q: Load(Param("q"), GP64()),
		flip: GP64(), ks: GP64(),
	}
	LEAQ(NewDataAddr(NewStaticSymbol("isingflip"), 0), p.flip)
	LEAQ(NewDataAddr(NewStaticSymbol("isingks"), 0), p.ks)
	sp := Load(Param("s"), GP64())
	var st [2][4]V // lanes 0-3, lanes 4-7
	for h := range st {
		for w := range st[h] {
			st[h][w] = avx2.load(1, Mem{Base: sp, Disp: 64*w + 32*h})
		}
	}
	Label("ising_pair")
	CMPQ(p.x, p.n)
	JGE(LabelRef("ising_done"))
	hi, lo := isingUniforms(avx2.next(&st[0])[0], avx2.next(&st[1])[0])
	isingSite(p, hi)
	CMPQ(p.x, p.n)
	JGE(LabelRef("ising_done"))
	isingSite(p, lo)
	JMP(LabelRef("ising_pair"))
	Label("ising_done")
	sp = Load(Param("s"), GP64())
	for h := range st {
		for w := range st[h] {
			VMOVDQU(st[h][w][0], Mem{Base: sp, Disp: 64*w + 32*h})
		}
	}
	VZEROUPPER()
	RET()
	isingXor()
	isingData()
}

// isingParams are the registers the sites share: the rows' bases, the
// length n, the current site x, the thresholds q, the flip table and the
// index table.
type isingParams struct {
	row, up, down, n, x, q, flip, ks reg.Register
}

// isingUniforms turns the outputs of lanes 0-3 (a) and 4-7 (b)
// into the dwords u>>33 (hi) and (u mod 2³²)>>1 (lo) of lanes 0-7 in order:
// VSHUFPS takes the odd (even) dwords, in the order 0 1 4 5 | 2 3 6 7,
// which VPERMQ puts right.
func isingUniforms(a, b reg.Register) (hi, lo reg.VecVirtual) {
	hi, lo = YMM(), YMM()
	VSHUFPS(U8(0xDD), b, a, hi)
	VSHUFPS(U8(0x88), b, a, lo)
	VPERMQ(U8(0xD8), hi, hi)
	VPERMQ(U8(0xD8), lo, lo)
	VPSRLD(U8(1), hi, hi)
	VPSRLD(U8(1), lo, lo)
	return hi, lo
}

// isingSite makes the move of site x with the uniforms r and advances x
// by 2.
func isingSite(p isingParams, r reg.VecVirtual) {
	xl, xr, t := GP64(), GP64(), GP64()
	isingNeighbours(p, xl, xr)
	w, idx := GP64(), GP64()
	MOVQ(Mem{Base: p.row, Index: p.x, Scale: 8}, w)
	LEAQ(Mem{Base: w, Index: w, Scale: 4}, idx)
	for _, nb := range []Mem{
		{Base: p.row, Index: xl, Scale: 8}, {Base: p.row, Index: xr, Scale: 8},
		{Base: p.up, Index: p.x, Scale: 8}, {Base: p.down, Index: p.x, Scale: 8},
	} {
		MOVQ(nb, t)
		XORQ(w, t)
		ADDQ(t, idx)
	}
	iv := YMM()
	VMOVQ(idx, iv.AsX())
	VPMOVZXBD(iv.AsX(), iv)
	qv := isingSelect(p.q, iv)
	VPCMPGTD(qv, r, qv) // r > q: rejected
	m := GP64()
	VMOVMSKPS(qv, m.As32())
	XORQ(Mem{Base: p.flip, Index: m, Scale: 8}, w)
	MOVQ(w, Mem{Base: p.row, Index: p.x, Scale: 8})
	ADDQ(U8(2), p.x)
}

// isingNeighbours sets xl and xr to x − 1 and x + 1 modulo n, by compare
// and branch (taken only at the two ends of the row, so well predicted).
func isingNeighbours(p isingParams, xl, xr reg.Register) {
	isingLabels++
	l := fmt.Sprintf("ising_nb%d", isingLabels)
	LEAQ(Mem{Base: p.x, Disp: -1}, xl)
	LEAQ(Mem{Base: p.x, Disp: 1}, xr)
	TESTQ(p.x, p.x)
	JNE(LabelRef(l + "_left"))
	LEAQ(Mem{Base: p.n, Disp: -1}, xl) // x = 0: the left neighbour is n−1
	Label(l + "_left")
	CMPQ(xr, p.n)
	JNE(LabelRef(l + "_right"))
	XORQ(xr, xr) // x = n−1: the right neighbour is 0
	Label(l + "_right")
}

// isingLabels numbers the labels of isingNeighbours.
var isingLabels int

// isingSelect returns the dwords q[8·iv_j + j], iv_j in 0 to 9, by a tree
// of blends on the bits of iv (VBLENDVPS takes the sign bit of each dword
// of its mask: iv shifted left by 31 − b for bit b): pairs by bit 0, then
// by bits 1, 2 and 3, depth first to keep few registers live.
func isingSelect(q reg.Register, iv reg.VecVirtual) reg.VecVirtual {
	mask := func(b int) reg.VecVirtual {
		m := YMM()
		VPSLLD(U8(31-b), iv, m)
		return m
	}
	var node func(bit, k int) reg.VecVirtual // entries k to k + 2^(bit+1) − 1
	node = func(bit, k int) reg.VecVirtual {
		if bit < 0 {
			v := YMM()
			VMOVDQU(Mem{Base: q, Disp: 32 * k}, v)
			return v
		}
		lo := node(bit-1, k)
		hk := k + 1<<bit
		if hk >= 10 {
			return lo
		}
		if bit == 0 {
			VBLENDVPS(mask(0), Mem{Base: q, Disp: 32 * hk}, lo, lo)
			return lo
		}
		hi := node(bit-1, hk)
		VBLENDVPS(mask(bit), hi, lo, lo)
		return lo
	}
	return node(3, 0)
}

// isingData emits the index table (entry k: 8 dwords k, k = 0 to 9) and
// the flip table: entry m, for the rejection mask m (bit j: lane j
// rejects), has byte j equal to 1 when bit j of m is 0.
func isingData() {
	GLOBL("isingks", RODATA|NOPTR)
	for k := 0; k < 10; k++ {
		for j := 0; j < 8; j++ {
			DATA(32*k+4*j, U32(k))
		}
	}
	GLOBL("isingflip", RODATA|NOPTR)
	for m := 0; m < 256; m++ {
		var f uint64
		for j := 0; j < 8; j++ {
			if m>>j&1 == 0 {
				f |= 1 << (8 * j)
			}
		}
		DATA(8*m, U64(f))
	}
}

// isingXor emits isingXorAVX2, the sums of asm.IsingXorGeneric: dst's 4
// words are one YMM of byte counters, and 4 words of a XOR b are added to
// it bytewise (VPADDB) per step, two steps an iteration when the length
// allows.
func isingXor() {
	TEXT("isingXorAVX2", NOSPLIT, "func(dst *[4]uint64, a, b []uint64)")
	Pragma("noescape")
	Doc("isingXorAVX2 computes IsingXorGeneric (AVX2).")
	dst := Load(Param("dst"), GP64())
	a := Load(Param("a").Base(), GP64())
	b := Load(Param("b").Base(), GP64())
	n := Load(Param("a").Len(), GP64())
	acc, acc2 := YMM(), YMM()
	VMOVDQU(Mem{Base: dst}, acc)
	VPXOR(acc2, acc2, acc2)
	SHRQ(U8(2), n) // steps of 4 words
	Label("isingxor_pair")
	CMPQ(n, U8(2))
	JB(LabelRef("isingxor_one"))
	for k, d := range []reg.VecVirtual{acc, acc2} {
		v := YMM()
		VMOVDQU(Mem{Base: a, Disp: 32 * k}, v)
		VPXOR(Mem{Base: b, Disp: 32 * k}, v, v)
		VPADDB(v, d, d)
	}
	ADDQ(U8(64), a)
	ADDQ(U8(64), b)
	SUBQ(U8(2), n)
	JMP(LabelRef("isingxor_pair"))
	Label("isingxor_one")
	TESTQ(n, n)
	JE(LabelRef("isingxor_done"))
	v := YMM()
	VMOVDQU(Mem{Base: a}, v)
	VPXOR(Mem{Base: b}, v, v)
	VPADDB(v, acc, acc)
	Label("isingxor_done")
	VPADDB(acc2, acc, acc)
	VMOVDQU(acc, Mem{Base: dst})
	VZEROUPPER()
	RET()
}
