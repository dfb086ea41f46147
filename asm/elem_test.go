package asm

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The references below are computed with math/big at refPrec bits from
// series whose truncation error is far below 2^-refPrec, so a difference
// from them is the error of the float64 function alone.
const refPrec = 160

func bf(x float64) *big.Float { return new(big.Float).SetPrec(refPrec).SetFloat64(x) }

// atanhSeries returns atanh(x) = Σ x^(2k+1)/(2k+1) for |x| <= 1/3.
func atanhSeries(x *big.Float) *big.Float {
	sum := new(big.Float).SetPrec(refPrec).Set(x)
	x2 := new(big.Float).SetPrec(refPrec).Mul(x, x)
	pow := new(big.Float).SetPrec(refPrec).Set(x)
	eps := new(big.Float).SetPrec(refPrec).SetMantExp(big.NewFloat(1), -refPrec-8)
	for k := 1; ; k++ {
		pow.Mul(pow, x2)
		term := new(big.Float).SetPrec(refPrec).Quo(pow, bf(float64(2*k+1)))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			return sum
		}
	}
}

var bigLn2 = func() *big.Float { // ln 2 = 2 atanh(1/3)
	t := atanhSeries(new(big.Float).SetPrec(refPrec).Quo(bf(1), bf(3)))
	return t.Mul(t, bf(2))
}()

// bigPi is 16 atan(1/5) - 4 atan(1/239) (Machin).
var bigPi = func() *big.Float {
	atanInv := func(n float64) *big.Float {
		x := new(big.Float).SetPrec(refPrec).Quo(bf(1), bf(n))
		x2 := new(big.Float).SetPrec(refPrec).Mul(x, x)
		sum := new(big.Float).SetPrec(refPrec).Set(x)
		pow := new(big.Float).SetPrec(refPrec).Set(x)
		for k := 1; k < 200; k++ {
			pow.Mul(pow, x2)
			pow.Neg(pow)
			sum.Add(sum, new(big.Float).SetPrec(refPrec).Quo(pow, bf(float64(2*k+1))))
		}
		return sum
	}
	a := atanInv(5)
	a.Mul(a, bf(16))
	b := atanInv(239)
	b.Mul(b, bf(4))
	return a.Sub(a, b)
}()

// bigLog returns log x for x > 0: x = m 2^e with m in [1, 2), log m =
// 2 atanh((m-1)/(m+1)), (m-1)/(m+1) <= 1/3.
func bigLog(x float64) *big.Float {
	m := new(big.Float).SetPrec(refPrec)
	e := bf(x).MantExp(m) // x = m 2^e, m in [½, 1)
	m.SetMantExp(m, 1)
	e--
	s := new(big.Float).SetPrec(refPrec).Quo(new(big.Float).SetPrec(refPrec).Sub(m, bf(1)), new(big.Float).SetPrec(refPrec).Add(m, bf(1)))
	l := atanhSeries(s)
	l.Mul(l, bf(2))
	return l.Add(l, new(big.Float).SetPrec(refPrec).Mul(bf(float64(e)), bigLn2))
}

// bigTaylor returns Σ_{k>=0, k ≡ start mod 2 when odd is set} sign x^k/k!:
// exp (all terms), sin (odd, alternating) or cos (even, alternating) of x,
// |x| <= 1.
func bigTaylor(x *big.Float, kind string) *big.Float {
	sum := new(big.Float).SetPrec(refPrec)
	term := bf(1)
	for k := 0; k < 80; k++ {
		if k > 0 {
			term.Mul(term, x)
			term.Quo(term, bf(float64(k)))
		}
		switch kind {
		case "exp":
			sum.Add(sum, term)
		case "sin", "cos":
			if (k%2 == 1) == (kind == "sin") {
				if (k/2)%2 == 0 {
					sum.Add(sum, term)
				} else {
					sum.Sub(sum, term)
				}
			}
		}
	}
	return sum
}

// bigExp returns e^x = 2^n e^r with r = x - n ln 2.
func bigExp(x float64) *big.Float {
	n := math.Round(x / math.Ln2)
	r := new(big.Float).SetPrec(refPrec).Sub(bf(x), new(big.Float).SetPrec(refPrec).Mul(bf(n), bigLn2))
	e := bigTaylor(r, "exp")
	return e.SetMantExp(e, int(n))
}

