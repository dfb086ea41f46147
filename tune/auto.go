package tune

import (
	"math"
)

// Settings of the automatic tuner (Auto). None is fitted to a model: the
// steps are in log space and relative, the tests compare the SKL's changes
// with its own standard error, and lengths are in units of the first
// round. The README's section "Automatic tuning" gives the measurements
// behind them.
const (
	// rpropInit is the first step of every free knot component in log
	// space: a change of φ by a factor e^0.1 ≈ 1.1.
	rpropInit = 0.1
	// rpropGrow and rpropShrink multiply a component's step while its
	// gradient keeps its sign, and when the sign flips (the last step
	// went past a minimum along that component): Riedmiller and Braun's
	// values.
	rpropGrow   = 1.2
	rpropShrink = 0.5
	// rpropMax and rpropMin bound the step: at most a factor e per round,
	// at least a change of 1%, so that a component whose step has shrunk
	// in the noise at one minimum can still travel along a shallow valley
	// (a factor 2 in at most 70 rounds).
	rpropMax = 1.0
	rpropMin = 0.01
	// flatZ is the number of standard errors of the difference within
	// which two rounds' SKL estimates count as equal.
	flatZ = 2.0
	// flatLag is how many rounds back a round's SKL is also compared
	// with: on a plateau the SKL falls by less than its noise from one
	// round to the next, but not over several.
	flatLag = 3
	// settleRounds is the number of rounds in a row in which a knot
	// component's gradient keeps its sign that shows it still on its way
	// to a minimum (see Auto.settled).
	settleRounds = 3
	// flatRounds is the number of consecutive flat rounds, each twice as
	// long as the one before, after which the tuning may stop.
	flatRounds = 2
	// stopRelSE is the relative standard error of the SKL below which it
	// may stop: further rounds could not tell changes of the SKL smaller
	// than about 2% apart, that is of about 1% in Λ (the SKL of an
	// equi-barrier schedule grows like Λ²).
	stopRelSE = 0.01
)

// AutoOptions are the settings of one replicate's automatic tuner.
type AutoOptions struct {
	// Budget is the number of iterations the tuning may use: the tuner
	// freezes the path and the schedule, if it has not stopped before, at
	// the end of the scan that reaches it.
	Budget int
	// FirstRound is the length in iterations of the first rounds.
	FirstRound int
	// Path tunes the spline's knots (it needs K ≥ 2); Schedule tunes the
	// schedule (eq:equicrit).
	Path, Schedule bool
	// Updater, when not nil, holds the buffers of the schedule updates (it
	// must have room for the tuner's chains); tuners that end their rounds
	// one at a time may share one. Nil: UpdateSchedule's pooled buffers,
	// which the first update after a collection allocates again.
	Updater *ScheduleUpdater
}

// AutoScan is one scan's statistics for Auto.EndScan: Iters iterations
// and, for chain n, the mean energies Mean[2n], Mean[2n+1] = Ê_n[W0],
// Ê_n[W1], the centred sums of products M2[3n], M2[3n+1], M2[3n+2] =
// Σ_m (W0-Ê W0)², Σ_m (W0-Ê W0)(W1-Ê W1), Σ_m (W1-Ê W1)², and for pair
// (n, n+1) the sum of rejections RejSum[n] = Σ_m (1-α_n).
type AutoScan struct {
	Iters  int
	Mean   []float64
	M2     []float64
	RejSum []float64
}

