package tune

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/interp"
)

// raceEnabled is set by race_test.go under the race detector, whose
// sync.Pool drops items on purpose (so a pooled buffer may be allocated
// again).
var raceEnabled bool

// compilerFuses reports whether this build fuses x*y + z into one
// multiply-add (GOAMD64=v3, arm64): then gonum's interpolant, whose
// expressions do not forbid it, rounds some of its products differently
// from monotoneCubic, and it is the bit-exact reference only where the
// compiler fuses none (amd64 at the default GOAMD64=v1).
var compilerFuses = mulAdd(1+0x1p-30, 1+0x1p-30, -(1+0x1p-29)) != 0

// mulAdd returns x*y + z, fused or not as the compiler chooses: (1+2⁻³⁰)²
// - (1+2⁻²⁹) is 2⁻⁶⁰ exactly, 0 when the product is rounded first.
//
//go:noinline
func mulAdd(x, y, z float64) float64 { return x*y + z }

// skipIfFused skips a test that compares with gonum bit for bit on a build
// that fuses multiply-adds (see compilerFuses).
func skipIfFused(t *testing.T) {
	t.Helper()
	if compilerFuses {
		t.Skip("this build fuses multiply-adds in gonum's interpolant; the bit-exact comparison holds at GOAMD64=v1")
	}
}

// randomRejections returns numChains-1 rejections drawn to reach every
// branch of the barrier's construction: ordinary values in (0, 1), exact 0
// and 1, NaN, ±Inf, negative values and values above 1 (all clamped),
// tiny (down to the smallest subnormal) and huge values; and, as a whole,
// all-zero, all-tiny and constant vectors.
func randomRejections(rng *rand.Rand, numChains int) []float64 {
	rej := make([]float64, numChains-1)
	switch rng.IntN(10) {
	case 0:
		return rej // all zero: no barrier
	case 1:
		for n := range rej {
			rej[n] = 1e-300 * rng.Float64()
		}
		return rej
	case 2:
		v := rng.Float64()
		for n := range rej {
			rej[n] = v
		}
		return rej
	}
	for n := range rej {
		switch u := rng.Float64(); {
		case u < 0.45:
			rej[n] = rng.Float64()
		case u < 0.55:
			rej[n] = 0
		case u < 0.6:
			rej[n] = 1
		case u < 0.63:
			rej[n] = math.NaN()
		case u < 0.66:
			rej[n] = math.Inf(1)
		case u < 0.68:
			rej[n] = math.Inf(-1)
		case u < 0.70:
			rej[n] = -rng.Float64()
		case u < 0.72:
			rej[n] = 1 + rng.Float64()
		case u < 0.78:
			rej[n] = 1e-300 * rng.Float64()
		case u < 0.80:
			rej[n] = 5e-324 // the smallest subnormal
		case u < 0.85:
			rej[n] = 1e-17 * rng.Float64() // below the solver's tolerance
		case u < 0.88:
			rej[n] = 1e300
		default:
			rej[n] = 1e-3 * rng.Float64()
		}
	}
	return rej
}

