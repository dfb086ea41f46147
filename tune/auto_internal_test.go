package tune

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIsotonic checks the pool-adjacent-violators fit against the
// max–min formula of the least-squares non-decreasing fit (Robertson,
// Wright and Dykstra 1988, Theorem 1.4.4),
//
//	fit_i = max_{j ≤ i} min_{k ≥ i} mean(x_j … x_k),
//
// on random vectors with and without ties.
func TestIsotonic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 500; trial++ {
		n := 1 + rng.IntN(9)
		x := make([]float64, n)
		for i := range x {
			x[i] = math.Round(4 * rng.NormFloat64()) // ties are common
			if trial%2 == 1 {
				x[i] = rng.NormFloat64()
			}
		}
		want := make([]float64, n)
		for i := range want {
			best := math.Inf(-1)
			for j := 0; j <= i; j++ {
				low := math.Inf(1)
				for k := i; k < n; k++ {
					s := 0.0
					for _, v := range x[j : k+1] {
						s += v
					}
					low = math.Min(low, s/float64(k-j+1))
				}
				best = math.Max(best, low)
			}
			want[i] = best
		}
		got := slices.Clone(x)
		isotonic(got, make([]float64, n))
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
				t.Fatalf("isotonic(%v) = %v, want %v", x, got, want)
			}
		}
	}
}

// TestStepLog checks the log-space step of the automatic tuner: a step
// that keeps the knots monotone and at most 1 multiplies them by e^δ
// exactly; a step that breaks the order is projected onto monotone knots
// (each component the isotonic fit of its θ, clamped at 0); the knots stay
// in (0, 1] and monotone in every case, and the endpoints never move.
func TestStepLog(t *testing.T) {
	s := NewSpline(4)
	if err := s.SetKnots([][2]float64{{1, 0}, {0.5, 0.01}, {0.1, 0.02}, {0.01, 0.2}, {0, 1}}); err != nil {
		t.Fatal(err)
	}
	delta := []float64{-0.1, 0.2, 0.3, -0.05, 0.1, 0.4}
	want := s.Knots()
	for c, d := range delta {
		want[c/2+1][c%2] *= math.Exp(d)
	}
	s.stepLog(delta, make([]float64, 6))
	for k, kn := range s.Knots() {
		for i := 0; i < 2; i++ {
			if math.Abs(kn[i]-want[k][i]) > 1e-15*want[k][i] {
				t.Errorf("knot %d component %d: %v, want %v", k, i, kn[i], want[k][i])
			}
		}
	}

	// Knot 2's η1 stepped from 0.02 to 0.005, below knot 1's 0.01: both
	// become the geometric mean, the exp of the mean of their logarithms;
	// knot 3's η1 stepped from 0.2 to 5 is clamped at 1.
	if err := s.SetKnots([][2]float64{{1, 0}, {0.5, 0.01}, {0.1, 0.02}, {0.01, 0.2}, {0, 1}}); err != nil {
		t.Fatal(err)
	}
	s.stepLog([]float64{0, 0, 0, math.Log(0.25), 0, math.Log(25)}, make([]float64, 6))
	k := s.Knots()
	if g := math.Sqrt(0.01 * 0.005); math.Abs(k[1][1]-g) > 1e-15 || math.Abs(k[2][1]-g) > 1e-15 {
		t.Errorf("pooled η1: %v and %v, want both %v", k[1][1], k[2][1], g)
	}
	if k[3][1] != 1 {
		t.Errorf("η1 of knot 3 stepped to 5: %v, want 1", k[3][1])
	}
	rng := rand.New(rand.NewPCG(8, 9))
	for trial := 0; trial < 200; trial++ {
		numKnots := 2 + rng.IntN(6)
		s := NewSpline(numKnots)
		d := make([]float64, 2*(numKnots-1))
		for step := 0; step < 20; step++ {
			for i := range d {
				d[i] = 2 * rng.NormFloat64()
			}
			s.stepLog(d, make([]float64, len(d)))
			k := s.Knots()
			if k[0] != [2]float64{1, 0} || k[numKnots] != [2]float64{0, 1} {
				t.Fatalf("endpoints moved: %v", k)
			}
			for j := 1; j < numKnots; j++ {
				for i := 0; i < 2; i++ {
					if !(k[j][i] > 0 && k[j][i] <= 1) {
						t.Fatalf("knot %d component %d = %v outside (0, 1]: %v", j, i, k[j][i], k)
					}
				}
				if k[j][0] > k[j-1][0] || k[j][1] < k[j-1][1] {
					t.Fatalf("not monotone at knot %d: %v", j, k)
				}
			}
		}
	}
}
