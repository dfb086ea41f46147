package tune

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/interp"
)

// barrierPoints returns the points (t, Λ(t)) through which UpdateSchedule
// and BarrierProfile interpolate the cumulative barrier: the schedule
// points t_n with Σ_{i<n} r_i, each rejection clamped to [0, 1] (NaN counts
// as 1), and schedule points that coincide with the one before merged into
// it, the merged pair's rejection carried into the next point (the
// interpolant needs strictly increasing abscissae). The last ys is the
// barrier Σ_n r_n.
func barrierPoints(sched, rej []float64) (xs, ys []float64) {
	return appendBarrierPoints(make([]float64, 0, len(sched)), make([]float64, 0, len(sched)), sched, rej)
}

// appendBarrierPoints appends the points of barrierPoints to xs and ys,
// which must be empty (it reuses their storage), and returns them.
func appendBarrierPoints(xs, ys, sched, rej []float64) ([]float64, []float64) {
	xs, ys, _ = appendBarrierPointsNaN(xs, ys, sched, rej)
	return xs, ys
}

// appendBarrierPointsNaN is appendBarrierPoints, and reports whether an
// abscissa is NaN. The abscissae it makes increase strictly but for NaN
// ones (a point not above the one before is merged into it; a NaN is
// never merged).
func appendBarrierPointsNaN(xs, ys, sched, rej []float64) (_, _ []float64, hasNaN bool) {
	if len(sched) == 0 {
		return xs, ys, false
	}
	// Room for every point, written by index (no append's length and
	// capacity per point).
	xs, ys = slices.Grow(xs[:0], len(sched))[:len(sched)], slices.Grow(ys[:0], len(sched))[:len(sched)]
	rej = rej[:len(sched)-1]
	xs[0], ys[0] = sched[0], 0
	hasNaN = math.IsNaN(sched[0])
	k, cum := 1, 0.0 // points so far, Σ r
	for n, r := range rej {
		// r clamped to [0, 1], NaN as 1: math.Min(math.Max(r, 0), 1)
		// with NaN replaced by 1, without the calls.
		switch {
		case r > 1 || math.IsNaN(r):
			r = 1
		case r > 0:
		default:
			r = 0
		}
		cum += r
		if t := sched[n+1]; t <= xs[k-1] {
			ys[k-1] = cum
		} else {
			xs[k], ys[k] = t, cum
			hasNaN = hasNaN || t != t
			k++
		}
	}
	return xs[:k], ys[:k], hasNaN
}

// BarrierProfile writes to cumulative and local, at every point t = ts[i],
// the estimates of the cumulative barrier Λ(t) = ∫_0^t λ(s) ds and of the
// local barrier λ(t) = Λ'(t) (the instantaneous rejection rate of
// thm:general_GCB) that the schedule update of §3.3 uses (eq:equicrit): the
// monotone Fritsch–Butland cubic that UpdateSchedule fits through the
// points (t_n, Σ_{i<n} r_i), the same construction, and its derivative.
// sched is the schedule the rejections rej were measured on
// (len(rej) == len(sched)-1), with t_0 = 0 and t_N = 1, and rej[n] the mean
// rejection of pair (n, n+1) over a scan (alg:NRPT's r_n); rejections are
// clamped to [0, 1] and NaN counts as 1, as in UpdateSchedule. So
// Λ(t_n) = Σ_{i<n} r_i at every schedule point, Λ(1) = Σ_n r_n, the
// estimate of Λ, Λ is non-decreasing and λ ≥ 0.
//
// The points ts are usually a fixed grid, such as UniformSchedule(100);
// outside [t_0, t_N] the interpolant is held at its end values (Λ) and end
// slopes (λ). len(cumulative) and len(local) must equal len(ts). When the
// schedule has fewer than two distinct points every value is NaN.
func BarrierProfile(cumulative, local, ts, sched, rej []float64) {
	if len(rej) != len(sched)-1 || len(sched) < 2 {
		panic("tune: schedule length mismatch")
	}
	if len(cumulative) != len(ts) || len(local) != len(ts) {
		panic("tune: barrier profile length mismatch")
	}
	xs, ys := barrierPoints(sched, rej)
	if len(xs) < 2 {
		for i := range ts {
			cumulative[i], local[i] = math.NaN(), math.NaN()
		}
		return
	}
	var f interp.FritschButland
	if err := f.Fit(xs, ys); err != nil {
		panic(err) // Fit never fails on strictly increasing xs
	}
	for i, t := range ts {
		cumulative[i] = f.Predict(t)
		local[i] = f.PredictDerivative(t)
	}
}
