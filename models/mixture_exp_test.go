package models

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// mixULP returns |a - e| in units of the last place of the float64s near
// e (the spacing of the float64s in the binade of e), e exact.
func mixULP(a float64, e *big.Float) float64 {
	ef, _ := e.Float64()
	_, exp := math.Frexp(ef)
	d := new(big.Float).SetPrec(e.Prec()).SetFloat64(a)
	d.Sub(d, e)
	d.SetMantExp(d, 53-exp) // ulp = 2^(exp-53) for ef in [2^(exp-1), 2^exp)
	u, _ := d.Float64()
	return math.Abs(u)
}

// mixLn2Digits is ln 2 to 100 digits (OEIS A002162).
const mixLn2Digits = "0.6931471805599453094172321214581765680755001343602552541206800094933936219696947156058633269964186875"

// mixExpReference returns e^x to 160 bits: x = k ln 2 + r with
// |r| ≤ ln 2 / 2, e^r by 40 Taylor terms (truncation below
// (ln2/2)^41/41! < 1e-68), times 2^k.
func mixExpReference(x float64) *big.Float {
	const prec = 160
	ln2, _, _ := big.ParseFloat(mixLn2Digits, 10, prec, big.ToNearestEven)
	k := math.Round(x / math.Ln2)
	r := new(big.Float).SetPrec(prec).SetFloat64(x)
	r.Sub(r, new(big.Float).SetPrec(prec).Mul(ln2, big.NewFloat(k)))
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for n := 1; n <= 40; n++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(int64(n)))
		sum.Add(sum, term)
	}
	return sum.SetMantExp(sum, int(k))
}

// mixExpArgs returns n arguments: a third over [-720, 709], a third over
// [-40, 0] (the typical label terms of the mixture), a third over
// [-0.5, 0.5], after some special ones (the ends of the range, the flush
// threshold and the points where the table index wraps).
func mixExpArgs(n int) []float64 {
	rng := rand.New(rand.NewPCG(8, 8))
	xs := []float64{0, -1e-300, 1e-300, -0.5 * math.Ln2, 0.5 * math.Ln2, -700, -700.0000001, -699.9999999,
		709, 708.9, -708, -745, -746, 1, -1, math.Ln2 / 256, -math.Ln2 / 256, math.Ln2 / 128, 3 * math.Ln2 / 256}
	for i := 0; i < n; i++ {
		switch i % 3 {
		case 0:
			xs = append(xs, -720+1429*rng.Float64())
		case 1:
			xs = append(xs, -40*rng.Float64())
		default:
			xs = append(xs, -0.5+rng.Float64())
		}
	}
	return xs
}

// TestMixExpAccuracy checks mixExp against e^x computed to 160 bits
// (mixExpReference): at most 0.52 ulp from the exact value on [-700, 709]
// (the bound of mixExps, a correctly rounded result being up to 0.5 ulp
// off; the largest error found is logged), 0 below -700, for -Inf and
// for NaN; and mixExps on a slice agrees with mixExp value by value.
func TestMixExpAccuracy(t *testing.T) {
	n := 30000
	if testing.Short() {
		n = 6000
	}
	xs := mixExpArgs(n)
	worst := 0.0
	for _, x := range xs {
		got := mixExp(x)
		if x < mixExpMin {
			if got != 0 || math.Signbit(got) {
				t.Fatalf("mixExp(%v) = %v, want 0 below %v", x, got, mixExpMin)
			}
			continue
		}
		want := mixExpReference(x)
		u := mixULP(got, want)
		worst = math.Max(worst, u)
		if u > 0.52 {
			t.Fatalf("mixExp(%v) = %v, e^x = %v: %.3f ulp", x, got, want, u)
		}
	}
	t.Logf("largest error: %.3f ulp", worst)
	if mixExp(0) != 1 || mixExp(math.Inf(-1)) != 0 || mixExp(math.NaN()) != 0 {
		t.Error("special values wrong")
	}
	ys := append([]float64(nil), xs...)
	mixExps(ys)
	for i, x := range xs {
		if math.Float64bits(ys[i]) != math.Float64bits(mixExp(x)) {
			t.Fatalf("mixExps gives %v at %v, mixExp %v", ys[i], x, mixExp(x))
		}
	}
}

// BenchmarkMixExp times mixExps over a slice (as the sweeps call it; the
// copy that restores the arguments is included), mixExp and math.Exp value
// by value.
func BenchmarkMixExp(b *testing.B) {
	xs := mixExpArgs(3000)
	b.Run("impl=mixExps", func(b *testing.B) {
		buf := make([]float64, len(xs))
		for b.Loop() {
			copy(buf, xs)
			mixExps(buf)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(xs)), "ns/exp")
	})
	for _, impl := range []struct {
		name string
		f    func(float64) float64
	}{{"mixExp", mixExp}, {"math.Exp", math.Exp}} {
		b.Run("impl="+impl.name, func(b *testing.B) {
			s := 0.0
			for b.Loop() {
				for _, x := range xs {
					s += impl.f(x)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(xs)), "ns/exp")
		})
	}
}