// randomSchedule returns a schedule of numChains points: uniform, random
// increasing, with repeated points, with points a few ulps apart, shifted
// and scaled far from [0, 1] (down to 1e-300 and up to 1e300), reaching
// the largest float64, or broken (a NaN, an infinity, a decreasing step).
func randomSchedule(rng *rand.Rand, numChains int) []float64 {
	sched := make([]float64, numChains)
	increasing := func() {
		for n := 1; n < numChains; n++ {
			sched[n] = sched[n-1] + 0.01 + rng.Float64()
		}
		for n := range sched {
			sched[n] /= sched[numChains-1]
		}
	}
	switch rng.IntN(9) {
	case 0:
		copy(sched, UniformSchedule(numChains))
	case 1:
		increasing()
	case 2: // repeated points
		for n := 1; n < numChains; n++ {
			sched[n] = sched[n-1]
			if rng.Float64() < 0.6 {
				sched[n] += rng.Float64()
			}
		}
		if sched[numChains-1] > 0 {
			for n := range sched {
				sched[n] /= sched[numChains-1]
			}
		}
	case 3: // stretches a few ulps long
		for n := 1; n < numChains; n++ {
			if rng.Float64() < 0.5 {
				sched[n] = sched[n-1]
				for k := rng.IntN(3); k >= 0; k-- {
					sched[n] = math.Nextafter(sched[n], 2)
				}
			} else {
				sched[n] = sched[n-1] + rng.Float64()
			}
		}
	case 4: // shifted and scaled
		increasing()
		scale := []float64{1e-300, 1e-10, 1, 1e10, 1e300}[rng.IntN(5)]
		shift := 4*rng.Float64() - 2
		for n := range sched {
			sched[n] = (sched[n] + shift) * scale
		}
	case 5: // up to the largest float64 (midpoints overflow)
		increasing()
		for n := range sched {
			sched[n] *= math.MaxFloat64
		}
	case 6: // broken
		increasing()
		n := rng.IntN(numChains)
		sched[n] = []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 2}[rng.IntN(5)]
	default: // a perturbed uniform schedule, as in a tuning run
		copy(sched, UniformSchedule(numChains))
		for n := 1; n < numChains-1; n++ {
			sched[n] += 0.2 / float64(numChains-1) * (rng.Float64() - 0.5)
		}
	}
	return sched
}

// scheduleChains are the chain counts the bit-identity tests run: the
// smallest ones (where the interpolant has two or three points), the 50 of
// the tuning budget and 240, with random counts in between.
func scheduleChains(rng *rand.Rand, trial int) int {
	fixed := []int{2, 3, 4, 50, 240}
	if trial%2 == 0 {
		return fixed[(trial/2)%len(fixed)]
	}
	return 5 + rng.IntN(60)
}

// TestUpdateScheduleMatchesGonum checks that UpdateSchedule writes what it
// wrote on gonum's interp.FritschButland with the safeguarded solve
// (updateScheduleGonum), on random schedules and rejections that reach
// every branch, with dst separate from and aliasing sched, and through a
// warm pool: bit for bit where the barrier is unusable and the schedule is
// copied, and otherwise up to the solvers' tolerances. Both stop within
// about 1e-14 of the root of the same interpolant (solveMonotone's bracket
// is at most 1e-14 wide when it stops on it; newtonSegment's error
// estimate is at most asm.SolveTol), and both evaluate the interpolant to a
// few ulps of the barrier Λ, which moves the root by that over the slope:
// they may differ by 2e-14 + 4e-15·Λ/Λ'(t). The tolerance is relative
// beyond 1, where randomSchedule's points go.
func TestUpdateScheduleMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 1))
	solved := 0
	const trials = 3000
	for trial := range trials {
		numChains := scheduleChains(rng, trial)
		sched := randomSchedule(rng, numChains)
		rej := randomRejections(rng, numChains)
		want := make([]float64, numChains)
		updateScheduleGonum(want, sched, rej)
		got := make([]float64, numChains)
		UpdateSchedule(got, sched, rej)
		alias := slices.Clone(sched)
		UpdateSchedule(alias, alias, rej)
		xs, ys := barrierPointsRef(sched, rej)
		if barrier := ys[len(ys)-1]; !(barrier > 0) || math.IsInf(barrier, 0) || len(xs) < 2 {
			// An unusable barrier: the schedule copied.
			if !slices.EqualFunc(got, want, sameBits) || !slices.EqualFunc(alias, want, sameBits) {
				t.Fatalf("trial %d: got %v (aliased %v), want the schedule copied %v", trial, got, alias, want)
			}
			continue
		}
		solved++
		if slices.ContainsFunc(sched, math.IsNaN) {
			// The binary search of gonum's interpolant on abscissae
			// holding a NaN puts an iterate in a segment that a change in
			// its last bits changes: only determinism is checked.
			if !slices.EqualFunc(got, alias, sameBits) {
				t.Fatalf("trial %d: got %v, aliased %v", trial, got, alias)
			}
			continue
		}
		var g interp.FritschButland
		if err := g.Fit(xs, ys); err != nil {
			t.Fatal(err)
		}
		for n := range want {
			// The interpolant's values near the root are known to a few
			// ulps of the barrier: divided by its slope, an error in t.
			tol := 2e-14 + 4e-15*ys[len(ys)-1]/math.Abs(g.PredictDerivative(want[n]))
			tol *= math.Max(1, math.Abs(want[n])) // randomSchedule's points reach 1e308
			if math.IsNaN(tol) {
				// gonum's slope at its root is NaN: steps near 1e-300
				// overflowed the segment's cubic (±Inf coefficients), so
				// no point of it solves the target, and a target's last
				// bit (UpdateSchedule multiplies by Λ/N where gonum's
				// reference divides by N) picks the segment. Only
				// determinism is checked.
				if !sameBits(got[n], alias[n]) {
					t.Fatalf("trial %d: t_%d: got %v, aliased %v", trial, n, got[n], alias[n])
				}
				continue
			}
			if !sameBits(got[n], alias[n]) || !(sameBits(got[n], want[n]) || math.Abs(got[n]-want[n]) <= tol) {
				t.Fatalf("trial %d, %d chains, t_%d: got %v (aliased %v), gonum %v\nsched %v\nrej %v",
					trial, numChains, n, got[n], alias[n], want[n], sched, rej)
			}
			if n > 0 && want[n] >= want[n-1] && got[n] < got[n-1] {
				t.Fatalf("trial %d: schedule decreases at %d: %v", trial, n, got)
			}
		}
	}
	// Most trials must reach the solve, not the copy of an unusable barrier.
	if solved < trials/2 {
		t.Errorf("only %d of %d trials changed the schedule", solved, trials)
	}
}

