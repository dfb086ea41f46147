package tune

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/interp"
)

// bisectSchedule is the plain reference for UpdateSchedule: the same
// Fritsch–Butland interpolant of the cumulative barrier, each t_n of
// eq:equicrit found by 200 steps of bisection on [0, 1]. It assumes
// distinct schedule points.
func bisectSchedule(sched, rej []float64) []float64 {
	ys := make([]float64, len(sched))
	barrier := CumulativeBarrier(ys, rej)
	var f interp.FritschButland
	if err := f.Fit(sched, ys); err != nil {
		panic(err)
	}
	out := make([]float64, len(sched))
	out[len(out)-1] = 1
	for n := 1; n < len(sched)-1; n++ {
		target := barrier * float64(n) / float64(len(sched)-1)
		a, b := 0.0, 1.0
		for i := 0; i < 200; i++ {
			if c := 0.5 * (a + b); f.Predict(c) < target {
				a = c
			} else {
				b = c
			}
		}
		out[n] = 0.5 * (a + b)
	}
	return out
}

// TestUpdateScheduleMatchesBisection compares UpdateSchedule with plain
// bisection on random schedules and rejections, including zero rejections
// (flat stretches of the barrier) and rejections of 1.
func TestUpdateScheduleMatchesBisection(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		numChains := 3 + rng.IntN(60)
		sched := make([]float64, numChains)
		for n := 1; n < numChains; n++ {
			sched[n] = sched[n-1] + 0.01 + rng.Float64()
		}
		for n := range sched {
			sched[n] /= sched[numChains-1]
		}
		rej := make([]float64, numChains-1)
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
		rej[rng.IntN(len(rej))] = 0.5 // a positive barrier
		got := make([]float64, numChains)
		UpdateSchedule(got, sched, rej)
		want := bisectSchedule(sched, rej)
		for n := range got {
			if math.Abs(got[n]-want[n]) > 1e-12 {
				t.Fatalf("trial %d, C=%d, t_%d: got %.15f, bisection %.15f", trial, numChains, n, got[n], want[n])
			}
			if n > 0 && got[n] < got[n-1] {
				t.Fatalf("trial %d: schedule decreases at %d", trial, n)
			}
		}
	}
}

// TestUpdateScheduleEqualizesLinearBarrier checks eq:equicrit on a case
// with a known answer: rejections r_n = Λ(t_{n+1}) - Λ(t_n) of the cubic
// barrier Λ(t) = t³ on a fine uniform schedule give a new schedule with
// t_n ≈ (n/N)^{1/3}.
func TestUpdateScheduleEqualizesLinearBarrier(t *testing.T) {
	const numChains = 400
	sched := UniformSchedule(numChains)
	rej := make([]float64, numChains-1)
	for n := range rej {
		rej[n] = math.Pow(sched[n+1], 3) - math.Pow(sched[n], 3)
	}
	got := make([]float64, numChains)
	UpdateSchedule(got, sched, rej)
	for n := range got {
		want := math.Cbrt(float64(n) / (numChains - 1))
		// The interpolant's error on a grid of step h = 1/399 is O(h²) away
		// from t = 0, where t^{1/3} is steep: allow 2e-3.
		if math.Abs(got[n]-want) > 2e-3 {
			t.Errorf("t_%d = %.5f, want %.5f", n, got[n], want)
		}
	}
}