// Auto is the automatic tuner of one replicate: alg:PT_tuning in rounds of
// whole scans, with no learning rate and no scan length from the user.
//
//   - A round pools the moments of every chain's energies and the
//     rejections over its scans. At its end the schedule is updated from
//     the round's rejections (eq:equicrit) and the knots take one step
//     against the SKL gradient (eq:bound; SKLWorkspace.MomentGradient) of
//     the round's moments.
//   - The step is resilient backpropagation (Rprop; Riedmiller and Braun
//     1993, in the iRprop⁻ form of Igel and Hüsken 2000) in θ = log φ:
//     each free knot component moves by its own step Δ against the sign of
//     its gradient; Δ grows by 1.2 while the sign holds and halves when it
//     flips, and a component whose sign flipped waits a round. Only signs
//     are used, so the step does not depend on the gradient's scale, which
//     spans orders of magnitude between the linear starting path and the
//     optimum (the reason for the authors' scaling g/(|g|+φ), Spline.Step):
//     far from the optimum Δ grows geometrically, and at the optimum the
//     noisy signs flip and Δ shrinks. After the step the knots are
//     projected back onto monotone paths in log space (Spline.stepLog).
//   - A round is flat when no knot component's gradient has kept its sign
//     for settleRounds rounds in a row (the knots are near a minimum, not
//     on their way to one: see settled) and its SKL estimate differs from
//     both the previous round's and the one flatLag rounds back by at most
//     flatZ standard errors of the difference. The standard error of a round's SKL is the one of
//     independent draws, Σ_n z_nᵀ Cov_n z_n / M (z = Dη as in
//     SKLWorkspace.Gradient): exact for exact samplers and too small under
//     autocorrelation, which errs towards tuning longer. Rounds keep
//     FirstRound iterations while the SKL falls; each flat round doubles
//     the next round's length, halving the variance of the next gradient
//     and SKL.
//   - The tuning stops after flatRounds consecutive flat rounds once the
//     SKL is known to stopRelSE, or when the budget cannot hold the next
//     round. The last round's rejections then update the schedule once
//     more, on the path they were measured on, without a path step, and
//     path and schedule are frozen: every later scan runs one fixed
//     sampler.
//
// Auto does not hold the schedule and the path: EndScan updates the ones
// it is given, which must be the ones the scan ran on.
type Auto struct {
	opts AutoOptions

	// Rprop state per free knot component, ordered like the gradient.
	step []float64 // Δ, in log space
	sign []float64 // sign of the last gradient stepped on (0 after a flip)
	// lastSign is the sign of each component's last gradient, and same the
	// number of consecutive rounds it has kept it.
	lastSign []float64
	same     []int

	// The current round's pooled moments.
	iters  int       // iterations so far
	mean   []float64 // by chain: Ê[W0], Ê[W1]
	m2     []float64 // by chain: centred sums of products
	rejSum []float64 // by pair

	roundLen int // iterations of the current round
	used     int // iterations of tuning so far
	rounds   int // rounds completed
	flat     int // consecutive flat rounds
	// The SKL estimates of the last flatLag rounds and their variances,
	// the latest last.
	pastSKL, pastVar [flatLag]float64
	frozen           bool

	// Scratch.
	work    SKLWorkspace
	grad    []float64
	cov     []float64
	rej     []float64
	delta   []float64
	scratch []float64
	z       []float64
	eta     []float64
}

// NewAuto returns the tuner of a replicate with numChains chains and a
// spline of numKnots segments. It panics on a Budget or FirstRound below 1,
// on numChains < 2 or numKnots < 1.
func NewAuto(numChains, numKnots int, opts AutoOptions) *Auto {
	if numChains < 2 {
		panic("tune: fewer than two chains")
	}
	if numKnots < 1 {
		panic("tune: spline needs at least one segment")
	}
	if opts.Budget < 1 || opts.FirstRound < 1 {
		panic("tune: automatic tuner needs a positive budget and first round")
	}
	free, c := 2*(numKnots-1), numChains
	// The floats in one allocation, written now: their pages are mapped
	// when the tuner is built, not at the end of its first round (the
	// runtime does not write the memory it takes fresh from the system).
	floats := make([]float64, 6*free+14*c-2)
	clear(floats)
	take := func(n int) []float64 {
		x := floats[:n:n]
		floats = floats[n:]
		return x
	}
	a := &Auto{
		opts:     opts,
		step:     take(free),
		sign:     take(free),
		lastSign: take(free),
		same:     make([]int, free),
		mean:     take(2 * c),
		m2:       take(3 * c),
		rejSum:   take(c - 1),
		roundLen: opts.FirstRound,
		grad:     take(free),
		cov:      take(3 * c),
		rej:      take(c - 1),
		delta:    take(free),
		scratch:  take(free),
		z:        take(2 * c),
		eta:      take(2 * c),
	}
	clear(a.same)
	for i := range a.step {
		a.step[i] = rpropInit
	}
	return a
}

// Frozen reports whether the tuning has stopped: the path and the schedule
// no longer change.
func (a *Auto) Frozen() bool { return a.frozen }

// Rounds returns the number of rounds completed.
func (a *Auto) Rounds() int { return a.rounds }

// Used returns the iterations of tuning: up to the end of the round after
// which it stopped, or every iteration seen so far while it tunes.
func (a *Auto) Used() int { return a.used }

// EndScan adds one scan's statistics, measured on the schedule sched and
// the path, to the current round and, when the round is complete, ends it:
// it updates sched and path in place as the type's documentation says. It
// returns true when it changed them. After the tuning has stopped it does
// nothing and returns false.
func (a *Auto) EndScan(sched []float64, path *Spline, scan AutoScan) bool {
	if a.frozen {
		return false
	}
	numChains := len(sched)
	switch {
	case len(a.mean) != 2*numChains:
		panic("tune: automatic tuner chain count mismatch")
	case len(scan.Mean) != 2*numChains || len(scan.M2) != 3*numChains || len(scan.RejSum) != numChains-1:
		panic("tune: automatic tuner scan length mismatch")
	case 2*(path.K()-1) != len(a.step):
		panic("tune: automatic tuner path mismatch")
	case scan.Iters < 1:
		panic("tune: automatic tuner scan without iterations")
	}
	a.add(scan)
	return a.scanAdded(sched, path, scan.Iters)
}