// bigSinCos2Pi returns sin 2πu and cos 2πu: 4u = q + y exactly, y in
// [-½, ½], and sin(2πu) = sin(π/2 (q+y)).
func bigSinCos2Pi(u float64) (s, c *big.Float) {
	q := math.RoundToEven(4 * u)
	y := 4*u - q // exact
	th := new(big.Float).SetPrec(refPrec).Mul(bf(y), bigPi)
	th.Quo(th, bf(2))
	s, c = bigTaylor(th, "sin"), bigTaylor(th, "cos")
	switch int(q) & 3 {
	case 1:
		s, c = c, s.Neg(s)
	case 2:
		s, c = s.Neg(s), c.Neg(c)
	case 3:
		s, c = c.Neg(c), s
	}
	return s, c
}

// ulpErr returns |got - want| in units of the last place of want (of the
// float64 nearest to want; 2^-1074 for subnormals).
func ulpErr(got float64, want *big.Float) float64 {
	w, _ := want.Float64()
	if w == 0 {
		if got == 0 {
			return 0
		}
		return math.Inf(1)
	}
	e := math.Ilogb(w)
	if e < -1022 {
		e = -1022
	}
	d := new(big.Float).SetPrec(refPrec).Sub(bf(got), want)
	d.Abs(d)
	d.SetMantExp(d, 52-e)
	r, _ := d.Float64()
	return r
}

// unitGrid returns the u = ((k)+0.5) 2^-53 of UnitOpen on a dense grid
// over (0, 1), near 0 and near 1, and at random.
func unitGrid(n int) []float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	var us []float64
	for i := 1; i < n; i++ {
		us = append(us, float64(i)/float64(n)) // dense grid
	}
	for i := 0; i < 200; i++ {
		us = append(us, UnitOpen(uint64(i)<<11), UnitOpen(^uint64(0)-uint64(i)<<11)) // both ends
		us = append(us, math.Ldexp(UnitOpen(rng.Uint64()), -rng.IntN(54)))           // small, all scales
	}
	for i := 0; i < n; i++ {
		us = append(us, UnitOpen(rng.Uint64()))
	}
	return us
}

// gridSize keeps the big-float references to about a second.
func gridSize() int {
	if testing.Short() {
		return 2000
	}
	return 12000
}

// TestLogULP measures Log against the 160-bit reference on (0, 1] and on
// random positive normals of every exponent, and checks the 1-ulp bound of
// its doc comment; math.Log must agree within 2 ulp (both are within 1).
func TestLogULP(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	xs := unitGrid(gridSize())
	for i := 0; i < 2000; i++ {
		xs = append(xs, math.Float64frombits(uint64(1+rng.IntN(2046))<<52|rng.Uint64()&mantMask))
	}
	xs = append(xs, 1, math.SmallestNonzeroFloat64*(1<<52), math.MaxFloat64, math.Sqrt2, math.Sqrt2/2, math.Nextafter(math.Sqrt2/2, 0))
	worst, at := 0.0, 0.0
	for _, x := range xs {
		got := Log(x)
		e := ulpErr(got, bigLog(x))
		if e > worst {
			worst, at = e, x
		}
		if m := math.Log(x); math.Abs(got-m) > 2*ulpOf(m) {
			t.Errorf("Log(%v) = %v, math.Log = %v", x, got, m)
		}
	}
	t.Logf("Log: max error %.3f ulp at %v over %d inputs", worst, at, len(xs))
	if worst > 1 {
		t.Errorf("Log: max error %.3f ulp at %v, want <= 1", worst, at)
	}
}

func ulpOf(x float64) float64 { return math.Nextafter(math.Abs(x), math.Inf(1)) - math.Abs(x) }

