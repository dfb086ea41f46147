package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func genXoshiro() {
	for _, t := range []tier{avx512, avx2} {
		xoshiroKernel(t, "xoshiroUniform", 8, "fills dst with uniforms as XoshiroUniformGeneric does", func(st *[4]V, dst reg.Register, disp int) {
			u := t.unit(t.next(st), 53)
			t.do(VMOVUPD, u, Mem{Base: dst, Disp: disp})
		})
		xoshiroKernel(t, "xoshiroNormal", 16, "fills dst with normals as XoshiroNormalGeneric does", func(st *[4]V, dst reg.Register, disp int) {
			a := t.next(st) // row 2i: u1
			b := t.next(st) // row 2i+1: u2
			u1 := t.unit(a, 53)
			x4 := t.unit(b, 51) // 4*u2
			r := t.negTwoLog(u1)
			t.do(VSQRTPD, r, r)
			sin, cos := t.sincos(x4)
			t.do(VMULPD, cos, r, cos)
			t.do(VMULPD, sin, r, sin)
			t.do(VMOVUPD, cos, Mem{Base: dst, Disp: disp})
			t.do(VMOVUPD, sin, Mem{Base: dst, Disp: disp + 64})
		})
	}
}

// xoshiroKernel emits name+tier: for every group of per floats of dst (one
// or two rows of 8 lanes), body draws from the state registers and writes
// the rows at dst+disp. The AVX2 version runs lanes 0-3 over all rows,
// then lanes 4-7. (Computing two groups side by side, interleaved, ran no
// faster on AVX-512: the loop is bound by vector-op throughput, and the
// registers run out.)
func xoshiroKernel(t tier, name string, per int, doc string, body func(st *[4]V, dst reg.Register, disp int)) {
	fn := name + t.name
	TEXT(fn, NOSPLIT, "func(dst []float64, s *[32]uint64)")
	alignConsts()
	Pragma("noescape")
	Doc(fmt.Sprintf("%s %s (%s).", fn, doc, t.name))
	sp := Load(Param("s"), GP64())
	for h := 0; h < 8/t.width; h++ {
		dst := Load(Param("dst").Base(), GP64())
		n := Load(Param("dst").Len(), GP64())
		SHRQ(U8(map[int]int{8: 3, 16: 4}[per]), n) // groups
		var st [4]V
		for w := range st {
			st[w] = t.load(1, Mem{Base: sp, Disp: 64*w + 32*h})
		}
		loopN(fmt.Sprintf("%s_%d", fn, h), n, func() {
			body(&st, dst, 32*h)
			ADDQ(U32(8*per), dst)
		})
		for w := range st {
			VMOVUPD(st[w][0], Mem{Base: sp, Disp: 64*w + 32*h})
		}
	}
	VZEROUPPER()
	RET()
}

// next advances the xoshiro256++ lanes in st and returns their outputs,
// as asm.XoshiroNext.
func (t tier) next(st *[4]V) V {
	s0, s1, s2, s3 := st[0], st[1], st[2], st[3]
	out := t.vecs(1)
	t.do(VPADDQ, s3, s0, out)
	t.rotl(out, 23)
	t.do(VPADDQ, s0, out, out)
	tmp := t.vecs(1)
	t.do(VPSLLQ, U8(17), s1, tmp)
	t.xor(s0, s2, s2)
	t.xor(s1, s3, s3)
	t.xor(s2, s1, s1)
	t.xor(s3, s0, s0)
	t.xor(tmp, s2, s2)
	t.rotl(s3, 45)
	return out
}
