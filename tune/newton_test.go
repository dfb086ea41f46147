package tune

import (
	"math"
	"math/rand/v2"
	"testing"
)

// scanRejections calls f with the schedules and rejections of updates
// schedule updates at numChains chains as the engine makes them after
// scans of 100 iterations: each pair's rejection a binomial count over
// 100 swaps (so some are 0) of the rejection probability of the barrier
// Λ(t) = 3√t + t between its points, then UpdateSchedule on them.
func scanRejections(rng *rand.Rand, numChains, updates int, f func(sched, rej []float64)) {
	sched := UniformSchedule(numChains)
	barrier := func(t float64) float64 { return 3*math.Sqrt(t) + t }
	rej := make([]float64, numChains-1)
	for range updates {
		for n := range rej {
			p := min(barrier(sched[n+1])-barrier(sched[n]), 1)
			k := 0
			for range 100 {
				if rng.Float64() < p {
					k++
				}
			}
			rej[n] = float64(k) / 100
		}
		f(sched, rej)
		UpdateSchedule(sched, sched, rej)
	}
}

// TestNewtonSegmentMatchesSafeguarded checks newtonSegment against
// solveMonotone, and newtonTargets against newtonSegment (bit for bit), on
// the solves of scan-end schedule updates (scanRejections) and of random
// ones (randomScheduleRejections): where it reports
// convergence the two agree to 2e-14 plus the interpolant's few ulps of Λ
// over its slope (as in TestUpdateScheduleMatchesGonum), and on the scan
// ends it converges in all but 1% of the solves (it is the fast path).
func TestNewtonSegmentMatchesSafeguarded(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 3))
	var w scheduleWorkspace
	f := &w.f
	check := func(sched, rej []float64) (solves, converged int) {
		xs, ys := appendBarrierPoints(nil, nil, sched, rej)
		barrier := ys[len(ys)-1]
		if !(barrier > 0) || len(xs) < 2 {
			return 0, 0
		}
		f.fit(xs, ys)
		if !f.increasing {
			return 0, 0
		}
		numChains := len(sched)
		w.targets, w.segs = make([]float64, numChains), make([]int, numChains)
		seg, step := 0, barrier/float64(numChains-1)
		for n := 1; n < numChains-1; n++ {
			target := float64(n) * step // as UpdateSchedule
			for seg+2 < len(xs) && ys[seg+1] < target {
				seg++
			}
			w.targets[n], w.segs[n] = target, seg
		}
		// newtonTargets, all targets at once: newtonSegment's bits.
		out := make([]float64, numChains-1)
		w.newtonTargets(f, out)
		for n := 1; n < numChains-1; n++ {
			seg, target := w.segs[n], w.targets[n]
			want := solveMonotone(f, seg, target, xs[seg], xs[seg+1])
			got, gotOK := newtonSegment(f, seg, target)
			if gotOK && !sameBits(out[n], got) || !gotOK && !math.IsNaN(out[n]) {
				t.Fatalf("t_%d: newtonTargets %v, newtonSegment %v (converged: %v)", n, out[n], got, gotOK)
			}
			solves++
			if !gotOK {
				continue
			}
			converged++
			slope := f.predictDerivative(f.findSegment(want), want)
			if tol := 2e-14 + 4e-15*barrier/slope; !(math.Abs(got-want) <= tol) {
				t.Fatalf("t_%d: Newton %v, safeguarded %v (tolerance %g)\nsched %v\nrej %v", n, got, want, tol, sched, rej)
			}
		}
		return solves, converged
	}
	solves, converged := 0, 0
	scanRejections(rng, 50, 200, func(sched, rej []float64) {
		s, c := check(sched, rej)
		solves, converged = solves+s, converged+c
	})
	if solves < 9000 || converged < solves*99/100 {
		t.Errorf("Newton converged in %d of %d scan-end solves, want 99%%", converged, solves)
	}
	for trial := range 1000 {
		sched, rej := randomScheduleRejections(rng, 3+trial%60, false)
		check(sched, rej)
	}
}

// laplacianRef is laplacian as it was, with both tests in the loop.
func laplacianRef(dst, src []float64) {
	numChains := len(src) / 2
	for c := range dst {
		n := c / 2
		v := 0.0
		if n > 0 {
			v += src[c] - src[c-2]
		}
		if n < numChains-1 {
			v += src[c] - src[c+2]
		}
		dst[c] = v
	}
}

// TestLaplacianMatchesRef checks that laplacian writes laplacianRef's bits,
// signed zeros included, for 1 to 6 chains.
func TestLaplacianMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 4))
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 0.5}
	for numChains := 1; numChains <= 6; numChains++ {
		for range 200 {
			src := make([]float64, 2*numChains)
			for i := range src {
				if rng.IntN(2) == 0 {
					src[i] = vals[rng.IntN(len(vals))]
				} else {
					src[i] = rng.NormFloat64()
				}
			}
			got, want := make([]float64, len(src)), make([]float64, len(src))
			laplacian(got, src)
			laplacianRef(want, src)
			for i := range got {
				if !sameBits(got[i], want[i]) {
					t.Fatalf("%d chains, src %v: got %v, want %v", numChains, src, got, want)
				}
			}
		}
	}
}

