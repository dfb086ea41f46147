package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// logitInputs returns predictors covering the kernel's cases: zeros of
// both signs, tiny and huge magnitudes (e^−|η| underflowing past
// asm.ExpMin ≈ −708), values near the rounding of 1 + e, and random
// values of the size a regression gives (seeded stream 1, 2).
func logitInputs() []float64 {
	x := []float64{0, math.Copysign(0, -1), 1e-300, -1e-300, 1e-17, -1e-17, 0.5, -0.5, 36, -36, 37.5, -37.5,
		700, -700, 709, -709, 745, -745, 1e300, -1e300}
	r := rand.New(rand.NewPCG(1, 2))
	for len(x) < 8*64 {
		x = append(x, r.NormFloat64()*6)
	}
	return x
}

// TestLogitTermsMatchTwin checks LogitTerms against its plain-Go twin bit
// for bit under every implementation the CPU offers.
func TestLogitTermsMatchTwin(t *testing.T) {
	eta := logitInputs()
	n := len(eta)
	wantS, wantG := make([]float64, n), make([]float64, n)
	LogitTermsGeneric(wantS, wantG, eta)
	for _, name := range Impls() {
		restore, err := SetImpl(name)
		if err != nil {
			t.Fatal(err)
		}
		s, g, scratch := make([]float64, n), make([]float64, n), make([]float64, n)
		LogitTerms(s, g, eta, scratch)
		restore()
		for i := range eta {
			if math.Float64bits(s[i]) != math.Float64bits(wantS[i]) || math.Float64bits(g[i]) != math.Float64bits(wantG[i]) {
				t.Fatalf("%s: η = %v: (%v, %v), twin (%v, %v)", name, eta[i], s[i], g[i], wantS[i], wantG[i])
			}
		}
	}
}

// TestLogitTermsAccuracy checks the terms against the textbook forms
// log1p(exp(η)) (for η < 30, where it does not overflow; η beyond:
// η + log1p(exp(−η))) and 1/(1+exp(−η)): relative error within 4e-16
// (the exponential's 1 ulp, the logarithm's and the sum's rounding, each
// 2^-53 ≈ 1.1e-16) or absolute 1e-300 (underflow), and NaN in, NaN out.
func TestLogitTermsAccuracy(t *testing.T) {
	eta := logitInputs()
	n := len(eta)
	s, g := make([]float64, n), make([]float64, n)
	LogitTerms(s, g, eta, make([]float64, n))
	for i, x := range eta {
		want := math.Log1p(math.Exp(x))
		if x > 30 {
			want = x + math.Log1p(math.Exp(-x))
		}
		wantG := 1 / (1 + math.Exp(-x))
		for _, c := range []struct{ got, want float64 }{{s[i], want}, {g[i], wantG}} {
			if d := math.Abs(c.got - c.want); d > 4e-16*math.Abs(c.want) && d > 1e-300 {
				t.Errorf("η = %v: got %v, want %v", x, c.got, c.want)
			}
		}
	}
	nan := []float64{math.NaN(), 0, 0, 0, 0, 0, 0, 0}
	LogitTerms(s[:8], nil, nan, make([]float64, 8))
	if !math.IsNaN(s[0]) {
		t.Errorf("softplus(NaN) = %v", s[0])
	}
}

// TestLogitTermsCheckLengths checks that lengths that are not whole rows
// or do not match panic with the kernels' message.
func TestLogitTermsCheckLengths(t *testing.T) {
	for _, c := range []struct{ s, g, eta, scratch int }{{8, 8, 7, 8}, {8, 7, 8, 8}, {7, 7, 8, 8}, {8, 8, 8, 7}} {
		func() {
			defer func() {
				if r := recover(); r != errLengths {
					t.Errorf("lengths %v: panic %v, want %v", c, r, errLengths)
				}
			}()
			LogitTerms(make([]float64, c.s), make([]float64, c.g), make([]float64, c.eta), make([]float64, c.scratch))
		}()
	}
}
