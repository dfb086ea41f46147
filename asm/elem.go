package asm

import "math"

// The elementary functions of the Box–Muller transform and of the swap
// acceptance, as polynomials evaluated with math.FMA in a fixed order. The
// assembly kernels perform exactly these operations, in the same order, so
// the two agree bit for bit. Coefficients: Chebyshev fits at 60 digits with
// mpmath (asm/_gen/coeffs.py), rounded to the nearest float64.

// logP approximates P(f) = (log1p(f) - f)/f² on [√½-1, √2-1], degree 20,
// lowest degree first; fit error 1.0e-17.
var logP = [...]float64{
	-0x1.0000000000000p-1, 0x1.555555555555cp-2, -0x1.fffffffffff34p-3, 0x1.999999999772bp-3,
	-0x1.5555555561dddp-3, 0x1.249249261f2ccp-3, -0x1.fffffff7e955cp-4, 0x1.c71c70c1303cbp-4,
	-0x1.99999a6364b62p-4, 0x1.745d460eacbc4p-4, -0x1.55556c388aeddp-4, 0x1.3b0eda8f5d75cp-4,
	-0x1.248b2a78bff20p-4, 0x1.115b4daceee38p-4, -0x1.00b0e81fd59f4p-4, 0x1.dd3093b701211p-5,
	-0x1.b635ac30a3dacp-5, 0x1.bb08e0be73d94p-5, -0x1.fc84a09888c57p-5, 0x1.ceab3eecb74d9p-5,
	-0x1.8e8f5f6d78efbp-6,
}

// sinS approximates S(z) = (sin(πy/2)/y - π/2)/z, z = y², on [0, 1/4],
// degree 5; fit error 7.9e-17 (relative to S, itself at most 1/10 of the
// result).
var sinS = [...]float64{
	-0x1.4abbce625be52p-1, 0x1.466bc6775a476p-4, -0x1.32d2cce500387p-8, 0x1.50783208843ebp-13,
	-0x1.e3027dea82bd7p-19, 0x1.e4a9d9166f052p-25,
}

// cosC approximates C(z) = (cos(πy/2) - 1)/z, z = y², on [0, 1/4], degree
// 6; fit error 4.9e-19.
var cosC = [...]float64{
	-0x1.3bd3cc9be45dep+0, 0x1.03c1f081b5ac0p-2, -0x1.55d3c7e3cb241p-6, 0x1.e1f5068688d5bp-11,
	-0x1.a6d1eef479be1p-16, 0x1.f9ce245cada0bp-22, -0x1.b2f3eb054afcdp-28,
}

// expE approximates E(r) = (e^r - 1 - r)/r² on [-ln2/2, ln2/2], degree 10;
// fit error 1.4e-18.
var expE = [...]float64{
	0x1.0000000000000p-1, 0x1.5555555555557p-3, 0x1.5555555555556p-5, 0x1.11111111100dfp-7,
	0x1.6c16c16c162d6p-10, 0x1.a01a01abe62ddp-13, 0x1.a01a01a6d7808p-16, 0x1.71de02375656cp-19,
	0x1.27e4db67b4303p-22, 0x1.af4ddd84882fep-26, 0x1.1f72fc730b4ffp-29,
}