// scanAdded counts a scan of iters iterations added to the round and ends
// the round when it is complete, reporting whether it did.
func (a *Auto) scanAdded(sched []float64, path *Spline, iters int) bool {
	a.used += iters
	if a.iters < a.roundLen && a.used < a.opts.Budget {
		return false
	}
	a.endRound(sched, path)
	return true
}

// AutoSums is one scan of one replicate as an engine accumulates it, lanes
// of replicates side by side: for chain n, at index n*Stride+Lane of each
// slice, the energies of the scan's first iteration Shift0, Shift1, the
// sums over the scan's Iters iterations of the energies minus those,
// Sum0, Sum1, and of their products Sq00 = Σ_m (W0-Shift0)²,
// Sq01 = Σ_m (W0-Shift0)(W1-Shift1), Sq11 = Σ_m (W1-Shift1)²; and for
// pair (n, n+1) the sum of rejections RejSum[n*Stride+Lane].
type AutoSums struct {
	Iters, Stride, Lane                          int
	Shift0, Shift1, Sum0, Sum1, Sq00, Sq01, Sq11 []float64
	RejSum                                       []float64
}

// EndScanSums is EndScan for a scan given by its shifted sums: each
// chain's means Shift + Sum·(1/M) and centred sums of products
// Sq - Sum·(Sum·(1/M)) are merged into the round's as they are computed,
// with no AutoScan in between, and bit for bit as EndScan of the AutoScan
// holding them.
func (a *Auto) EndScanSums(sched []float64, path *Spline, s AutoSums) bool {
	if a.frozen {
		return false
	}
	numChains := len(sched)
	last := (numChains-1)*s.Stride + s.Lane // chain numChains-1's index
	switch {
	case len(a.mean) != 2*numChains:
		panic("tune: automatic tuner chain count mismatch")
	case s.Lane < 0 || s.Lane >= s.Stride || min(len(s.Shift0), len(s.Shift1), len(s.Sum0), len(s.Sum1),
		len(s.Sq00), len(s.Sq01), len(s.Sq11)) <= last || len(s.RejSum) <= last-s.Stride:
		panic("tune: automatic tuner scan length mismatch")
	case 2*(path.K()-1) != len(a.step):
		panic("tune: automatic tuner path mismatch")
	case s.Iters < 1:
		panic("tune: automatic tuner scan without iterations")
	}
	a.addSums(&s)
	return a.scanAdded(sched, path, s.Iters)
}

// addSums is add for a scan's shifted sums, the same operations in the
// same order.
func (a *Auto) addSums(s *AutoSums) {
	na, nb := float64(a.iters), float64(s.Iters)
	n := na + nb
	f, g, inv := na*nb/n, nb/n, 1/nb
	for c := 0; c < len(a.mean)/2; c++ {
		i := c*s.Stride + s.Lane
		s0, s1 := s.Sum0[i], s.Sum1[i]
		f0, f1 := s0*inv, s1*inv
		d0 := s.Shift0[i] + f0 - a.mean[2*c]
		d1 := s.Shift1[i] + f1 - a.mean[2*c+1]
		a.m2[3*c] += s.Sq00[i] - s0*f0 + d0*d0*f
		a.m2[3*c+1] += s.Sq01[i] - s0*f1 + d0*d1*f
		a.m2[3*c+2] += s.Sq11[i] - s1*f1 + d1*d1*f
		a.mean[2*c] += d0 * g
		a.mean[2*c+1] += d1 * g
	}
	for n := range a.rejSum {
		a.rejSum[n] += s.RejSum[n*s.Stride+s.Lane]
	}
	a.iters += s.Iters
}

// add merges a scan's moments into the round's (the pairwise update of
// means and centred sums of products of Chan, Golub and LeVeque 1979).
func (a *Auto) add(s AutoScan) {
	na, nb := float64(a.iters), float64(s.Iters)
	n := na + nb
	f, g := na*nb/n, nb/n
	for c := 0; c < len(a.mean)/2; c++ {
		d0 := s.Mean[2*c] - a.mean[2*c]
		d1 := s.Mean[2*c+1] - a.mean[2*c+1]
		a.m2[3*c] += s.M2[3*c] + d0*d0*f
		a.m2[3*c+1] += s.M2[3*c+1] + d0*d1*f
		a.m2[3*c+2] += s.M2[3*c+2] + d1*d1*f
		a.mean[2*c] += d0 * g
		a.mean[2*c+1] += d1 * g
	}
	for n, r := range s.RejSum {
		a.rejSum[n] += r
	}
	a.iters += s.Iters
}

