package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func genGauss() {
	for _, t := range []tier{avx512, avx2} {
		gaussEnergy(t)
	}
}

// gaussEnergy emits gaussEnergy+tier, the operations of
// GaussEnergyGeneric. Two independent accumulations run side by side to
// hide the FMA latency: two rows at a time on AVX-512 (then one row for an
// odd last row), the two halves of a row on AVX2.
func gaussEnergy(t tier) {
	fn := "gaussEnergy" + t.name
	TEXT(fn, NOSPLIT, "func(w0, w1, first, m, s, z []float64, dim int, mu0, mu1, h0, h1 float64)")
	alignConsts()
	Pragma("noescape")
	Doc(fn + " computes GaussEnergyGeneric (" + t.name + ").")
	w0 := Load(Param("w0").Base(), GP64())
	w1 := Load(Param("w1").Base(), GP64())
	first := Load(Param("first").Base(), GP64())
	m := Load(Param("m").Base(), GP64())
	s := Load(Param("s").Base(), GP64())
	z := Load(Param("z").Base(), GP64())
	rows := Load(Param("m").Len(), GP64())
	SHRQ(U8(3), rows)
	dim := Load(Param("dim"), GP64())
	rowBytes := GP64() // bytes of z per row: dim*64
	MOVQ(dim, rowBytes)
	SHLQ(U8(6), rowBytes)
	bcast := func(name string) reg.VecVirtual {
		b, err := Param(name).Resolve()
		if err != nil {
			panic(err)
		}
		v := t.vec()
		VBROADCASTSD(b.Addr, v)
		return v
	}
	mu0, mu1 := bcast("mu0"), bcast("mu1")
	h0, h1 := bcast("h0"), bcast("h1")

	// block handles len(offs) accumulations: slot g reads m, s and writes
	// w0, w1, first at byte offset offs[g] of the row pointers, and reads
	// its normals from zs[g] + zoffs[g] + d*64.
	block := func(label string, offs []int, zs []reg.Register, zoffs []int) {
		G := len(offs)
		mv := make([]reg.VecVirtual, G)
		sv := make([]reg.VecVirtual, G)
		a0 := make([]reg.VecVirtual, G)
		a1 := make([]reg.VecVirtual, G)
		for g := 0; g < G; g++ {
			mv[g] = t.load(1, Mem{Base: m, Disp: offs[g]})[0].(reg.VecVirtual)
			sv[g] = t.load(1, Mem{Base: s, Disp: offs[g]})[0].(reg.VecVirtual)
			x := t.vec()
			VMOVAPD(mv[g], x)
			VFMADD231PD(Mem{Base: zs[g], Disp: zoffs[g]}, sv[g], x) // FMA(s, z, m)
			VMOVUPD(x, Mem{Base: first, Disp: offs[g]})
			a0[g], a1[g] = t.vec(), t.vec()
			t.zero(a0[g])
			t.zero(a1[g])
		}
		n := GP64()
		MOVQ(dim, n)
		zp := make([]reg.Register, G)
		for g := range zp {
			if g > 0 && zs[g] == zs[g-1] {
				zp[g] = zp[g-1]
				continue
			}
			zp[g] = GP64()
			MOVQ(zs[g], zp[g])
		}
		loopN(label, n, func() {
			for g := 0; g < G; g++ {
				x := t.vec()
				VMOVAPD(mv[g], x)
				VFMADD231PD(Mem{Base: zp[g], Disp: zoffs[g]}, sv[g], x)
				d1 := t.vec()
				VSUBPD(mu1, x, d1)
				VSUBPD(mu0, x, x)
				VFMADD231PD(x, x, a0[g])
				VFMADD231PD(d1, d1, a1[g])
			}
			for g := range zp {
				if g > 0 && zp[g] == zp[g-1] {
					continue
				}
				ADDQ(U8(64), zp[g])
			}
		})
		for g := 0; g < G; g++ {
			t.xor(c64(1<<63), a0[g], a0[g]) // -acc, then *h: as Go, NaN signs included
			t.xor(c64(1<<63), a1[g], a1[g])
			VMULPD(h0, a0[g], a0[g])
			VMULPD(h1, a1[g], a1[g])
			VMOVUPD(a0[g], Mem{Base: w0, Disp: offs[g]})
			VMOVUPD(a1[g], Mem{Base: w1, Disp: offs[g]})
		}
	}
	advance := func(nrows int) {
		for _, p := range []reg.Register{w0, w1, first, m, s} {
			ADDQ(U32(64*nrows), p)
		}
		for i := 0; i < nrows; i++ {
			ADDQ(rowBytes, z)
		}
	}
	if t.zmm() {
		pairs := GP64()
		MOVQ(rows, pairs)
		SHRQ(U8(1), pairs)
		z1 := GP64()
		loopN(fn+"_pairs", pairs, func() {
			MOVQ(z, z1)
			ADDQ(rowBytes, z1)
			block(fn+"_pairs_d", []int{0, 64}, []reg.Register{z, z1}, []int{0, 0})
			advance(2)
		})
		ANDQ(U8(1), rows)
		loopN(fn+"_odd", rows, func() {
			block(fn+"_odd_d", []int{0}, []reg.Register{z}, []int{0})
			advance(1)
		})
	} else {
		loopN(fn+"_rows", rows, func() {
			block(fn+"_rows_d", []int{0, 32}, []reg.Register{z, z}, []int{0, 32})
			advance(1)
		})
	}
	VZEROUPPER()
	RET()
}
