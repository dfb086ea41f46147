package models

import "testing"

// countingRand returns 0.5 for uniforms and 1, 2, 3, … for normals, in
// order, so that a test sees which draws were made.
type countingRand struct{ n float64 }

func (r *countingRand) Uniform() float64 { return 0.5 }
func (r *countingRand) Normal() float64  { r.n++; return r.n }

// TestStdNormal checks N(0, I)'s functions against the closed forms at
// x = (1, −2, 0.5): −|x|²/2 = −(1 + 4 + 0.25)/2 = −2.625 (exact in
// float64), gradient −x; and that a draw is one Normal per coordinate,
// in order.
func TestStdNormal(t *testing.T) {
	x := []float64{1, -2, 0.5}
	if got := StdNormalLog(x); got != -2.625 {
		t.Errorf("StdNormalLog(%v) = %v, want -2.625", x, got)
	}
	g := make([]float64, 3)
	StdNormalGrad(x, g)
	for d := range x {
		if g[d] != -x[d] {
			t.Errorf("StdNormalGrad: coordinate %d is %v, want %v", d, g[d], -x[d])
		}
	}
	r := &countingRand{}
	StdNormalDraw(r, x)
	for d, v := range x {
		if v != float64(d+1) {
			t.Errorf("StdNormalDraw: coordinate %d is %v, want the %d-th normal", d, v, d+1)
		}
	}
}
