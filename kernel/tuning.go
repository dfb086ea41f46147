package kernel

// The kernels of the end of a scan: the scan's statistics, the schedule
// update's interpolant and its root finding (eq:equicrit), and the path
// step's gradient (alg:PT_tuning).

import (
	"github.com/ptbatch/ptbatch/asm"
	"github.com/ptbatch/ptbatch/layout"
)

// SolveCubicsAt inverts a fitted monotone cubic at given heights on given
// segments, the root finding of the schedule update (eq:equicrit): for
// every i, on segment s = segs[i] of the cubic whose knots are (xs[k],
// ys[k]) and whose segment k has the coefficients a1 = d[k], a2[k] and
// a3[k], the root t[i] = xs[s] + dx of a1·dx + a2·dx² + a3·dx³ =
// targets[i] − ys[s], by Halley's method from the secant guess and a last
// Newton step, or NaN where that iteration does not converge (see
// asm.SolveCubicsAtGeneric for the exact operations and the test of
// convergence). t, segs and targets have one length, a multiple of
// layout.Lanes, len(ys) == len(xs), and d, a2 and a3 hold at least
// len(xs)-1 values; otherwise it panics with "kernel: slice lengths do
// not match". Every segment must be in [0, len(xs)-1); otherwise it
// panics with "kernel: segment out of range".
func SolveCubicsAt(t []float64, segs []int, targets, xs, ys, d, a2, a3 []float64) {
	n, m := len(t), len(xs)-1
	if n%layout.Lanes != 0 || len(segs) != n || len(targets) != n || m < 1 || len(ys) != m+1 ||
		len(d) < m || len(a2) < m || len(a3) < m {
		panic(errLengths)
	}
	for _, s := range segs {
		if uint(s) >= uint(m) {
			panic(errSegment)
		}
	}
	for _, r := range [...][]float64{targets, xs, ys, d[:m], a2[:m], a3[:m]} {
		raceRead(r)
	}
	raceReadInts(segs)
	raceWrite(t)
	impl.SolveCubicsAt(t, segs, targets, xs, ys, d, a2, a3)
}

// TargetIndices writes to g[i], for each knot value ys[i] of the
// schedule update's cumulative barrier (eq:equicrit), the index k of the
// first of the targets k·step, k = 1 … num−1, above it, or num when none
// is (see asm.TargetIndicesGeneric); inv is 1/step. g and ys have one
// length, a multiple of layout.Lanes; otherwise it panics with "kernel:
// slice lengths do not match". num must be in [1, 2^31); otherwise it
// panics with "kernel: target count out of range".
func TargetIndices(g []int, ys []float64, step, inv float64, num int) {
	if len(g)%layout.Lanes != 0 || len(ys) != len(g) {
		panic(errLengths)
	}
	if num < 1 || int64(num) >= 1<<31 {
		panic(errTargets)
	}
	raceRead(ys)
	raceWriteInts(g)
	impl.TargetIndices(g, ys, step, inv, num)
}

// CubicSlopes writes the reciprocal of each step and the secant slope of
// every segment [xs[i], xs[i+1]] of a Fritsch–Butland fit (see
// asm.CubicSlopesGeneric; the reciprocal is 0 for steps below 1e-100,
// whose slope is divided out instead). len(invs) == len(slopes), a
// multiple of layout.Lanes, and len(xs) == len(ys) == len(slopes)+1;
// otherwise it panics with "kernel: slice lengths do not match".
func CubicSlopes(slopes, invs, xs, ys []float64) {
	n := len(slopes)
	if n%layout.Lanes != 0 || len(invs) != n || len(xs) != n+1 || len(ys) != n+1 {
		panic(errLengths)
	}
	raceRead(xs)
	raceRead(ys)
	raceWrite(slopes)
	raceWrite(invs)
	impl.CubicSlopes(slopes, invs, xs, ys)
}

