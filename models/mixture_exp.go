package models

import (
	"math"
	"math/big"
)

// Constants of mixExps: the table has 2^mixExpBits entries; x = k ln2/128 + r
// with k = round(x·128/ln 2) by the round-to-nearest shifter 1.5·2^52, and
// ln2/128 split Cody–Waite style (the high part has 36 significant bits, so
// k·mixExpLn2NHi is exact for |k| < 2^17, i.e. |x| < 709); mixExpMin is the
// flush threshold.
const (
	mixExpBits    = 7
	mixExpN       = 1 << mixExpBits
	mixExpInvLn2N = 0x1.71547652b82fep0 * mixExpN // 128/ln 2
	mixExpLn2NHi  = 0x1.62e42fefa0000p-8          // ln2/128, high part
	mixExpLn2NLo  = 0x1.cf79abc9e3b3ap-47         // ln2/128 - mixExpLn2NHi
	mixExpShifter = 0x1.8p52
	mixExpMin     = -700.0
)

// mixExpTab holds, for j = 0 … 127, the pair (tail_j, bits_j): 2^(j/128) is
// H_j (1 + tail_j) with H_j = 2^(j/128) rounded to a float64 and tail_j the
// relative rounding error (|tail_j| < 2^-53), and bits_j is the bit pattern
// of H_j minus j·2^45, so that adding k·2^45 (k = 128q + j) gives the bits of
// 2^q H_j. The values are computed once from 2^(1/128) to 256 bits
// (mixExpTable).
var mixExpTab = mixExpTable()

// mixExpTable returns the table of mixExpTab: 2^(1/128) by seven square
// roots of 2, its powers by repeated multiplication, all at 256 bits (the
// accumulated error, below 2^-240 relative, cannot change a rounding).
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

// mixExps replaces every x of xs, x ≤ 709, by e^x to within 0.52 units in
// the last place (TestMixExpAccuracy checks it against a 160-bit
// computation), or by 0 when x < mixExpMin = -700 (e^x < 1e-304) or x is
// NaN; x > 709 gives meaningless results (callers clamp). It is the
// table-driven method of Tang (ACM TOMS 15(2), 1989) as arranged in
// Szabolcs Nagy's exp of the ARM optimized-routines (also glibc's):
// x = (128q + j) ln2/128 + r with |r| ≤ ln2/256, and
//
//	e^x = 2^q · 2^(j/128) · e^r ≈ 2^q H_j (1 + tail_j + (e^r - 1)),
//
// e^r - 1 by its Taylor polynomial of degree 5 (truncation error
// (ln2/256)^6/720 < 6e-19, below 1/300 ulp), without fused multiply-adds,
// so the result does not depend on the CPU. The flush keeps the mixture's
// sweeps off the slow subnormal path: its exponentials are terms relative
// to a largest term of 1, where a term below 1e-304 is far below the
// rounding of any sum it enters. Hot loops call the two inlinable halves,
// mixExpReduce and mixExpFinish, themselves:
//
//	e := 0.0
//	if x >= mixExpMin {
//		e = mixExpFinish(mixExpReduce(x))
//	}
//
// which is what mixExps does; the scalar reference calls mixExp, so block
// and scalar agree bit for bit.
func mixExps(xs []float64) {
	for i, x := range xs {
		e := 0.0
		if x >= mixExpMin {
			e = mixExpFinish(mixExpReduce(x))
		}
		xs[i] = e
	}
}

// mixExp returns e^x as mixExps computes it.
func mixExp(x float64) float64 {
	a := [1]float64{x}
	mixExps(a[:])
	return a[0]
}

// mixExpReduce returns the reduced argument r, |r| ≤ ln2/256, of
// x = k ln2/128 + r, and the bits ki of k + 1.5·2^52, whose low bits hold k
// in two's complement (see mixExps).
func mixExpReduce(x float64) (r float64, ki uint64) {
	z := float64(x*mixExpInvLn2N) + mixExpShifter
	ki = math.Float64bits(z)
	kd := z - mixExpShifter
	return (x - float64(kd*mixExpLn2NHi)) - float64(kd*mixExpLn2NLo), ki
}

// mixExpFinish returns e^x from the reduction of mixExpReduce:
// 2^q H_j (1 + tail_j + P(r)), k = 128q + j, P(r) the Taylor polynomial of
// e^r - 1 of degree 5 (see mixExps).
func mixExpFinish(r float64, ki uint64) float64 {
	t := &mixExpTab
	j := 2 * (ki % mixExpN)
	scale := math.Float64frombits(t[j+1] + ki<<(52-mixExpBits))
	r2 := r * r
	p := math.Float64frombits(t[j]) + r + float64(r2*(0.5+float64(r*(1.0/6)))) + float64(r2*r2*(1.0/24+float64(r*(1.0/120))))
	return scale + float64(scale*p)
}
