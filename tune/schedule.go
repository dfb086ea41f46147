package tune

import (
	"math"
	"slices"
	"sync"

	"github.com/ptbatch/ptbatch/asm"
	"github.com/ptbatch/ptbatch/kernel"
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
// each t_n found by Halley and Newton steps on the interpolant's segment
// that brackets it (newtonTargets, newtonSegment), safeguarded by bisection where
// they do not converge (solveMonotone). sched is the schedule the rejections rej were measured
// on (len(rej) == len(sched)-1 == len(dst)-1); dst may alias sched. When
// the barrier is zero or not finite the schedule is copied unchanged, since
// no point of it is better supported than another.
//
// The interpolant is monotoneCubic, which reproduces gonum's
// interp.FritschButland to a few ulps, and the schedule is that of the
// safeguarded solve on gonum's interpolant to about 1e-14 (since issue 23;
// bit for bit before), the same on every platform; the buffers come from a
// pool, so that in steady state UpdateSchedule does not allocate. It is
// safe for concurrent use on distinct dst.
func UpdateSchedule(dst, sched, rej []float64) {
	numChains := len(sched)
	if len(dst) != numChains || len(rej) != numChains-1 {
		panic("tune: schedule length mismatch")
	}
	w := schedulePool.Get().(*scheduleWorkspace)
	w.update(dst, sched, rej)
	schedulePool.Put(w)
}

// ScheduleUpdater is UpdateSchedule with buffers of its own, sized once:
// for a caller that updates schedules of one size again and again (the
// engine, at the end of every scan) and wants the first update to
// allocate no more than the next. Not safe for concurrent use.
type ScheduleUpdater struct{ w scheduleWorkspace }

// NewScheduleUpdater returns a ScheduleUpdater with room for schedules of
// numChains points.
func NewScheduleUpdater(numChains int) *ScheduleUpdater {
	u := new(ScheduleUpdater)
	u.w.reserve(numChains)
	return u
}

// Update is UpdateSchedule(dst, sched, rej) on u's buffers.
func (u *ScheduleUpdater) Update(dst, sched, rej []float64) {
	numChains := len(sched)
	if len(dst) != numChains || len(rej) != numChains-1 {
		panic("tune: schedule length mismatch")
	}
	u.w.update(dst, sched, rej)
}

// schedulePool holds the scheduleWorkspace buffers of UpdateSchedule.
var schedulePool = sync.Pool{New: func() any { return new(scheduleWorkspace) }}

// scheduleWorkspace holds the buffers of one schedule update: the points
// of the barrier, its interpolant and the new schedule before it is copied
// to dst (which may alias the schedule being read).
type scheduleWorkspace struct {
	xs, ys, out []float64
	// targets holds the targets Λ·n/N of eq:equicrit at 1 … N-1 and segs
	// each target's segment, both with room past them for the kernel's
	// padding (newtonTargets); roots holds newtonTargets' roots.
	targets, roots []float64
	segs           []int
	// firsts holds each knot's first target above it (targetSegments),
	// ypad the knots' values when ys has no room for the kernel's padding.
	firsts []int
	ypad   []float64
	f      monotoneCubic
}

// reserve gives w room for the updates of schedules of numChains points.
func (w *scheduleWorkspace) reserve(numChains int) {
	pad := fitPad(numChains)
	// xs and ys with room for the fit's padding (monotoneCubic.fit).
	w.xs, w.ys, w.out = make([]float64, 0, pad+2), make([]float64, 0, pad+2), make([]float64, 0, numChains)
	w.targets, w.segs = make([]float64, 0, pad+1), make([]int, 0, pad+1)
	w.firsts = make([]int, 0, pad)
	w.roots = make([]float64, 0, pad)
	w.f.reserve(numChains)
	// Every buffer written once, so that its pages are mapped now and not
	// at the first update (memory the runtime takes fresh from the system
	// is not written by make).
	for _, b := range [...][]float64{w.xs[:cap(w.xs)], w.ys[:cap(w.ys)], w.out[:cap(w.out)], w.targets[:cap(w.targets)],
		w.roots[:cap(w.roots)], w.f.slopes, w.f.invs, w.f.derivs, w.f.a2s, w.f.a3s} {
		clear(b)
	}
	clear(w.segs[:cap(w.segs)])
	clear(w.firsts[:cap(w.firsts)])
}

// update is UpdateSchedule with w's buffers, the lengths already checked.
func (w *scheduleWorkspace) update(dst, sched, rej []float64) {
	numChains := len(sched)
	// The points (t_n, Σ_{i<n} r_i), coinciding schedule points merged
	// (barrierPoints, shared with BarrierProfile).
	xs, ys, hasNaN := appendBarrierPointsNaN(w.xs[:0], w.ys[:0], sched, rej)
	w.xs, w.ys = xs, ys
	barrier := ys[len(ys)-1]
	if !(barrier > 0) || math.IsInf(barrier, 0) || len(xs) < 2 {
		copy(dst, sched)
		return
	}
	f := &w.f
	f.fitChecked(xs, ys, !hasNaN)
	out := slices.Grow(w.out[:0], numChains)[:numChains]
	w.out = out
	out[0], out[numChains-1] = 0, 1
	// The targets Λ·n/N. The interpolant is non-decreasing and the targets
	// increase: walk to the segment whose end values bracket each target.
	targets := slices.Grow(w.targets[:0], numChains)[:numChains]
	segs := slices.Grow(w.segs[:0], numChains)[:numChains]
	w.targets, w.segs = targets, segs
	step := barrier / float64(numChains-1) // one division, not one per target
	targetSegments(targets, segs, ys[:len(xs)], step, &w.firsts, &w.ypad)
	// Halley's and Newton's method on each target's segment, all targets
	// at once (newtonTargets), where the abscissae are increasing; NaN
	// where that did not converge.
	if f.increasing {
		w.newtonTargets(f, out[:numChains-1])
	} else {
		for n := 1; n < numChains-1; n++ {
			out[n] = math.NaN()
		}
	}
	// In order, each root kept at or above the one before (should rounding
	// break their order); where Newton did not converge (or the abscissae
	// hold a NaN or leave [0, 1]), the safeguarded solve on
	// [max(lo, xs[seg]), xs[seg+1]].
	for n := 1; n < numChains-1; n++ {
		lo, seg := out[n-1], segs[n]
		if t := out[n]; !math.IsNaN(t) && lo <= xs[seg+1] {
			out[n] = maxFloat(t, lo)
		} else {
			out[n] = solveMonotone(f, seg, targets[n], maxFloat(lo, xs[seg]), xs[seg+1])
		}
	}
	copy(dst, out)
}

// targetSegments writes the targets t_n = n·step of eq:equicrit to
// targets[n] and to segs[n] the segment of the knots' values ys
// (non-decreasing, from 0) that brackets each, n = 1 … len(targets)-2:
// the number of knots i = 1 … len(ys)-2 with ys[i] < t_n, as a walk along
// the segments finds them (while seg < last && ys[seg+1] < t: seg++).
// It counts instead of walking: knot i is below the targets from its
// first, the index kernel.TargetIndices finds (a register of knots at a
// time, exact whatever the rounding of its guess), and a segment is the
// running count of the knots whose first target has come. The walk's
// inner loop, whose trip count varies at random between targets,
// mispredicted about once per target. firsts and ypad are scratch, grown
// as needed (ypad only when ys has no room past its end for the kernel's
// padding).
func targetSegments(targets []float64, segs []int, ys []float64, step float64, firsts *[]int, ypad *[]float64) {
	num := len(targets) - 1 // targets 1 … num-1
	clear(segs[:num])
	inner := ys[1 : len(ys)-1]
	pad := fitPad(len(inner))
	firstOf := slices.Grow((*firsts)[:0], pad)[:pad]
	*firsts = firstOf
	kernel.TargetIndices(firstOf, padded(inner, pad, ypad), step, 1/step, num)
	for _, k := range firstOf[:len(inner)] {
		if k < num {
			segs[k]++
		}
	}
	seg := 0
	for n := 1; n < num; n++ {
		seg += segs[n]
		targets[n], segs[n] = float64(n)*step, seg
	}
}

// newtonSegment returns the t in segment seg = [x0, x1] of the increasing
// abscissae of f where f(t) = target, for f(x0) < target ≤ f(x1), and
// whether it converged: asm.SolveCubic on the segment's cubic, Halley's
// method from the secant guess and a last Newton step whose error estimate
// decides convergence (see asm.SolveCubicsAtGeneric). Where it does not
// converge (a root at a knot of zero slope, a target outside the
// segment's values, a NaN, slopes too steep for the Halley steps) the
// caller falls back to the safeguarded solveMonotone. It is one target of
// newtonTargets, the tests' reference for the rows that function builds:
// its result differs from solveMonotone's in the last bits (both are
// within about 1e-15 of the root).
func newtonSegment(f *monotoneCubic, seg int, target float64) (float64, bool) {
	x0, x1 := f.xs[seg], f.xs[seg+1]
	a0, a1, a2, a3 := f.coeff(seg)
	t := asm.SolveCubic(a1, a2, a3, target-a0, x1-x0, f.ys[seg+1]-a0, x0, x1)
	return t, !math.IsNaN(t)
}

// newtonTargets is newtonSegment for the targets w.targets[n] on the
// segments w.segs[n], n = 1 … len(out)-1, by kernel.SolveCubicsAt: it
// writes to out[n] newtonSegment's root where newtonSegment converges and
// NaN where it does not, bit for bit (the kernel makes newtonSegment's
// operations in its order). The solves are independent, and the kernel
// runs a register of them at a time (8 with AVX-512, 4 with AVX2), each
// target's segment gathered from f's columns and its steps in registers:
// one target at a time, a solve is a chain of about forty dependent
// multiplications, additions and divisions. (Writing each target's row
// of the segment's values in Go first cost as much as the solves: the
// kernel's loads waited for the stores.)
func (w *scheduleWorkspace) newtonTargets(f *monotoneCubic, out []float64) {
	num := len(out) - 1
	pad := fitPad(num)
	// Targets 1 … num, then padding up to a whole register: segment 0 at
	// its first knot's height (results thrown away).
	w.segs = slices.Grow(w.segs, max(0, 1+pad-len(w.segs)))
	w.targets = slices.Grow(w.targets, max(0, 1+pad-len(w.targets)))
	segs, targets := w.segs[1:1+pad], w.targets[1:1+pad]
	for i := num; i < pad; i++ {
		segs[i], targets[i] = 0, f.ys[0]
	}
	roots := slices.Grow(w.roots[:0], pad)[:pad]
	w.roots = roots
	kernel.SolveCubicsAt(roots, segs, targets, f.xs, f.ys, f.derivs, f.a2s, f.a3s)
	copy(out[1:], roots[:num])
}

// solveMonotone returns t in [a, b] with f(t) = target for the
// non-decreasing interpolant f with f(a) ≤ target ≤ f(b), where [a, b] lies
// in f's segment seg, [xs[seg], xs[seg+1]]: Newton's method from the secant
// guess, safeguarded by bisection, to |b-a| ≤ 1e-14 or an exact hit.
//
// Its iterates were bit for bit those of the same loop on gonum's
// interpolant while monotoneCubic's coefficients were gonum's (before
// issue 23; see monotoneCubic): an iterate strictly inside the segment, where
// gonum's Predict and PredictDerivative evaluate segment seg's cubic, is
// evaluated here with the same expressions on seg's coefficients, held in
// registers, and so are a and b when they are at the segment's knots
// (where gonum's value is the knot's ordinate) or inside it; any other
// point (outside the segment when the bisection's midpoint overflows, an
// iterate at a knot, or a schedule holding a NaN) goes through
// monotoneCubic's general predict.
func solveMonotone(f *monotoneCubic, seg int, target, a, b float64) float64 {
	x0, x1 := f.xs[seg], f.xs[seg+1]
	inside := f.increasing // an x in (x0, x1) is in segment seg
	a0, a1, a2, a3 := f.coeff(seg)
	// f(a) and f(b), usually at the segment's knots or inside it.
	var fa, fb float64
	switch {
	case inside && a == x0:
		fa = a0
	case inside && a > x0 && a < x1:
		fa = cubicValue(a0, a1, a2, a3, a-x0)
	default:
		fa = f.predict(f.segmentNear(a, seg), a)
	}
	if inside && b == x1 {
		fb = f.ys[seg+1]
	} else {
		fb = f.predict(f.segmentNear(b, seg), b)
	}
	if !(fb > fa) {
		return 0.5 * (a + b)
	}
	c := a + (b-a)*(target-fa)/(fb-fa)
	for i := 0; i < 100 && b-a > 1e-14; i++ {
		if !(c > a && c < b) {
			c = 0.5 * (a + b)
		}
		var fc, d float64
		if inside && c > x0 && c < x1 {
			dx := c - x0
			fc, d = cubicValue(a0, a1, a2, a3, dx), cubicSlope(a1, a2, a3, dx)
		} else {
			k := f.segmentNear(c, seg)
			fc, d = f.predict(k, c), f.predictDerivative(k, c)
		}
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
		if d > 0 {
			c -= (fc - target) / d
		} else {
			c = 0.5 * (a + b)
		}
		if math.Abs(fc-target) <= 1e-15*target {
			return minFloat(maxFloat(c, a), b)
		}
	}
	return 0.5 * (a + b)
}

// maxFloat is math.Max, without its call when x and y are ordered and
// unequal (then math.Max is the larger one, infinities included).
func maxFloat(x, y float64) float64 {
	switch {
	case x > y:
		return x
	case x < y:
		return y
	}
	return math.Max(x, y)
}

// minFloat is math.Min, without its call when x and y are ordered and
// unequal (then math.Min is the smaller one, infinities included).
func minFloat(x, y float64) float64 {
	switch {
	case x < y:
		return x
	case x > y:
		return y
	}
	return math.Min(x, y)
}
