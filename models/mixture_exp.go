package models

import "math"

// Constants of mixExp: log2(e), ln 2 split Cody–Waite style (the high part
// has 32 significant bits, so k·ln2Hi is exact for |k| < 2^21), the
// round-to-nearest shifter 1.5·2^52, and 1/n! for n = 2 … 13.
const (
	mixLog2e   = 1.44269504088896338700e+00
	mixLn2Hi   = 6.93147180369123816490e-01
	mixLn2Lo   = 1.90821492927058770002e-10
	mixShifter = 0x1.8p52
)

var mixExpCoef = [...]float64{
	1.0 / 6227020800, 1.0 / 479001600, 1.0 / 39916800, 1.0 / 3628800, 1.0 / 362880,
	1.0 / 40320, 1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 1.0 / 2,
}

// mixExp returns e^x to within one unit in the last place (it is at most
// one double away from the correctly rounded e^x; TestMixExpAccuracy checks
// it against a 160-bit computation): x = k ln 2 + r with
// k = round(x log2 e) and |r| ≤ ln2/2, then e^r by its Taylor polynomial of
// degree 13 (truncation error (ln2/2)^14/14! < 5e-18, below 1/40 ulp)
// evaluated by Estrin's scheme with fused multiply-adds (short dependency
// chains), scaled by 2^k through the exponent bits. Below -746 it returns 0
// at once (e^x is then below half the least subnormal; the label terms of
// far components mostly fall there, where math.Exp is slow); elsewhere
// outside [-708, 709] (subnormal or infinite results) and for NaN it
// returns math.Exp(x). The batched block and the scalar reference both use
// it, so they agree bit for bit.
func mixExp(x float64) float64 {
	if !(x >= -708 && x <= 709) {
		if x < -746 { // e^x < 2^-1076, half the least subnormal
			return 0
		}
		return math.Exp(x)
	}
	k := (x*mixLog2e + mixShifter) - mixShifter
	r := (x - k*mixLn2Hi) - k*mixLn2Lo
	// e^r = 1 + (r + r² P(r)), P(r) = Σ_{m=0}^{11} r^m/(m+2)! by Estrin's
	// scheme (pairs, quadruples, then r⁴), the 1 added last.
	r2 := r * r
	r4 := r2 * r2
	c := &mixExpCoef
	f0 := math.FMA(r2, math.FMA(r, c[8], c[9]), math.FMA(r, c[10], c[11]))
	f1 := math.FMA(r2, math.FMA(r, c[4], c[5]), math.FMA(r, c[6], c[7]))
	f2 := math.FMA(r2, math.FMA(r, c[0], c[1]), math.FMA(r, c[2], c[3]))
	p := 1 + math.FMA(r2, math.FMA(r4, math.FMA(r4, f2, f1), f0), r)
	return p * math.Float64frombits(uint64(int64(k)+1023)<<52)
}