// TestSinCos2PiULP measures SinCos2Pi against the 160-bit reference and
// checks the 1-ulp bound of its doc comment. math.Sincos(2πu) is compared
// only in absolute terms (2^-50): it rounds 2πu first, so near the zeros
// of sin and cos its relative error is large.
func TestSinCos2PiULP(t *testing.T) {
	us := unitGrid(gridSize())
	us = append(us, 0.125, 0.25, 0.375, 0.5, 0.75, 1, 1.0/8+1.0/16, math.Nextafter(0.125, 0), -0.3, 3.7)
	worstS, worstC, atS, atC := 0.0, 0.0, 0.0, 0.0
	for _, u := range us {
		s, c := SinCos2Pi(u)
		rs, rc := bigSinCos2Pi(u)
		if e := ulpErr(s, rs); e > worstS {
			worstS, atS = e, u
		}
		if e := ulpErr(c, rc); e > worstC {
			worstC, atC = e, u
		}
		ms, mc := math.Sincos(2 * math.Pi * u)
		if math.Abs(u) <= 1 && (math.Abs(s-ms) > 0x1p-50 || math.Abs(c-mc) > 0x1p-50) {
			t.Errorf("SinCos2Pi(%v) = %v, %v; math.Sincos(2πu) = %v, %v", u, s, c, ms, mc)
		}
	}
	t.Logf("SinCos2Pi: max error sin %.3f ulp at %v, cos %.3f ulp at %v over %d inputs", worstS, atS, worstC, atC, len(us))
	if worstS > 1 || worstC > 1 {
		t.Errorf("SinCos2Pi: max error %.3f, %.3f ulp, want <= 1", worstS, worstC)
	}
}

// TestExpNonPosULP measures ExpNonPos against the 160-bit reference on
// [ExpMin, 0] (dense near 0, where swaps are decided, and over the whole
// range), checks the 1-ulp bound of its doc comment and its edge values.
func TestExpNonPosULP(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := gridSize() / 2
	var xs []float64
	for i := 0; i <= n; i++ {
		xs = append(xs, -20*float64(i)/float64(n), ExpMin*float64(i)/float64(n))
		xs = append(xs, ExpMin*rng.Float64(), -rng.ExpFloat64(), -math.Ldexp(rng.Float64(), -rng.IntN(60)))
	}
	xs = append(xs, ExpMin, math.Nextafter(ExpMin, 0), -math.Ln2/2, math.Nextafter(-math.Ln2/2, 0), -0x1p-1074)
	worst, at := 0.0, 0.0
	for _, x := range xs {
		got := ExpNonPos(x)
		e := ulpErr(got, bigExp(x))
		if e > worst {
			worst, at = e, x
		}
		if m := math.Exp(x); math.Abs(got-m) > 2*ulpOf(m) {
			t.Errorf("ExpNonPos(%v) = %v, math.Exp = %v", x, got, m)
		}
	}
	t.Logf("ExpNonPos: max error %.3f ulp at %v over %d inputs", worst, at, len(xs))
	if worst > 1 {
		t.Errorf("ExpNonPos: max error %.3f ulp at %v, want <= 1", worst, at)
	}
	for _, c := range []struct{ x, want float64 }{
		{0, 1}, {math.Copysign(0, -1), 1}, {math.Nextafter(ExpMin, math.Inf(-1)), 0}, {-1000, 0}, {math.Inf(-1), 0}, {math.NaN(), 0},
	} {
		if got := ExpNonPos(c.x); got != c.want {
			t.Errorf("ExpNonPos(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

// estrin is the reference definition of Estrin's scheme that logPoly and
// expPoly unroll.
func estrin(c []float64, x float64) float64 {
	q := append([]float64(nil), c...)
	for len(q) > 1 {
		var next []float64
		for i := 0; i+1 < len(q); i += 2 {
			next = append(next, math.FMA(q[i+1], x, q[i]))
		}
		if len(q)%2 == 1 {
			next = append(next, q[len(q)-1])
		}
		q = next
		x *= x
	}
	return q[0]
}

func TestUnrolledPolynomialsAreEstrin(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for i := 0; i < 10000; i++ {
		x := rng.Float64() - 0.4
		if a, b := logPoly(x, x*x), estrin(logP[:], x); math.Float64bits(a) != math.Float64bits(b) {
			t.Fatalf("logPoly(%v) = %v, estrin %v", x, a, b)
		}
		if a, b := expPoly(x), estrin(expE[:], x); math.Float64bits(a) != math.Float64bits(b) {
			t.Fatalf("expPoly(%v) = %v, estrin %v", x, a, b)
		}
	}
}