const (
	ln2    = 0x1.62e42fefa39efp-1  // ln 2 rounded to float64
	ln2Lo  = 0x1.abc9e3b39803fp-56 // ln 2 - ln2
	halfPi = 0x1.921fb54442d18p+0  // π/2 rounded to float64
	hpLo   = 0x1.1a62633145c07p-54 // π/2 - halfPi
	log2e  = 0x1.71547652b82fep+0  // 1/ln 2

	// ln2Hi + ln2Lo2 = ln 2 (fdlibm's split): ln2Hi has 32 significant
	// bits, so n*ln2Hi is exact for |n| < 2^21 and x - n*ln2Hi is exact.
	ln2Hi  = 0x1.62e42feep-1
	ln2Lo2 = 0x1.a39ef35793c76p-33

	// ExpMin is ln(2^-1022) rounded up: ExpNonPos(x) is 0 for x < ExpMin.
	ExpMin = -0x1.6232bdd7abcd2p+9

	logOff   = 0x3ff0000000000000 - sqrtHalf // added to the bits of x: see Log
	sqrtHalf = 0x3fe6a09e667f3bcd            // bits of √½
	mantMask = 1<<52 - 1
	expTwo52 = 0x4330000000000000 // bits of 2^52
	round52  = 0x1.8p52           // x + round52 - round52 rounds x to an integer
)

// sinPoly and cosPoly evaluate Horner(sinS, z) and Horner(cosC, z): from
// the top, p = c[n]; p = FMA(p, z, c[i]) for i = n-1..0.
func sinPoly(z float64) float64 {
	p := math.FMA(sinS[5], z, sinS[4])
	p = math.FMA(p, z, sinS[3])
	p = math.FMA(p, z, sinS[2])
	p = math.FMA(p, z, sinS[1])
	return math.FMA(p, z, sinS[0])
}

func cosPoly(z float64) float64 {
	p := math.FMA(cosC[6], z, cosC[5])
	p = math.FMA(p, z, cosC[4])
	p = math.FMA(p, z, cosC[3])
	p = math.FMA(p, z, cosC[2])
	p = math.FMA(p, z, cosC[1])
	return math.FMA(p, z, cosC[0])
}

// logPoly and expPoly evaluate Estrin(logP, x) and Estrin(expE, x):
// Estrin's scheme is a fixed tree of FMAs whose depth is log2(len(c))
// rather than len(c). Pair the terms, q[i] = FMA(c[2i+1], x, c[2i]) (an odd
// last term passes through), then pair the q with x², and so on (the
// reference loop is estrin in elem_test.go). The assembly evaluates the
// same tree, depth first.
func logPoly(x, x2 float64) float64 {
	x4 := x2 * x2
	x8 := x4 * x4
	x16 := x8 * x8
	q0 := math.FMA(logP[1], x, logP[0])
	q1 := math.FMA(logP[3], x, logP[2])
	q2 := math.FMA(logP[5], x, logP[4])
	q3 := math.FMA(logP[7], x, logP[6])
	q4 := math.FMA(logP[9], x, logP[8])
	q5 := math.FMA(logP[11], x, logP[10])
	q6 := math.FMA(logP[13], x, logP[12])
	q7 := math.FMA(logP[15], x, logP[14])
	q8 := math.FMA(logP[17], x, logP[16])
	q9 := math.FMA(logP[19], x, logP[18])
	q10 := math.FMA(q1, x2, q0)
	q11 := math.FMA(q3, x2, q2)
	q12 := math.FMA(q5, x2, q4)
	q13 := math.FMA(q7, x2, q6)
	q14 := math.FMA(q9, x2, q8)
	q15 := math.FMA(q11, x4, q10)
	q16 := math.FMA(q13, x4, q12)
	q17 := math.FMA(logP[20], x4, q14)
	q18 := math.FMA(q16, x8, q15)
	return math.FMA(q17, x16, q18)
}

func expPoly(x float64) float64 {
	x2 := x * x
	x4 := x2 * x2
	x8 := x4 * x4
	q0 := math.FMA(expE[1], x, expE[0])
	q1 := math.FMA(expE[3], x, expE[2])
	q2 := math.FMA(expE[5], x, expE[4])
	q3 := math.FMA(expE[7], x, expE[6])
	q4 := math.FMA(expE[9], x, expE[8])
	q5 := math.FMA(q1, x2, q0)
	q6 := math.FMA(q3, x2, q2)
	q7 := math.FMA(expE[10], x2, q4)
	q8 := math.FMA(q6, x4, q5)
	return math.FMA(q7, x8, q8)
}

