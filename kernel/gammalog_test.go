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
// failing) all occur. It also checks that the logarithmic test was reached
// and that both outcomes happened.
func TestGammaTryLogMatchesTry(t *testing.T) {
	shapes := []float64{0.05, 0.3, 0.999, 1, 1.2, 2, 3.7, 10, 180, 1e3, 140180, 1e6}
	const rows = 64
	n := rows * L
	conc, g := make([]float64, n), make([]float64, n)
	x, u := make([]float64, n), make([]float64, n)
	logs, idx := make([]float64, 4*n), make([]int32, n)
	for _, impl := range Impls() {
		restore, err := SetImpl(impl)
		if err != nil {
			t.Fatal(err)
		}
		refused, accepted, rejected := 0, 0, 0
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
			for _, v := range g {
				if v == 0 {
					refused++
				}
			}
			GammaTryLog(g, conc, x, u, logs, idx)
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
		if refused <= rejected || rejected == 0 {
			t.Errorf("%s: %d attempts refused by the squeeze, %d rejected by Try: the logarithmic test was not exercised both ways", impl, refused, rejected)
		}
		t.Logf("%s: %d accepted, %d refused by the squeeze, %d rejected", impl, accepted, refused, rejected)
	}
}

// TestGammaTryLogLengths checks that GammaTryLog panics with the
// package's message on mismatched lengths and short scratch.
func TestGammaTryLogLengths(t *testing.T) {
	n := 2 * L
	f := func(k int) []float64 { return make([]float64, k) }
	for i, call := range []func(){
		func() { GammaTryLog(f(n+1), f(n+1), f(n+1), f(n+1), f(4*n+4), make([]int32, n+1)) },
		func() { GammaTryLog(f(n), f(n-L), f(n), f(n), f(4*n), make([]int32, n)) },
		func() { GammaTryLog(f(n), f(n), f(n+L), f(n), f(4*n), make([]int32, n)) },
		func() { GammaTryLog(f(n), f(n), f(n), f(n-1), f(4*n), make([]int32, n)) },
		func() { GammaTryLog(f(n), f(n), f(n), f(n), f(4*n-1), make([]int32, n)) },
		func() { GammaTryLog(f(n), f(n), f(n), f(n), f(4*n), make([]int32, n-1)) },
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
