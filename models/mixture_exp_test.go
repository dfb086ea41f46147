package models

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// mixULP returns |a - b| in units of the last place of b.
func mixULP(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / (math.Nextafter(b, math.Inf(1)) - b)
}

// mixLn2Digits is ln 2 to 100 digits (OEIS A002162).
const mixLn2Digits = "0.6931471805599453094172321214581765680755001343602552541206800094933936219696947156058633269964186875"

// mixExpReference returns e^x rounded from a 160-bit computation:
// x = k ln 2 + r with |r| ≤ ln 2 / 2, e^r by 40 Taylor terms (truncation
// below (ln2/2)^41/41! < 1e-68), times 2^k.
func mixExpReference(x float64) float64 {
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
	sum.SetMantExp(sum, int(k))
	f, _ := sum.Float64()
	return f
}

// mixExpArgs returns n arguments: a third over [-750, 710], a third over
// [-40, 0] (the typical label terms of the mixture), a third over
// [-0.5, 0.5], after some special ones.
func mixExpArgs(n int) []float64 {
	rng := rand.New(rand.NewPCG(8, 8))
	xs := []float64{0, -1e-300, 1e-300, -0.5 * math.Ln2, 0.5 * math.Ln2, -708, -708.0001, 709, 709.5, -745, -746, 1, -1}
	for i := 0; i < n; i++ {
		switch i % 3 {
		case 0:
			xs = append(xs, -750+1460*rng.Float64())
		case 1:
			xs = append(xs, -40*rng.Float64())
		default:
			xs = append(xs, -0.5+rng.Float64())
		}
	}
	return xs
}

// TestMixExpAccuracy checks mixExp against e^x computed to 160 bits
// (mixExpReference): at most 1 ulp off in the normal range (the largest
// error found is logged), math.Exp's result outside [-708, 709]; and the
// special values: exact at 0, 0 for -Inf, +Inf for +Inf, NaN for NaN.
func TestMixExpAccuracy(t *testing.T) {
	n := 30000
	if testing.Short() {
		n = 6000
	}
	worst := 0.0
	for _, x := range mixExpArgs(n) {
		got := mixExp(x)
		if !(x >= -708 && x <= 709) {
			if math.Float64bits(got) != math.Float64bits(math.Exp(x)) {
				t.Fatalf("mixExp(%v) = %v, want math.Exp's %v", x, got, math.Exp(x))
			}
			continue
		}
		want := mixExpReference(x)
		u := mixULP(got, want)
		worst = math.Max(worst, u)
		if u > 1 {
			t.Fatalf("mixExp(%v) = %v, e^x = %v: %.2f ulp", x, got, want, u)
		}
	}
	t.Logf("largest error: %.3f ulp", worst)
	if mixExp(0) != 1 || mixExp(math.Inf(-1)) != 0 || !math.IsInf(mixExp(math.Inf(1)), 1) || !math.IsNaN(mixExp(math.NaN())) {
		t.Error("special values wrong")
	}
}

func BenchmarkMixExp(b *testing.B) {
	xs := mixExpArgs(3000)
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
