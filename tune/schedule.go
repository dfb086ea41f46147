package tune

import (
	"math"

	"gonum.org/v1/gonum/interp"
)

// UniformSchedule returns the equally spaced schedule t_n = n/(numChains-1)
// that Algorithm 2 (alg:PT_tuning) starts from.
func UniformSchedule(numChains int) []float64 {
	if numChains < 2 {
		panic("tune: fewer than two chains")
	}
	t := make([]float64, numChains)
	for n := range t {
		t[n] = float64(n) / float64(numChains-1)
	}
	t[numChains-1] = 1
	return t
}

// CumulativeBarrier writes to dst the estimate of t_n ↦ ∫_0^{t_n} λ(s) ds
// at the schedule points: dst[0] = 0 and dst[n+1] = dst[n] + rej[n], where
// rej[n] is the mean rejection of pair (n, n+1). It returns the barrier
// Λ = Σ_n rej[n].
func CumulativeBarrier(dst, rej []float64) float64 {
	if len(dst) != len(rej)+1 {
		panic("tune: cumulative barrier length mismatch")
	}
	dst[0] = 0
	for n, r := range rej {
		dst[n+1] = dst[n] + r
	}
	return dst[len(rej)]
}

// UpdateSchedule implements "Tuning the schedule" (§3.3): it interpolates
// the cumulative barrier Λ(t) through the points (t_n, Σ_{i<n} r_i) with a
// monotone cubic (Fritsch–Butland, as PCHIP), and writes to dst the schedule
// that solves eq:equicrit,
//
//	Λ(t_n) / Λ = n / N,  n = 1..N-1,
//
// each t_n found by bisection. sched is the schedule the rejections rej
// were measured on (len(rej) == len(sched)-1 == len(dst)-1); dst may alias
// sched. When the barrier is zero or not finite the schedule is copied
// unchanged, since no point of it is better supported than another.
func UpdateSchedule(dst, sched, rej []float64) {
	numChains := len(sched)
	if len(dst) != numChains || len(rej) != numChains-1 {
		panic("tune: schedule length mismatch")
	}
	// The points (t_n, Σ_{i<n} r_i), coinciding schedule points merged
	// (barrierPoints, shared with BarrierProfile).
	xs, ys := barrierPoints(sched, rej)
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
		// The interpolant is non-decreasing and the targets increase: walk
		// to the segment whose end values bracket the target, then solve
		// within it.
		for seg+2 < len(xs) && ys[seg+1] < target {
			seg++
		}
		out[n] = solveMonotone(&f, target, math.Max(lo, xs[seg]), xs[seg+1])
		lo = out[n]
	}
	copy(dst, out)
}

// solveMonotone returns t in [a, b] with f(t) = target for a non-decreasing
// f with f(a) ≤ target ≤ f(b): Newton's method from the secant guess,
// safeguarded by bisection, to |b-a| ≤ 1e-14 or an exact hit.
func solveMonotone(f *interp.FritschButland, target, a, b float64) float64 {
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
		// Newton step from c; a zero or non-finite slope falls back to
		// bisection at the top of the loop.
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