// endRound ends the current round: the flatness test, then either the
// last schedule update and the freeze, or a path step, a schedule update
// and the next round's length.
func (a *Auto) endRound(sched []float64, path *Spline) {
	m := float64(a.iters)
	for n := range a.rej {
		a.rej[n] = a.rejSum[n] / m
	}
	for i, v := range a.m2 {
		a.cov[i] = v / math.Max(m-1, 1)
	}
	skl, variance := a.sklAndVariance(sched, path)
	a.rounds++
	if a.rounds > flatLag && a.settled() && a.within(0, skl, variance) && a.within(flatLag-1, skl, variance) {
		a.flat++
	} else {
		a.flat = 0
	}
	copy(a.pastSKL[:], a.pastSKL[1:])
	copy(a.pastVar[:], a.pastVar[1:])
	a.pastSKL[flatLag-1], a.pastVar[flatLag-1] = skl, variance

	next := a.roundLen
	if a.flat > 0 {
		next *= 2
	}
	precise := math.Sqrt(variance) <= stopRelSE*math.Abs(skl)
	stop := (a.flat >= flatRounds && precise) || a.used+next > a.opts.Budget || a.iters < 2
	if !stop && a.opts.Path {
		a.pathStep(sched, path)
	}
	switch {
	case a.opts.Schedule && a.opts.Updater != nil:
		a.opts.Updater.Update(sched, sched, a.rej)
	case a.opts.Schedule:
		UpdateSchedule(sched, sched, a.rej)
	}
	a.roundLen = next
	a.frozen = stop
	a.iters = 0
	clear(a.mean)
	clear(a.m2)
	clear(a.rejSum)
}

// within reports whether skl, of the given variance, differs from the
// estimate lag+1 rounds back by at most flatZ standard errors of the
// difference.
func (a *Auto) within(lag int, skl, variance float64) bool {
	i := flatLag - 1 - lag
	return math.Abs(a.pastSKL[i]-skl) <= flatZ*math.Sqrt(a.pastVar[i]+variance)
}

// settled reports whether no free knot component's gradient has kept its
// sign for settleRounds rounds in a row: the knots are in the
// neighbourhood of a minimum, where noise flips the signs, and the SKL's
// changes can be compared with its noise. A component still on its way
// — from the starting path, on a plateau where the SKL falls slowly but
// steadily, or along a shallow valley after its step has shrunk — keeps
// its sign while its step grows again. Without path tuning the tuner is
// settled from the start.
func (a *Auto) settled() bool {
	if !a.opts.Path {
		return true
	}
	for _, n := range a.same {
		if n >= settleRounds {
			return false
		}
	}
	return true
}

// sklAndVariance returns the round's SKL estimate Σ_n z_n·Ê_n[W] (eq:bound,
// as SKLEstimate) and its variance Σ_n z_nᵀ Cov_n z_n / M for independent
// draws.
func (a *Auto) sklAndVariance(sched []float64, path *Spline) (skl, variance float64) {
	for n, t := range sched {
		a.eta[2*n], a.eta[2*n+1] = path.Eta(t)
	}
	laplacian(a.z, a.eta)
	for n := range sched {
		z0, z1 := a.z[2*n], a.z[2*n+1]
		skl += z0*a.mean[2*n] + z1*a.mean[2*n+1]
		c00, c01, c11 := a.cov[3*n], a.cov[3*n+1], a.cov[3*n+2]
		variance += z0*z0*c00 + 2*z0*z1*c01 + z1*z1*c11
	}
	return skl, variance / float64(a.iters)
}

// pathStep takes the iRprop⁻ step in log space against the round's
// gradient. A gradient with a non-finite component is ignored.
func (a *Auto) pathStep(sched []float64, path *Spline) {
	if len(a.step) == 0 {
		return
	}
	a.work.MomentGradient(a.grad, a.mean, a.cov, sched, path)
	for _, g := range a.grad {
		if math.IsNaN(g) || math.IsInf(g, 0) {
			return
		}
	}
	for c, g := range a.grad {
		s := 0.0
		switch {
		case g > 0:
			s = 1
		case g < 0:
			s = -1
		}
		if s != 0 && s == a.lastSign[c] {
			a.same[c]++
		} else if a.same[c] = 0; s != 0 {
			a.same[c] = 1
		}
		a.lastSign[c] = s
		switch p := s * a.sign[c]; {
		case p > 0:
			a.step[c] = math.Min(a.step[c]*rpropGrow, rpropMax)
		case p < 0:
			a.step[c] = math.Max(a.step[c]*rpropShrink, rpropMin)
			s = 0
		}
		a.sign[c] = s
		a.delta[c] = -s * a.step[c]
	}
	path.stepLog(a.delta, a.scratch)
}
