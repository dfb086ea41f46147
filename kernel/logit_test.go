package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ptbatch/ptbatch/asm"
)

// logitTile returns a tile of 150 rows (two full groups of LogitGroup and
// a partial one) × 16 columns of predictors and responses: the special
// values first (zeros of both signs, tiny and huge magnitudes, e^−|η|
// underflowing past asm.ExpMin ≈ −708, values where 1 + e^−|η| rounds),
// then N(0, 6²) draws of stream PCG(1, 2), with responses of probability
// ½.
func logitTile() (eta, y []float64, stride int) {
	special := []float64{0, math.Copysign(0, -1), 1e-300, -1e-300, 1e-17, -1e-17, 0.5, -0.5, 36, -36, 37.5, -37.5,
		700, -700, 709, -709, 745, -745, 1e300, -1e300}
	const rows = 150
	stride = 16
	r := rand.New(rand.NewPCG(1, 2))
	eta = append(eta, special...)
	for len(eta) < rows*stride {
		eta = append(eta, r.NormFloat64()*6)
	}
	for range rows {
		y = append(y, float64(r.IntN(2)))
	}
	return eta, y, stride
}

// TestLogitSumsMatchTwin checks LogitSums against LogitSumsGeneric bit for
// bit under every implementation the CPU offers, and the vector
// exponential against asm.ExpNonPos.
func TestLogitSumsMatchTwin(t *testing.T) {
	eta, y, stride := logitTile()
	wantL, wantR := make([]float64, stride), make([]float64, len(eta))
	LogitSumsGeneric(wantL, wantR, eta, y, stride)
	for _, name := range Impls() {
		restore, err := SetImpl(name)
		if err != nil {
			t.Fatal(err)
		}
		ll, r := make([]float64, stride), make([]float64, len(eta))
		LogitSums(ll, r, eta, y, stride, make([]float64, len(eta)+2*stride))
		e := make([]float64, len(eta))
		expNegAbs(e, eta)
		restore()
		for j := range ll {
			if math.Float64bits(ll[j]) != math.Float64bits(wantL[j]) {
				t.Fatalf("%s: column %d: ll %v, twin %v", name, j, ll[j], wantL[j])
			}
		}
		for i := range r {
			if math.Float64bits(r[i]) != math.Float64bits(wantR[i]) {
				t.Fatalf("%s: η = %v: residual %v, twin %v", name, eta[i], r[i], wantR[i])
			}
			if want := asm.ExpNonPos(-math.Abs(eta[i])); math.Float64bits(e[i]) != math.Float64bits(want) {
				t.Fatalf("%s: exp(−|%v|) = %v, asm.ExpNonPos %v", name, eta[i], e[i], want)
			}
		}
	}
}

// TestLogitSumsAccuracy checks the sums against the textbook terms
// y·η − log1p(exp(η)) (η + log1p(exp(−η)) for η > 0, which does not
// overflow) added one by one, and the residuals against y − 1/(1 +
// exp(−η)): sums within 1e-13 absolute (150 terms of size up to 1e300 are
// left out: the columns holding the ±1e300 predictors are compared
// relative, 1e-15), residuals within 4e-16.
func TestLogitSumsAccuracy(t *testing.T) {
	eta, y, stride := logitTile()
	ll, r := make([]float64, stride), make([]float64, len(eta))
	LogitSums(ll, r, eta, y, stride, make([]float64, len(eta)+2*stride))
	want := make([]float64, stride)
	for i, x := range eta {
		sp := math.Log1p(math.Exp(x))
		if x > 0 {
			sp = x + math.Log1p(math.Exp(-x))
		}
		want[i%stride] += y[i/stride]*x - sp
		if d := math.Abs(r[i] - (y[i/stride] - 1/(1+math.Exp(-x)))); d > 4e-16 {
			t.Errorf("η = %v: residual off by %v", x, d)
		}
	}
	for j := range ll {
		if d := math.Abs(ll[j] - want[j]); d > 1e-13 && d > 1e-15*math.Abs(want[j]) {
			t.Errorf("column %d: sum %v, terms one by one %v", j, ll[j], want[j])
		}
	}
	nan := append([]float64{math.NaN()}, make([]float64, 7)...)
	l8 := make([]float64, 8)
	LogitSums(l8, nil, nan, []float64{1}, 8, make([]float64, 24))
	if !math.IsNaN(l8[0]) || l8[1] != -math.Ln2 {
		t.Errorf("η = (NaN, 0, …): sums %v, want NaN then −log 2", l8[:2])
	}
}

// TestLogitSumsCheckLengths checks that lengths that do not agree panic
// with the kernels' message, and that lengths that agree do not.
func TestLogitSumsCheckLengths(t *testing.T) {
	LogitSums(make([]float64, 8), make([]float64, 16), make([]float64, 16), make([]float64, 2), 8, make([]float64, 32))
	for _, c := range []struct{ ll, resid, eta, y, stride, scratch int }{
		{8, 0, 15, 2, 8, 32}, {7, 0, 14, 2, 7, 32}, {8, 0, 16, 2, 8, 31}, {8, 15, 16, 2, 8, 32}, {16, 0, 16, 2, 8, 32},
	} {
		func() {
			defer func() {
				if r := recover(); r != errLengths {
					t.Errorf("lengths %v: panic %v, want %v", c, r, errLengths)
				}
			}()
			var resid []float64
			if c.resid > 0 {
				resid = make([]float64, c.resid)
			}
			LogitSums(make([]float64, c.ll), resid, make([]float64, c.eta), make([]float64, c.y), c.stride, make([]float64, c.scratch))
		}()
	}
}
