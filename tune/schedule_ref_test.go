package tune

import (
	"math"

	"gonum.org/v1/gonum/interp"
)

// updateScheduleGonum is UpdateSchedule as it was before monotoneCubic
// (commit 32b6fae): barrierPointsRef and the same eq:equicrit solve on gonum's
// interp.FritschButland, with its binary search at every evaluation and
// fresh buffers at every call. It is the reference that UpdateSchedule
// reproduces to the solvers' tolerances (TestUpdateScheduleMatchesGonum;
// bit for bit before issue 23), and the "old" side of
// BenchmarkUpdateSchedule.
func updateScheduleGonum(dst, sched, rej []float64) {
	numChains := len(sched)
	if len(dst) != numChains || len(rej) != numChains-1 {
		panic("tune: schedule length mismatch")
	}
	xs, ys := barrierPointsRef(sched, rej)
	barrier := ys[len(ys)-1]
	if !(barrier > 0) || math.IsInf(barrier, 0) || len(xs) < 2 {
		copy(dst, sched)
		return
	}
	var f interp.FritschButland
	if err := f.Fit(xs, ys); err != nil {
		copy(dst, sched)
		return
	}
	out := make([]float64, numChains)
	out[0], out[numChains-1] = 0, 1
	lo, seg := 0.0, 0
	for n := 1; n < numChains-1; n++ {
		target := barrier * float64(n) / float64(numChains-1)
		for seg+2 < len(xs) && ys[seg+1] < target {
			seg++
		}
		out[n] = solveMonotoneGonum(&f, target, math.Max(lo, xs[seg]), xs[seg+1])
		lo = out[n]
	}
	copy(dst, out)
}

// solveMonotoneGonum is solveMonotone as it was on gonum's interpolant.
func solveMonotoneGonum(f *interp.FritschButland, target, a, b float64) float64 {
	fa, fb := f.Predict(a), f.Predict(b)
	if !(fb > fa) {
		return 0.5 * (a + b)
	}
	c := a + (b-a)*(target-fa)/(fb-fa)
	for i := 0; i < 100 && b-a > 1e-14; i++ {
		if !(c > a && c < b) {
			c = 0.5 * (a + b)
		}
		fc := f.Predict(c)
		switch {
		case fc < target:
			a = c
		case fc > target:
			b = c
		default:
			return c
		}
		if d := f.PredictDerivative(c); d > 0 {
			c -= (fc - target) / d
		} else {
			c = 0.5 * (a + b)
		}
		if math.Abs(fc-target) <= 1e-15*target {
			return math.Min(math.Max(c, a), b)
		}
	}
	return 0.5 * (a + b)
}

// barrierPointsRef is barrierPoints as it was at commit 32b6fae, before
// appendBarrierPoints.
func barrierPointsRef(sched, rej []float64) (xs, ys []float64) {
	numChains := len(sched)
	xs = make([]float64, 0, numChains)
	ys = make([]float64, 0, numChains)
	cum := 0.0
	for n := 0; n < numChains; n++ {
		if n > 0 {
			r := rej[n-1]
			if math.IsNaN(r) {
				r = 1
			}
			cum += math.Min(math.Max(r, 0), 1)
		}
		if len(xs) > 0 && sched[n] <= xs[len(xs)-1] {
			ys[len(ys)-1] = cum
			continue
		}
		xs = append(xs, sched[n])
		ys = append(ys, cum)
	}
	return xs, ys
}