// CubicDerivs writes to d[i] the Fritsch–Butland derivative at the
// interior knot i+1 from the slopes of the segments on either side and
// the knots xs[i], xs[i+1], xs[i+2] (see asm.CubicDerivsGeneric).
// len(d) is a multiple of layout.Lanes, len(slopes) == len(d)+1 and
// len(xs) == len(d)+2; otherwise it panics with "kernel: slice lengths do
// not match".
func CubicDerivs(d, slopes, xs []float64) {
	n := len(d)
	if n%layout.Lanes != 0 || len(slopes) != n+1 || len(xs) != n+2 {
		panic(errLengths)
	}
	raceRead(slopes)
	raceRead(xs)
	raceWrite(d)
	impl.CubicDerivs(d, slopes, xs)
}

// CubicCoeffs writes the coefficients a2 and a3 of every segment's cubic
// from the derivatives d at its knots, its step and rise, and the step's
// reciprocal invs (see asm.CubicCoeffsGeneric). len(a3) == len(invs) ==
// len(a2), a multiple of layout.Lanes, and len(d) == len(xs) == len(ys) ==
// len(a2)+1; otherwise it panics with "kernel: slice lengths do not
// match".
func CubicCoeffs(a2, a3, d, xs, ys, invs []float64) {
	n := len(a2)
	if n%layout.Lanes != 0 || len(a3) != n || len(invs) != n || len(d) != n+1 || len(xs) != n+1 || len(ys) != n+1 {
		panic(errLengths)
	}
	raceRead(d)
	raceRead(xs)
	raceRead(ys)
	raceRead(invs)
	raceWrite(a2)
	raceWrite(a3)
	impl.CubicCoeffs(a2, a3, d, xs, ys, invs)
}

// PathMoments writes, for every chain of a block and every lane, the
// record of asm.PathRecord rows that PathProject reads: the chain's means
// and covariances of the energies over the scan from their shifted sums
// (inv = 1/M, inv1 = 1/(M-1)), and η(t) of the lane's spline of numKnots
// segments at its schedule point t with its segment and weight (see
// asm.PathMomentsGeneric). The rows sum0 … sq11 and t have one value per
// chain and lane, chain-major; knots holds component i of knot φ_k for
// lane j at (2k+i)·layout.Lanes + j. len(t) is a multiple of
// layout.Lanes, at least two rows, the seven moment rows have len(t),
// len(rec) == asm.PathRecord·len(t), len(knots) == 2(numKnots+1)·
// layout.Lanes and numKnots ≥ 1; otherwise it panics with "kernel: slice
// lengths do not match".
func PathMoments(rec, sum0, sum1, shift0, shift1, sq00, sq01, sq11, t, knots []float64, numKnots int, inv, inv1 float64) {
	n := len(t)
	if n%layout.Lanes != 0 || n < 2*layout.Lanes || numKnots < 1 || numKnots > 1<<20 ||
		len(rec)/asm.PathRecord != n || len(rec)%asm.PathRecord != 0 || len(knots) != 2*(numKnots+1)*layout.Lanes {
		panic(errLengths)
	}
	for _, r := range [...][]float64{sum0, sum1, shift0, shift1, sq00, sq01, sq11} {
		if len(r) != n {
			panic(errLengths)
		}
		raceRead(r)
	}
	raceRead(t)
	raceRead(knots)
	raceWrite(rec)
	impl.PathMoments(rec, sum0, sum1, shift0, shift1, sq00, sq01, sq11, t, knots, numKnots, inv, inv1)
}

// PathProject adds, for every lane, each chain's term of the SKL
// surrogate's gradient from the records rec of PathMoments to the sums of
// the knots φ_0 … φ_numKnots in acc (component i of φ_k for lane j at
// (2k+i)·layout.Lanes + j; acc is not cleared first), in chain order, as
// tune.SKLWorkspace.MomentGradient does lane by lane (see
// asm.PathProjectGeneric): its interior knots' sums are that gradient bit
// for bit. chains ≥ 2, len(rec) == asm.PathRecord·layout.Lanes·chains,
// len(acc) == 2(numKnots+1)·layout.Lanes and numKnots ≥ 1; otherwise it
// panics with "kernel: slice lengths do not match".
func PathProject(acc, rec []float64, chains, numKnots int) {
	const R = asm.PathRecord * layout.Lanes
	if chains < 2 || numKnots < 1 || numKnots > 1<<20 || len(rec)/R != chains || len(rec)%R != 0 ||
		len(acc) != 2*(numKnots+1)*layout.Lanes {
		panic(errLengths)
	}
	raceRead(rec)
	raceWrite(acc)
	impl.PathProject(acc, rec, chains, numKnots)
}

