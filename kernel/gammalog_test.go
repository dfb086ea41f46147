package kernel

import (
	"strconv"
	"testing"
)

// TestGammaTryLogMatchesTry checks MixGammaTry followed by GammaTryLog
// against GammaSampler.Try bit for bit, under every implementation, on
// first attempts drawn as the Beta-binomial block draws them (normals and
// uniforms of a Stream), for shapes from 0.05 (boosted) to 1e6, so that
// the squeeze, the logarithmic test and rejections (t ≤ 0 and the test
// failing) all occur, with more refused attempts per call than a batch of
// logarithms holds. It also checks that the logarithmic test was reached
// and that both outcomes happened.
func TestGammaTryLogMatchesTry(t *testing.T) {
	shapes := []float64{0.05, 0.3, 0.999, 1, 1.2, 2, 3.7, 10, 180, 1e3, 140180, 1e6}
	const rows = 512
	n := rows * L
	conc, g := make([]float64, n), make([]float64, n)
	x, u := make([]float64, n), make([]float64, n)
	var scratch GammaLogScratch
	for _, impl := range Impls() {
		restore, err := SetImpl(impl)
		if err != nil {
			t.Fatal(err)
		}
		refused, accepted, rejected, most := 0, 0, 0, 0
		for k, shape := range shapes {
			s := NewGammaSampler(shape)
			a := shape
			if s.Boosted() {
				a++
			}
			for i := range conc {
				conc[i] = a
			}
			rng := NewStream(uint64(k+1), 0)
			rng.Normal(x)
			rng.Uniform(u)
			MixGammaTry(g, conc, x, u)
			zeros := 0
			for _, v := range g {
				if v == 0 {
					zeros++
				}
			}
			refused += zeros
			most = max(most, zeros)
			GammaTryLog(g, conc, x, u, &scratch)
			for i := range g {
				want := s.Try(x[i], u[i])
				if !sameBits(g[i], want) {
					t.Fatalf("%s shape %v attempt %d (x=%v u=%v): %v, Try %v", impl, shape, i, x[i], u[i], g[i], want)
				}
				if want == 0 {
					rejected++
				} else {
					accepted++
				}
			}
		}
		restore()
		if most <= gammaLogBatch {
			t.Errorf("%s: at most %d attempts refused in one call, not more than a batch of %d", impl, most, gammaLogBatch)
		}
		if refused <= rejected || rejected == 0 {
			t.Errorf("%s: %d attempts refused by the squeeze, %d rejected by Try: the logarithmic test was not exercised both ways", impl, refused, rejected)
		}
		t.Logf("%s: %d accepted, %d refused by the squeeze, %d rejected", impl, accepted, refused, rejected)
	}
}

// TestGammaTryLogLengths checks that GammaTryLog panics with the
// package's message on mismatched lengths.
func TestGammaTryLogLengths(t *testing.T) {
	n := 2 * L
	f := func(k int) []float64 { return make([]float64, k) }
	var s GammaLogScratch
	for i, call := range []func(){
		func() { GammaTryLog(f(n), f(n-1), f(n), f(n), &s) },
		func() { GammaTryLog(f(n), f(n), f(n+L), f(n), &s) },
		func() { GammaTryLog(f(n), f(n), f(n), f(n-1), &s) },
	} {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			defer func() {
				if r := recover(); r != errLengths {
					t.Errorf("panic %v, want %q", r, errLengths)
				}
			}()
			call()
		})
	}
}
