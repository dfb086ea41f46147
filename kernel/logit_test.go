package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ptbatch/ptbatch/asm"
)

// logitTile returns a tile of 10 states (two blocks of four and two
// alone) × 150 observations (two full groups of LogitGroup and a partial
// one) of predictors, stride 152 (the padding NaN, which must not reach
// the sums), and the responses: the special values first (zeros of both
// signs, tiny and huge magnitudes, e^−|η| underflowing past asm.ExpMin ≈
// −708, values where 1 + e^−|η| rounds), then N(0, 6²) draws of stream
// PCG(1, 2), with responses of probability ½.
func logitTile() (eta, y []float64, rows, stride int) {
	special := []float64{0, math.Copysign(0, -1), 1e-300, -1e-300, 1e-17, -1e-17, 0.5, -0.5, 36, -36, 37.5, -37.5,
		700, -700, 709, -709, 745, -745, 1e300, -1e300}
	const n = 150
	rows, stride = 10, 152
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < rows*stride; i++ {
		switch {
		case i%stride >= n:
			eta = append(eta, math.NaN())
		case i < len(special):
			eta = append(eta, special[i])
		default:
			eta = append(eta, r.NormFloat64()*6)
		}
	}
	for range n {
		y = append(y, float64(r.IntN(2)))
	}
	return eta, y, rows, stride
}

// TestLogitSumsMatchTwin checks LogitSums against LogitSumsGeneric bit for
// bit under every implementation the CPU offers, and the vector
// exponential against asm.ExpNonPos.
func TestLogitSumsMatchTwin(t *testing.T) {
	eta, y, rows, stride := logitTile()
	wantL, wantR := make([]float64, rows), make([]float64, len(eta))
	LogitSumsGeneric(wantL, wantR, eta, y, stride)
	for _, name := range Impls() {
		restore, err := SetImpl(name)
		if err != nil {
			t.Fatal(err)
		}
		ll, r := make([]float64, rows), make([]float64, len(eta))
		LogitSums(ll, r, eta, y, stride, make([]float64, len(eta)+2*LogitScratchRows(rows, len(y))))
		e := make([]float64, len(eta))
		expNegAbs(e, eta)
		restore()
		for j := range ll {
			if math.Float64bits(ll[j]) != math.Float64bits(wantL[j]) || math.IsNaN(ll[j]) {
				t.Fatalf("%s: state %d: ll %v, twin %v", name, j, ll[j], wantL[j])
			}
		}
		for i := range r {
			if i%stride < len(y) && math.Float64bits(r[i]) != math.Float64bits(wantR[i]) {
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
// exp(−η)): sums within 1e-13 absolute (150 terms of size about 10,
// each group's logarithm within 64 ulps), or 1e-15 relative for the
// state holding the ±1e300 predictors, residuals within 4e-16.
func TestLogitSumsAccuracy(t *testing.T) {
	eta, y, rows, stride := logitTile()
	ll, r := make([]float64, rows), make([]float64, len(eta))
	LogitSums(ll, r, eta, y, stride, make([]float64, len(eta)+2*LogitScratchRows(rows, len(y))))
	want := make([]float64, rows)
	for i, x := range eta {
		k, o := i/stride, i%stride
		if o >= len(y) {
			continue
		}
		sp := math.Log1p(math.Exp(x))
		if x > 0 {
			sp = x + math.Log1p(math.Exp(-x))
		}
		want[k] += y[o]*x - sp
		if d := math.Abs(r[i] - (y[o] - 1/(1+math.Exp(-x)))); d > 4e-16 {
			t.Errorf("η = %v: residual off by %v", x, d)
		}
	}
	for j := range ll {
		if d := math.Abs(ll[j] - want[j]); d > 1e-13 && d > 1e-15*math.Abs(want[j]) {
			t.Errorf("state %d: sum %v, terms one by one %v", j, ll[j], want[j])
		}
	}
	nan := make([]float64, 16)
	nan[8] = math.NaN() // state 1's one observation
	l2 := make([]float64, 2)
	LogitSums(l2, nil, nan, []float64{1}, 8, make([]float64, 32))
	if l2[0] != -math.Ln2 || !math.IsNaN(l2[1]) {
		t.Errorf("η = 0 and NaN: sums %v, want −log 2 and NaN", l2)
	}
}

// TestLogitSumsCheckLengths checks that lengths that do not agree panic
// with the kernels' message, and that lengths that agree do not.
func TestLogitSumsCheckLengths(t *testing.T) {
	LogitSums(make([]float64, 2), make([]float64, 16), make([]float64, 16), make([]float64, 3), 8, make([]float64, 32))
	for _, c := range []struct{ ll, resid, eta, y, stride, scratch int }{
		{2, 0, 15, 3, 8, 32}, {2, 0, 14, 3, 7, 32}, {2, 0, 16, 3, 8, 31}, {2, 15, 16, 3, 8, 32}, {2, 0, 16, 9, 8, 32}, {3, 0, 16, 3, 8, 40},
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
