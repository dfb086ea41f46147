package models

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMixLiveComponentsSkipsOnlyFlushedTerms checks liveComponents, on which
// the block's bit-for-bit agreement with the dense scalar rests: every
// component it leaves out must have E_ni = mixExp(l_ni - M_n) = 0 at every
// observation, M_n the largest term over all components, and the live
// components must come in increasing order. Half the trials put a pair of
// components at gaps near the threshold: component i is beaten by l by
// 690 to 720 at the two ends of the data range (so it is flushed at some
// observations and not at others, or nearly). The test also requires that
// components are left out (the trials make many beaten by far more than 701
// everywhere), so that it checks something.
func TestMixLiveComponentsSkipsOnlyFlushedTerms(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	models := []*Mixture{NewGalaxy(), NewMixture(3)}
	skipped, nearSkipped := 0, 0
	for trial := 0; trial < 4000; trial++ {
		m := models[trial%2]
		k := 1 + rng.IntN(8)
		beta, g2 := 2*rng.Float64(), 3*rng.Float64()*m.hLik
		cc, cb := make([]float64, k), make([]float64, k)
		span := m.ycHi - m.ycLo
		for i := range cc {
			muc := m.ycLo - span + 3*span*rng.Float64()
			if rng.IntN(3) == 0 {
				muc = 150 - m.yBar + rng.NormFloat64() // the galaxy's prior mean
			}
			cc[i], cb[i] = mixCoef(beta, g2, math.Log(rng.Float64()), muc)
		}
		near := k >= 2 && trial%4 < 2
		if near {
			// Component 1 beaten by component 0 by gLo and gHi at the ends.
			gLo, gHi := -690-30*rng.Float64(), -690-30*rng.Float64()
			db := (gHi - gLo) / (m.ycHi - m.ycLo)
			cb[1] = cb[0] + db
			cc[1] = cc[0] + gLo - db*m.ycLo
		}
		live := m.liveComponents(cc, cb, nil)
		for p := 1; p < len(live); p++ {
			if live[p] <= live[p-1] {
				t.Fatalf("trial %d: live components %v not increasing", trial, live)
			}
		}
		isLive := make([]bool, k)
		for _, i := range live {
			isLive[i] = true
		}
		for i := range cc {
			if isLive[i] {
				continue
			}
			skipped++
			if near && i == 1 {
				nearSkipped++
			}
			for n, y := range m.yc {
				mx := math.Inf(-1)
				for l := range cc {
					mx = max(mx, mixTerm(cc[l], cb[l], y))
				}
				if e := mixExp(mixTerm(cc[i], cb[i], y) - mx); e != 0 {
					t.Fatalf("trial %d: component %d left out, but E = %v at observation %d", trial, i, e, n)
				}
			}
		}
	}
	t.Logf("components left out: %d, of them near the threshold: %d", skipped, nearSkipped)
	if skipped < 1000 || nearSkipped < 100 {
		t.Errorf("too few components left out (%d, %d near the threshold) for the test to have power", skipped, nearSkipped)
	}
}

// TestMixLogRatioStepSumsLogs checks mixLogRatioStep against the sum of the
// logarithms of the ratios: sequences of ratios spread over [1e-300, 1e300]
// (with runs of large or small ones that push the product out of range, and
// zero, infinite and NaN ratios), the result d + log(p) within
// 1e-12 Σ|log(ratio)| of Σ log(ratio) (the rounding of both: a product of
// up to 10^3 factors has relative error below 10^3 ulp, 2e-13, each of the
// few logarithms one ulp, and the plain sum n ulps of its largest partial
// sum).
func TestMixLogRatioStepSumsLogs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(1000)
		scale := []float64{0.1, 3, 50, 300}[trial%4]
		drift := scale * (rng.Float64() - 0.5) / 10
		p, d, want, abs := 1.0, 0.0, 0.0, 0.0
		for i := 0; i < n; i++ {
			lr := drift + scale*(2*rng.Float64()-1)
			lr = max(-690, min(690, lr))
			ratio := math.Exp(lr)
			want += math.Log(ratio)
			abs += math.Abs(math.Log(ratio))
			p, d = mixLogRatioStep(p, d, ratio)
		}
		got := d + math.Log(p)
		if math.Abs(got-want) > 1e-12*math.Max(1, abs) {
			t.Fatalf("trial %d (n=%d, scale %v): %v, Σ log = %v", trial, n, scale, got, want)
		}
	}
	for _, tc := range []struct {
		ratio float64
		want  float64
	}{{0, math.Inf(-1)}, {math.Inf(1), math.Inf(1)}} {
		p, d := mixLogRatioStep(1, 0, 2)
		p, d = mixLogRatioStep(p, d, tc.ratio)
		if got := d + math.Log(p); got != tc.want {
			t.Errorf("ratio %v: %v, want %v", tc.ratio, got, tc.want)
		}
	}
	if p, d := mixLogRatioStep(1, 0, math.NaN()); !math.IsNaN(d + math.Log(p)) {
		t.Error("a NaN ratio does not give a NaN sum")
	}
}

// TestMixWeightFactors checks the scaled factors of mixWeightFactors:
// a_i e^λ = (w'_i/w_i)^β to 1e-13 relative (two roundings in the exponent,
// whose magnitude is below 40, and one in each exponential), the largest a_i
// exactly 1.
func TestMixWeightFactors(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 1000; trial++ {
		k := 1 + rng.IntN(6)
		beta := 3 * rng.Float64()
		lw, lwp, a := make([]float64, k), make([]float64, k), make([]float64, k)
		for i := range lw {
			lw[i], lwp[i] = -10*rng.Float64(), -10*rng.Float64()
		}
		lambda := mixWeightFactors(beta, lw, lwp, a)
		largest := 0.0
		for i := range a {
			want := math.Pow(math.Exp(lwp[i])/math.Exp(lw[i]), beta)
			if got := a[i] * math.Exp(lambda); math.Abs(got-want) > 1e-13*want {
				t.Fatalf("trial %d: a_%d e^λ = %v, (w'/w)^β = %v", trial, i, got, want)
			}
			largest = max(largest, a[i])
		}
		if largest != 1 {
			t.Fatalf("trial %d: largest factor %v, want 1", trial, largest)
		}
	}
}