// knotSlopes returns the largest magnitude of the secant slopes of the
// segments within two of knot i, the scale of the knot's derivative's
// rounding in fit.
func knotSlopes(xs, ys []float64, i int) float64 {
	s := 0.0
	for k := max(i-2, 0); k <= min(i+1, len(xs)-2); k++ {
		if v := math.Abs((ys[k+1] - ys[k]) / (xs[k+1] - xs[k])); v > s { // NaN steps left out
			s = v
		}
	}
	return 3 * s
}

// TestMonotoneCubicMatchesGonum fits monotoneCubic and gonum's
// interp.FritschButland to the barrier points of random schedules and
// rejections and checks that values and derivatives agree at the knots,
// one ulp either side of them, midpoints, random points, outside the
// range, at ±Inf and NaN (values bit for bit at the knots and outside,
// derivatives at the knots and both inside the segments to rounding); and that segmentNear agrees with the
// binary search for hints at, next to and far from x's segment.
func TestMonotoneCubicMatchesGonum(t *testing.T) {
	skipIfFused(t)
	rng := rand.New(rand.NewPCG(14, 2))
	var c monotoneCubic // reused across fits, as UpdateSchedule does
	fits := 0
	for trial := range 600 {
		numChains := scheduleChains(rng, trial)
		xs, ys := barrierPointsRef(randomSchedule(rng, numChains), randomRejections(rng, numChains))
		if len(xs) < 2 {
			continue
		}
		var g interp.FritschButland
		if err := g.Fit(xs, ys); err != nil {
			t.Fatal(err)
		}
		c.fit(xs, ys)
		fits++
		m := len(xs) - 1
		pts := []float64{math.Inf(-1), math.Inf(1), math.NaN(), 0, 1, -1, 2}
		for i, x := range xs {
			pts = append(pts, x, math.Nextafter(x, math.Inf(-1)), math.Nextafter(x, math.Inf(1)))
			if i < m {
				pts = append(pts, 0.5*(x+xs[i+1]), x+(xs[i+1]-x)*rng.Float64())
			}
		}
		span := xs[m] - xs[0]
		pts = append(pts, xs[0]-span, xs[m]+span, xs[0]-span*rng.Float64(), xs[m]+span*rng.Float64())
		for _, x := range pts {
			i := c.findSegment(x)
			// Bit for bit at the knots and outside them; inside a
			// segment, where the cubic's a2 and a3 are gonum's to a few
			// ulps (fit multiplies by 1/dx where gonum divides), within
			// 1e-14 of the sum of the magnitudes of the terms (and 1e-300,
			// for the subnormal values of rejections near 1e-300).
			vtol, dtol := 0.0, 0.0
			switch {
			case i >= 0 && i < m && x != xs[i]:
				a0, a1, a2, a3 := c.coeff(i)
				a, dx := [4]float64{a0, a1, a2, a3}, x-xs[i]
				d1 := math.Abs(c.lastDyDx)
				if i+1 < m {
					d1 = math.Abs(c.derivs[i+1])
				}
				vtol = 1e-14*(math.Abs(a[0])+math.Abs(a[1]*dx)+math.Abs(a[2]*dx*dx)+math.Abs(a[3]*dx*dx*dx)+d1*dx) + 1e-300
				dtol = 1e-14*(math.Abs(a[1])+math.Abs(2*a[2]*dx)+math.Abs(3*a[3]*dx*dx)+3*d1+knotSlopes(xs, ys, i)+knotSlopes(xs, ys, i+1)) + 1e-300
			default:
				// A knot's derivative (at the knot, or held beyond the
				// end knots): to a few ulps of the slopes it comes from
				// (the edge derivatives subtract them).
				dtol = 1e-14*knotSlopes(xs, ys, min(max(i, 0), m)) + 1e-300
			}
			if gv, v := g.Predict(x), c.predict(i, x); !sameBits(gv, v) && !(math.Abs(gv-v) <= vtol) {
				t.Fatalf("trial %d: Predict(%v) = %v, gonum %v\nxs %v\nys %v", trial, x, v, gv, xs, ys)
			}
			if gd, d := g.PredictDerivative(x), c.predictDerivative(i, x); !sameBits(gd, d) && !(math.Abs(gd-d) <= dtol) {
				t.Fatalf("trial %d: PredictDerivative(%v) = %v, gonum %v\nxs %v\nys %v", trial, x, d, gd, xs, ys)
			}
			for _, seg := range []int{i - 1, i, i + 1, rng.IntN(m)} {
				if seg < 0 || seg >= m {
					continue
				}
				if k := c.segmentNear(x, seg); k != i {
					t.Fatalf("trial %d: segmentNear(%v, %d) = %d, binary search %d\nxs %v", trial, x, seg, k, i, xs)
				}
			}
		}
	}
	if fits < 300 {
		t.Errorf("only %d fits", fits)
	}
}

