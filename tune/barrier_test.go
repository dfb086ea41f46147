package tune

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomScheduleRejections returns a random schedule of numChains points
// from 0 to 1 (with a repeated point when repeat is set) and random
// rejections in [0, 1], some of them 0 or 1.
func randomScheduleRejections(rng *rand.Rand, numChains int, repeat bool) (sched, rej []float64) {
	sched = make([]float64, numChains)
	for n := 1; n < numChains; n++ {
		sched[n] = sched[n-1] + 0.01 + rng.Float64()
	}
	for n := range sched {
		sched[n] /= sched[numChains-1]
	}
	if repeat && numChains > 3 {
		k := 1 + rng.IntN(numChains-3)
		sched[k+1] = sched[k]
	}
	rej = make([]float64, numChains-1)
	for n := range rej {
		switch u := rng.Float64(); {
		case u < 0.1:
			rej[n] = 0
		case u < 0.15:
			rej[n] = 1
		default:
			rej[n] = rng.Float64()
		}
	}
	return sched, rej
}

// TestBarrierProfileInterpolates checks on random schedules and rejections
// that the profile passes through the cumulative rejections at the
// schedule points (Λ(1) = Σ r_n in particular), is non-decreasing with
// λ ≥ 0, that λ is the derivative of Λ (central differences), and that it
// is the interpolant UpdateSchedule solves: Λ at the updated schedule's
// points is nΛ/N (eq:equicrit).
func TestBarrierProfileInterpolates(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		numChains := 3 + rng.IntN(60)
		sched, rej := randomScheduleRejections(rng, numChains, trial%2 == 1)
		rej[rng.IntN(len(rej))] = 0.5 // a positive barrier

		// At the schedule points.
		cum := make([]float64, numChains)
		barrier := CumulativeBarrier(cum, rej)
		gotCum, gotLocal := make([]float64, numChains), make([]float64, numChains)
		BarrierProfile(gotCum, gotLocal, sched, sched, rej)
		for n := range sched {
			want := cum[n]
			if n+1 < numChains && sched[n+1] == sched[n] {
				want = cum[n+1] // a merged point carries the pair's rejection
			}
			if math.Abs(gotCum[n]-want) > 1e-12 {
				t.Fatalf("trial %d: Λ(t_%d) = %.15g, want Σ_{i<%d} r_i = %.15g", trial, n, gotCum[n], n, want)
			}
		}
		if gotCum[numChains-1] != barrier {
			t.Fatalf("trial %d: Λ(1) = %.17g, Σ r_n = %.17g", trial, gotCum[numChains-1], barrier)
		}

		// On a fine grid.
		grid := UniformSchedule(1001)
		c, l := make([]float64, len(grid)), make([]float64, len(grid))
		BarrierProfile(c, l, grid, sched, rej)
		for i := range grid {
			if l[i] < 0 || (i > 0 && c[i] < c[i-1]-1e-15) {
				t.Fatalf("trial %d: not monotone at t = %g: Λ %g after %g, λ %g", trial, grid[i], c[i], c[max(i-1, 0)], l[i])
			}
		}
		for k := 0; k < 20; k++ {
			x := 0.01 + 0.98*rng.Float64()
			const h = 1e-7
			cc, ll := make([]float64, 3), make([]float64, 3)
			BarrierProfile(cc, ll, []float64{x - h, x, x + h}, sched, rej)
			fd := (cc[2] - cc[0]) / (2 * h)
			// The interpolant is C¹: allow rounding and the h² term.
			if math.Abs(fd-ll[1]) > 1e-5*(1+math.Abs(ll[1])) {
				t.Fatalf("trial %d: λ(%g) = %.9g, finite difference %.9g", trial, x, ll[1], fd)
			}
		}

		// The updated schedule equalises the interpolated barrier.
		upd := make([]float64, numChains)
		UpdateSchedule(upd, sched, rej)
		uc, ul := make([]float64, numChains), make([]float64, numChains)
		BarrierProfile(uc, ul, upd, sched, rej)
		for n := 1; n < numChains-1; n++ {
			if want := barrier * float64(n) / float64(numChains-1); math.Abs(uc[n]-want) > 1e-9 {
				t.Fatalf("trial %d: Λ(t'_%d) = %.12g, want nΛ/N = %.12g", trial, n, uc[n], want)
			}
		}
	}
}

// TestBarrierProfileDegenerate checks the edge cases: zero rejections give
// a zero profile, NaN rejections count as 1, and a schedule with a single
// distinct point gives NaN.
func TestBarrierProfileDegenerate(t *testing.T) {
	grid := UniformSchedule(11)
	c, l := make([]float64, 11), make([]float64, 11)
	BarrierProfile(c, l, grid, UniformSchedule(5), make([]float64, 4))
	for i := range grid {
		if c[i] != 0 || l[i] != 0 {
			t.Fatalf("zero rejections: Λ(%g) = %g, λ = %g", grid[i], c[i], l[i])
		}
	}
	BarrierProfile(c, l, grid, []float64{0, 0.5, 1}, []float64{math.NaN(), 1})
	if c[10] != 2 || math.Abs(l[5]-2) > 1e-12 {
		t.Fatalf("NaN as 1: Λ(1) = %g (want 2), λ(0.5) = %g (want 2)", c[10], l[5])
	}
	BarrierProfile(c, l, grid, []float64{0, 0}, []float64{0.3})
	for i := range grid {
		if !math.IsNaN(c[i]) || !math.IsNaN(l[i]) {
			t.Fatalf("one distinct point: Λ(%g) = %g, λ = %g, want NaN", grid[i], c[i], l[i])
		}
	}
}