// momentGradientRef is MomentGradient as it was, in passes: η, z = Dη,
// a = D E[W], a += Cov z, then projectKnots.
func momentGradientRef(grad, mean, cov, sched []float64, path *Spline) {
	numChains := len(sched)
	eta, z, a := make([]float64, 2*numChains), make([]float64, 2*numChains), make([]float64, 2*numChains)
	for n, t := range sched {
		eta[2*n], eta[2*n+1] = path.Eta(t)
	}
	laplacianRef(z, eta)
	laplacianRef(a, mean)
	for n := 0; n < numChains; n++ {
		c00, c01, c11 := cov[3*n], cov[3*n+1], cov[3*n+2]
		z0, z1 := z[2*n], z[2*n+1]
		a[2*n] += c00*z0 + c01*z1
		a[2*n+1] += c01*z0 + c11*z1
	}
	projectKnots(grad, a, sched, path)
}

// TestMomentGradientMatchesRef checks that MomentGradient, now one pass
// over the chains, writes momentGradientRef's bits on random schedules (a
// third of them out of order and beyond [0, 1]), moments and knots (2 to
// 61 chains, K = 1 to 6).
func TestMomentGradientMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	var ws SKLWorkspace
	for trial := range 300 {
		numChains := 2 + trial%60
		path := NewSpline(1 + trial%6)
		for k := 1; k < path.K(); k++ {
			path.knots[k] = [2]float64{rng.Float64() * 2, rng.Float64() * 2}
		}
		sched := UniformSchedule(numChains)
		for n := 1; n < numChains-1; n++ {
			sched[n] += 0.4 / float64(numChains-1) * (rng.Float64() - 0.5)
		}
		if trial%3 == 2 {
			// Chains out of order and beyond [0, 1].
			rng.Shuffle(numChains, func(a, b int) { sched[a], sched[b] = sched[b], sched[a] })
			sched[rng.IntN(numChains)] = -0.5
			sched[rng.IntN(numChains)] = 1.5
		}
		mean, cov := make([]float64, 2*numChains), make([]float64, 3*numChains)
		for i := range mean {
			mean[i] = rng.NormFloat64() * 10
		}
		for i := range cov {
			cov[i] = rng.Float64()
		}
		want, got := make([]float64, 2*(path.K()-1)), make([]float64, 2*(path.K()-1))
		momentGradientRef(want, mean, cov, sched, path)
		ws.MomentGradient(got, mean, cov, sched, path)
		for c := range want {
			if !sameBits(got[c], want[c]) {
				t.Fatalf("trial %d (%d chains, K=%d): got %v, want %v", trial, numChains, path.K(), got, want)
			}
		}
	}
}

// TestTargetSegmentsMatchTheWalk checks targetSegments against the walk
// it replaces (seg advanced while ys[seg+1] < t_n) on the knots' values of
// random rejections: continuous ones, and rejections of a few equal
// values (0, ½, 1), whose cumulative sums fall exactly on targets, so that
// the comparisons' ties and the guess's rounding are reached.
func TestTargetSegmentsMatchTheWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	ties := 0
	var firsts []int
	var ypad []float64
	for trial := range 20000 {
		numChains := 3 + rng.IntN(80)
		points := 2 + rng.IntN(numChains-1) // the knots after merging
		ys := make([]float64, points)
		for i := 1; i < points; i++ {
			r := rng.Float64()
			if trial%2 == 0 {
				r = []float64{0, 0.5, 1}[rng.IntN(3)]
			}
			ys[i] = ys[i-1] + r
		}
		barrier := ys[points-1]
		if !(barrier > 0) {
			continue
		}
		step := barrier / float64(numChains-1)
		targets, segs := make([]float64, numChains), make([]int, numChains)
		targetSegments(targets, segs, ys, step, &firsts, &ypad)
		seg, last := 0, points-2
		for n := 1; n < numChains-1; n++ {
			tn := float64(n) * step
			for seg < last && ys[seg+1] < tn {
				seg++
			}
			if seg < last && ys[seg+1] == tn {
				ties++
			}
			if targets[n] != tn || segs[n] != seg {
				t.Fatalf("trial %d, target %d: t %v seg %d, the walk's %v and %d (ys %v, step %v)", trial, n, targets[n], segs[n], tn, seg, ys, step)
			}
		}
	}
	if ties < 1000 {
		t.Errorf("only %d targets fell on a knot's value: the ties are not tested", ties)
	}
}