// benchScheduleInput returns the schedule and rejections of a scan-end
// schedule update at numChains chains: a perturbed uniform schedule and
// the rejections of a barrier Λ(t) = 3√t with some noise, the shape of the
// Gaussian's local barrier.
func benchScheduleInput(numChains int) (sched, rej []float64) {
	rng := rand.New(rand.NewPCG(14, 3))
	sched = UniformSchedule(numChains)
	for n := 1; n < numChains-1; n++ {
		sched[n] += 0.2 / float64(numChains-1) * (rng.Float64() - 0.5)
	}
	rej = make([]float64, numChains-1)
	for n := range rej {
		rej[n] = 3 * (math.Sqrt(sched[n+1]) - math.Sqrt(sched[n])) * (0.9 + 0.2*rng.Float64())
	}
	return sched, rej
}

// TestUpdateScheduleAllocs checks that UpdateSchedule does not allocate
// once its pool is warm.
func TestUpdateScheduleAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops items")
	}
	for _, numChains := range []int{50, 240} {
		sched, rej := benchScheduleInput(numChains)
		dst := make([]float64, numChains)
		UpdateSchedule(dst, sched, rej) // warm the pool
		if !(dst[numChains/2] != sched[numChains/2]) {
			t.Fatalf("%d chains: the schedule was not updated", numChains)
		}
		if a := testing.AllocsPerRun(100, func() { UpdateSchedule(dst, sched, rej) }); a != 0 {
			t.Errorf("%d chains: %v allocations per UpdateSchedule", numChains, a)
		}
	}
}