// SplineSteps takes Adagrad's step of the spline path's knots for every
// element of its rows (alg:PT_tuning's gradient step; tune.Spline.Step
// before its monotonicity repair): with φ = knots[i], the gradient's
// component grad[i] and Adagrad's sum accum[i], g = grad/(|grad| + φ),
// accum += g², φ = φ·exp(−lr·g/sqrt(accum + eps)), with math.Exp's bits
// (see asm.SplineStepsGeneric). The three slices have one length, a
// multiple of layout.Lanes; otherwise it panics with "kernel: slice
// lengths do not match".
func SplineSteps(knots, accum, grad []float64, lr, eps float64) {
	n := len(knots)
	if n%layout.Lanes != 0 || len(accum) != n || len(grad) != n {
		panic(errLengths)
	}
	raceRead(grad)
	raceWrite(knots)
	raceWrite(accum)
	impl.SplineSteps(knots, accum, grad, lr, eps)
}

// PathEta writes η(t) of each lane's spline of numKnots segments at every
// schedule point t (one per chain and lane, chain-major) to eta0 and eta1
// at the same index, as tune.Spline.Eta computes it (see
// asm.PathEtaGeneric); knots holds component i of knot φ_k for lane j at
// (2k+i)·layout.Lanes + j. len(eta0) == len(eta1) == len(t), a multiple of
// layout.Lanes, len(knots) == 2(numKnots+1)·layout.Lanes and numKnots ≥ 1;
// otherwise it panics with "kernel: slice lengths do not match".
func PathEta(eta0, eta1, t, knots []float64, numKnots int) {
	n := len(t)
	if n%layout.Lanes != 0 || len(eta0) != n || len(eta1) != n || numKnots < 1 || numKnots > 1<<20 ||
		len(knots) != 2*(numKnots+1)*layout.Lanes {
		panic(errLengths)
	}
	raceRead(t)
	raceRead(knots)
	raceWrite(eta0)
	raceWrite(eta1)
	impl.PathEta(eta0, eta1, t, knots, numKnots)
}

// ScanSums computes, for every lane of a block, the scan's mean rejection
// of each pair of chains (written to rej) and the sums its statistics
// report: the barrier, the non-asymptotic barrier (+Inf when a pair's
// rejection reaches 1) and the SKL estimate, in rows 0, 1 and 2 of out
// (see asm.ScanSumsGeneric), from the swaps' rejection counts xrej (one
// row of lanes per pair, inv = 1/M) and the chains' coefficients and
// shifted energy sums (one row per chain). len(rej) == len(xrej), a
// positive multiple of layout.Lanes, the six chain rows have
// layout.Lanes more, and len(out) == 3·layout.Lanes; otherwise it panics
// with "kernel: slice lengths do not match".
func ScanSums(out, rej, xrej, eta0, eta1, shift0, sum0, shift1, sum1 []float64, inv float64) {
	n := len(xrej)
	const L = layout.Lanes
	if n%L != 0 || n == 0 || len(rej) != n || len(out) != 3*L {
		panic(errLengths)
	}
	for _, r := range [...][]float64{eta0, eta1, shift0, sum0, shift1, sum1} {
		if len(r)-L != n {
			panic(errLengths)
		}
		raceRead(r)
	}
	raceRead(xrej)
	raceWrite(rej)
	raceWrite(out)
	impl.ScanSums(out, rej, xrej, eta0, eta1, shift0, sum0, shift1, sum1, inv)
}