// Log returns the natural logarithm of x for positive normal x (the
// uniforms of Box–Muller are in [2^-54, 1]); it is not defined for zero,
// negative, subnormal, infinite or NaN x. Error at most 1 ulp (0.89 ulp
// measured against a 160-bit reference on dense grids, both ends of (0, 1]
// and random normals of every exponent; see TestLogULP). With t = bits(x) + (bits(1) - bits(√½)), k = (t>>52) - 1023
// and z = x/2^k in [√½, √2) (an exact exponent change):
//
//	f := z - 1                    // exact
//	p := Estrin(logP, f)          // see logPoly
//	lo := FMA(f*f, p, k*ln2Lo)
//	return FMA(k, ln2, f+lo)
func Log(x float64) float64 {
	t := math.Float64bits(x) + logOff
	k := math.Float64frombits(expTwo52|t>>52) - (0x1p52 + 1023) // exact
	f := math.Float64frombits(t&mantMask+sqrtHalf) - 1
	f2 := f * f
	lo := math.FMA(f2, logPoly(f, f2), k*ln2Lo)
	return math.FMA(k, ln2, f+lo)
}

// SinCos2Pi returns sin(2πu) and cos(2πu) for |u| < 2^48, with the
// argument reduced exactly: q = round(4u), y = 4u - q in [-½, ½], and the
// octant polynomials
//
//	z := y*y
//	s := FMA(y, halfPi, y*FMA(z, Horner(sinS, z), hpLo))   // sin(πy/2)
//	c := FMA(z, Horner(cosC, z), 1)                          // cos(πy/2)
//
// then (s, c) rotated by q quarter turns: swapped when q is odd, the sine
// negated when q&2 != 0, the cosine when (q+1)&2 != 0. Error at most 1 ulp
// (0.99 ulp measured against a 160-bit reference of sin(2πu) and cos(2πu),
// not against math.Sincos(2*math.Pi*u), which rounds 2πu first; see
// TestSinCos2PiULP).
func SinCos2Pi(u float64) (sin, cos float64) {
	x := 4 * u
	qq := x + round52
	y := x - (qq - round52)
	z := y * y
	s := math.FMA(y, halfPi, y*math.FMA(z, sinPoly(z), hpLo))
	c := math.FMA(z, cosPoly(z), 1)
	n := math.Float64bits(qq)
	if n&1 != 0 {
		s, c = c, s
	}
	s = math.Float64frombits(math.Float64bits(s) ^ (n&2)<<62)
	c = math.Float64frombits(math.Float64bits(c) ^ ((n+1)&2)<<62)
	return s, c
}

// ExpNonPos returns e^x for ExpMin <= x <= 0, and 0 for x < ExpMin or NaN
// (results below the smallest normal float64 flush to 0). Error at most 1
// ulp (0.82 ulp measured against a 160-bit reference over [ExpMin, 0]; see
// TestExpNonPosULP).
// Cody–Waite reduction x = n ln2 + r, |r| <= ln2/2, then
//
//	kk := FMA(x, log2e, 0x1.8p52)          // n in the low bits of kk
//	n := kk - 0x1.8p52
//	r := FMA(n, -ln2Lo2, FMA(n, -ln2Hi, x))
//	p := FMA(FMA(Estrin(expE, r), r, 1), r, 1)  // see expPoly
//	return p * 2^n                         // 2^n from the bits of kk
func ExpNonPos(x float64) float64 {
	if !(x >= ExpMin) {
		return 0
	}
	kk := math.FMA(x, log2e, round52)
	n := kk - round52
	r := math.FMA(n, -ln2Lo2, math.FMA(n, -ln2Hi, x))
	p := math.FMA(math.FMA(expPoly(r), r, 1), r, 1)
	return p * math.Float64frombits((math.Float64bits(kk)+1023)<<52)
}