// BenchmarkUpdateSchedule times the schedule update of eq:equicrit at 50
// and 240 chains, on monotoneCubic (impl=cubic, UpdateSchedule) and on
// gonum's interpolant (impl=gonum, updateScheduleGonum); compare them with
// benchstat -col /impl.
func BenchmarkUpdateSchedule(b *testing.B) {
	for _, numChains := range []int{50, 240} {
		sched, rej := benchScheduleInput(numChains)
		dst := make([]float64, numChains)
		for _, impl := range []struct {
			name   string
			update func(dst, sched, rej []float64)
		}{{"gonum", updateScheduleGonum}, {"cubic", UpdateSchedule}} {
			b.Run(fmt.Sprintf("impl=%s/chains=%d", impl.name, numChains), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					impl.update(dst, sched, rej)
				}
			})
		}
	}
}

// TestBarrierPointsMatchesRef checks that barrierPoints, now on
// appendBarrierPoints with its clamp written out, returns exactly the
// points it returned before (barrierPointsRef), also into reused buffers.
func TestBarrierPointsMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 4))
	var xs, ys []float64
	for trial := range 1000 {
		numChains := scheduleChains(rng, trial)
		sched, rej := randomSchedule(rng, numChains), randomRejections(rng, numChains)
		wantX, wantY := barrierPointsRef(sched, rej)
		gotX, gotY := barrierPoints(sched, rej)
		xs, ys = appendBarrierPoints(xs[:0], ys[:0], sched, rej)
		for _, got := range [][2][]float64{{gotX, gotY}, {xs, ys}} {
			if !slices.EqualFunc(got[0], wantX, sameBits) || !slices.EqualFunc(got[1], wantY, sameBits) {
				t.Fatalf("trial %d: points (%v, %v), want (%v, %v)", trial, got[0], got[1], wantX, wantY)
			}
		}
	}
}

// sameBits reports whether x and y have the same bits.
func sameBits(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }

// TestBarrierPointsNaNFlagIsFitsCheck checks that appendBarrierPointsNaN's
// flag is what fit's pass over the steps finds (the schedule update fits
// with the flag instead), on random schedules with and without NaN, ±Inf
// and repeated points, and that fitChecked then fits the same cubic.
func TestBarrierPointsNaNFlagIsFitsCheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 9))
	withNaN := 0
	for trial := range 3000 {
		numChains := scheduleChains(rng, trial)
		sched, rej := randomSchedule(rng, numChains), randomRejections(rng, numChains)
		if trial%3 == 0 {
			sched[rng.IntN(numChains)] = []float64{math.NaN(), math.Inf(1), math.Inf(-1), sched[0]}[rng.IntN(4)]
		}
		xs, ys, hasNaN := appendBarrierPointsNaN(nil, nil, sched, rej)
		if len(xs) < 2 {
			continue
		}
		var a, b monotoneCubic
		a.fit(xs, ys)
		b.fitChecked(xs, ys, !hasNaN)
		if a.increasing != !hasNaN {
			t.Fatalf("trial %d: flag NaN %v, fit's check increasing %v (xs %v)", trial, hasNaN, a.increasing, xs)
		}
		if hasNaN {
			withNaN++
		}
		for i := range xs[:len(xs)-1] {
			a0, a1, a2, a3 := a.coeff(i)
			b0, b1, b2, b3 := b.coeff(i)
			if !slices.EqualFunc([]float64{a0, a1, a2, a3}, []float64{b0, b1, b2, b3}, sameBits) {
				t.Fatalf("trial %d: segment %d's coefficients differ", trial, i)
			}
		}
	}
	if withNaN == 0 {
		t.Error("no schedule held a NaN")
	}
}
