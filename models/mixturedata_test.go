package models

import (
	"math"
	"testing"
)

// TestMixtureDataSimulation checks the simulated data: reproducible from
// the seed, different across seeds, and from 0.3·N(100, 10²) +
// 0.7·N(200, 10²). Points below 150 are those of component 0 but for a
// 5σ tail (probability 3e-7 each), so their fraction is Binomial(1000,
// 0.3)/1000 with SE √(0.21/1000) = 0.0145; the mean of the points of each
// component has SE 10/√(count) ≤ 0.6; the test allows 5 SE.
func TestMixtureDataSimulation(t *testing.T) {
	y := MixtureData(2021)
	if len(y) != MixtureDataSize {
		t.Fatalf("%d points, want %d", len(y), MixtureDataSize)
	}
	again, other := MixtureData(2021), MixtureData(2022)
	same := 0
	for n := range y {
		if y[n] != again[n] {
			t.Fatalf("point %d differs between two calls with the same seed", n)
		}
		if y[n] == other[n] {
			same++
		}
	}
	if same > 0 {
		t.Errorf("%d points equal under seeds 2021 and 2022", same)
	}
	var c0, s0, s1 float64
	for _, v := range y {
		if v < 150 {
			c0++
			s0 += v
		} else {
			s1 += v
		}
	}
	frac, m0, m1 := c0/MixtureDataSize, s0/c0, s1/(MixtureDataSize-c0)
	if math.Abs(frac-0.3) > 5*0.0145 || math.Abs(m0-100) > 5*10/math.Sqrt(c0) || math.Abs(m1-200) > 5*10/math.Sqrt(MixtureDataSize-c0) {
		t.Errorf("fraction below 150 %v (want 0.3), means %v, %v (want 100, 200)", frac, m0, m1)
	}
	m := NewMixture(2021)
	if m.Name() != "mixture" || m.p.K != 2 || m.p.Sigma != 10 || len(m.p.Data) != MixtureDataSize || m.p.Data[5] != y[5] {
		t.Errorf("mixture model %+v", m.p)
	}
}
