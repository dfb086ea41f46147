package batch

import (
	"math"
	"slices"

	"github.com/ptbatch/ptbatch/asm"
	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/tune"
)

// tuner is the per-replicate tuning state of alg:PT_tuning for the lanes of
// a block: each lane's schedule and spline path (whose Adagrad
// accumulators live in the Spline), and the scratch of the gradient.
type tuner struct {
	sched  [lanes][]float64
	path   [lanes]*tune.Spline
	work   [lanes]*tune.SKLWorkspace
	grad   []float64
	matrix []float64 // one replicate's recorded energies, M × 2C
	mean   []float64 // one replicate's E_n[W_i] at 2n+i
	cov    []float64 // … and Cov_n(W) at 3n, 3n+1, 3n+2

	// With AutoTuning: each lane's automatic tuner.
	auto [lanes]*tune.Auto

	// updater holds the buffers of the lanes' schedule updates (the
	// paper's tuning), sized at the start so that no scan end allocates.
	updater *tune.ScheduleUpdater

	// block holds the buffers of blockGradients, when the lanes' path
	// steps are taken from the moments all at once (blockPath).
	block *blockGradient

	// c1 is the number of chains of the first leg, all of them with one
	// leg. With two legs (Config.VariationalLeg) sched[j] holds t of
	// every chain of the line: leg 1's C1 points rising from 0 to 1, then
	// leg 2's falling from 1 to 0 (chain C1+k at leg 2's point C2−1−k).
	// legSched and legRej are scratch for leg 2's schedule update in
	// rising order; with AutoTuning and TuneSchedule legRound pools each
	// lane's leg-2 rejection sums over the automatic tuner's round, of
	// legIters iterations.
	c1               int
	legSched, legRej []float64
	legRound         [lanes][]float64
	legIters         [lanes]int
}

// newTuner returns the tuners of a block's lanes at the start of a run:
// every lane on the uniform schedule (with two legs, leg 2's falling
// after leg 1's) and the linear path, the schedules taken from sl
// (tunerFloats of them). packed tells whether the block holds lanes of
// several runs (RunPacked), whose path steps are taken lane by lane: a
// block of one run takes them all at once (blockGradients) and gets the
// lane-by-lane scratch only if a scan end needs it (laneScratch). The
// buffers of the end of a scan are sc's when sc is not nil (the blocks of
// one worker share them), the tuner's own otherwise.
func newTuner(cfg *Config, recordRows int, sl *slab, packed bool, sc *scanScratch) tuner {
	if sc == nil {
		sc = newScanScratch(cfg, packed)
	}
	t := tuner{c1: cfg.leg1Chains()}
	sched := tune.UniformSchedule(t.c1)
	if c2 := cfg.VariationalLeg; c2 > 0 {
		t.legSched, t.legRej = make([]float64, c2), make([]float64, c2-1)
		leg2 := tune.UniformSchedule(c2)
		slices.Reverse(leg2)
		sched = append(sched, leg2...)
		if cfg.Tuning == AutoTuning && cfg.TuneSchedule {
			carve(t.legRound[:], c2-1, c2-1)
		}
	}
	for j := 0; j < lanes; j++ {
		t.sched[j] = sl.take(len(sched))
		copy(t.sched[j], sched)
		t.path[j] = tune.NewSpline(cfg.Knots)
	}
	c := t.c1
	t.updater = sc.updater
	if cfg.Tuning == AutoTuning {
		t.auto = newAutoTuners(cfg, recordRows, sc.updater)
		return t
	}
	if cfg.TunePath {
		t.grad = make([]float64, 2*(cfg.Knots-1))
		switch {
		case cfg.Gradient == FullGradient:
			t.matrix = make([]float64, recordRows*2*c)
			for j := range t.work {
				t.work[j] = new(tune.SKLWorkspace)
			}
		case packed:
			for j := range t.work {
				t.laneScratch(j, cfg.Knots)
			}
		default:
			t.block = sc.grad
		}
	}
	return t
}

// scanScratch holds the buffers that the end of a scan writes and reads
// again before it returns: the schedule updater's and the block
// gradient's rows and records (29 KB of records per block at 50 chains).
// Nothing in them outlives one block's scan end, so the blocks of one
// worker, whose scans it ends one at a time, share one set (Engine's
// scratch), which stays in that worker's cache; a set per block was cold
// at the first end of a scan, and at every end in a run of more blocks
// than the cache holds.
type scanScratch struct {
	updater *tune.ScheduleUpdater // with TuneSchedule
	grad    *blockGradient        // with the paper's tuning of the path by the block gradient, blocks of one run
}

// newScanScratch returns the scratch of the ends of scans of the blocks
// of cfg (packed: of RunPacked, whose path steps go lane by lane).
func newScanScratch(cfg *Config, packed bool) *scanScratch {
	sc := &scanScratch{}
	if cfg.TuneSchedule {
		sc.updater = tune.NewScheduleUpdater(max(cfg.leg1Chains(), cfg.VariationalLeg))
	}
	if cfg.TunePath && cfg.Tuning != AutoTuning && cfg.Gradient != FullGradient && !packed {
		sc.grad = newBlockGradient(cfg.leg1Chains(), cfg.Knots)
	}
	return sc
}

// laneScratch allocates what momentPathStep needs for lane j, the first
// time: the chains' means and covariances (shared by the lanes) and the
// lane's workspace for splines of numKnots segments. A block of one run
// needs them only where its scan ends cannot take the lanes' steps at
// once (a scan of one iteration, or tests that turn blockPathSteps off).
func (t *tuner) laneScratch(j, numKnots int) {
	c := t.c1
	if t.mean == nil {
		t.mean, t.cov = make([]float64, 2*c), make([]float64, 3*c)
	}
	if t.work[j] == nil {
		t.work[j] = tune.NewMomentWorkspace(c, numKnots)
	}
}

// tunerFloats returns the room newTuner takes from its slab: each lane's
// schedule, one point per chain.
func tunerFloats(cfg *Config) int { return lanes * slabLen(cfg.Chains) }

// pathStep computes lane j's SKL gradient from the scan's energies and
// steps its spline.
//
// The block form (the default) uses the moments of each chain accumulated
// during the scan; the full form the recorded energies, whose cross-chain
// covariances have zero expectation under the product target but add
// variance (tune.SKLWorkspace.Gradient).
func (t *tuner) pathStep(cfg *Config, e *energyMoments, j, iters int) {
	if cfg.Gradient != FullGradient {
		t.momentPathStep(cfg, e, j, iters)
		return
	}
	cols, all := 2*t.c1, 2*len(t.sched[j])
	mat := t.matrix[:iters*cols]
	for m := 0; m < iters; m++ {
		for col := 0; col < cols; col++ {
			mat[m*cols+col] = e.record[(m*all+col)*lanes+j]
		}
	}
	grad := t.laneGrad(j)
	t.work[j].Gradient(grad, mat, iters, t.leg1(j), t.path[j], true)
	for _, g := range grad {
		if math.IsNaN(g) || math.IsInf(g, 0) {
			return // no step on a non-finite gradient; the scan's statistics show why
		}
	}
	t.path[j].Step(grad, cfg.LearningRate)
}

// laneGrad returns the gradient's scratch for lane j's spline: 2(K−1)
// values (in a packed block, lanes of runs of different K share grad,
// sized for the largest).
func (t *tuner) laneGrad(j int) []float64 { return t.grad[:2*(t.path[j].K()-1)] }

// momentPathStep is pathStep's block form: the sample means and
// covariances (divisor M-1) of each chain's energies over the scan, from
// the shifted sums.
func (t *tuner) momentPathStep(cfg *Config, e *energyMoments, j, iters int) {
	if iters < 2 {
		return
	}
	// Multiplications by 1/M and 1/(M-1), not divisions: the divider,
	// five times per chain, was a tenth of the scan's end.
	inv, inv1 := 1/float64(iters), 1/float64(iters-1)
	// The sums' slices in locals, from lane j on: in the loop, Go would
	// reload a field's slice after every store.
	// Each slice cut to the same length, chain c-1's index the last, so
	// that the loop's reads need no bounds checks; the writes go through
	// windows of constant length.
	t.laneScratch(j, t.path[j].K())
	c := t.c1
	end := j + (c-1)*lanes + 1
	sum0, sum1, shift0, shift1 := e.sum0[j:end], e.sum1[j:end], e.shift0[j:end], e.shift1[j:end]
	sq00, sq01, sq11 := e.sq00[j:end], e.sq01[j:end], e.sq11[j:end]
	mean, cov := t.mean[:2*c], t.cov[:3*c]
	for i, n := 0, 0; i < len(sum0); i, n = i+lanes, n+1 {
		s0, s1 := sum0[i], sum1[i]
		f0, f1 := s0*inv, s1*inv
		m := mean[2*n : 2*n+2 : 2*n+2]
		m[0] = shift0[i] + f0
		m[1] = shift1[i] + f1
		v := cov[3*n : 3*n+3 : 3*n+3]
		v[0] = (sq00[i] - s0*f0) * inv1
		v[1] = (sq01[i] - s0*f1) * inv1
		v[2] = (sq11[i] - s1*f1) * inv1
	}
	grad := t.laneGrad(j)
	t.work[j].MomentGradient(grad, t.mean, t.cov, t.leg1(j), t.path[j])
	t.path[j].Step(grad, cfg.LearningRate)
}

// blockPathSteps reports whether the tuners of a block of one run (not a
// packed block, whose lanes' splines may differ in K) take their path
// steps from gradients computed for all lanes at once (blockGradients).
// Tests set it to false to compare with the lane-by-lane computation.
var blockPathSteps = true

// blockGradient holds the rows of blockGradients: the lanes' leg-1
// schedules and knots with the lanes innermost, the chains' records of
// kernel.PathMoments and the knots' sums of kernel.PathProject.
type blockGradient struct {
	t, knotRows, rec, acc []float64
	// steps is tune.StepLanes' scratch: the lanes' knots and Adagrad sums
	// as rows.
	steps []float64
}

// newBlockGradient returns the buffers of blockGradients for c chains on
// leg 1 and splines of numKnots segments.
func newBlockGradient(c, numKnots int) *blockGradient {
	g := &blockGradient{
		t:        make([]float64, c*lanes),
		knotRows: make([]float64, 2*(numKnots+1)*lanes),
		rec:      make([]float64, asm.PathRecord*c*lanes),
		acc:      make([]float64, 2*(numKnots+1)*lanes),
		steps:    make([]float64, 4*(numKnots-1)*lanes),
	}
	touch(g.t, g.knotRows, g.rec, g.acc, g.steps)
	return g
}

// touch writes every value of the buffers xs, so that their pages are
// mapped now, on the CPU of the worker that builds the block (memory the
// runtime takes fresh from the system is known to be zero and is not
// written by make): the first scan's end would otherwise take a page
// fault for each new page, tens of microseconds per block on a virtual
// machine, that no later scan pays.
func touch(xs ...[]float64) {
	for _, x := range xs {
		clear(x)
	}
}

// blockGradients computes the path gradient of every lane of the block
// (momentPathStep's, MomentGradient's bits) at once with the lanes
// innermost, as the moments are stored: kernel.PathMoments writes each
// chain's means, covariances, η, segment and weight, kernel.PathProject
// adds the chains' terms to the knots' sums, the interior knots' sums
// being the lanes' gradients (blockSteps takes their steps). The lanes'
// splines must have one K (a block of one run).
func (t *tuner) blockGradients(e *energyMoments, iters int) {
	g, c := t.block, t.c1
	n := c * lanes
	numKnots := t.blockRows()
	inv, inv1 := 1/float64(iters), 1/float64(iters-1)
	kernel.PathMoments(g.rec, e.sum0[:n], e.sum1[:n], e.shift0[:n], e.shift1[:n], e.sq00[:n], e.sq01[:n], e.sq11[:n],
		g.t, g.knotRows, numKnots, inv, inv1)
	clear(g.acc)
	kernel.PathProject(g.acc, g.rec, c, numKnots)
}

// blockRows copies the lanes' leg-1 schedules and knots to the rows of
// t.block, the lanes innermost, and returns the splines' K.
func (t *tuner) blockRows() (numKnots int) {
	g, c := t.block, t.c1
	// A row of the eight lanes at a time, from the lanes' schedules cut
	// to c (so that the reads need no bounds checks): contiguous stores,
	// where a lane at a time stored with a stride.
	s0, s1, s2, s3 := t.sched[0][:c], t.sched[1][:c], t.sched[2][:c], t.sched[3][:c]
	s4, s5, s6, s7 := t.sched[4][:c], t.sched[5][:c], t.sched[6][:c], t.sched[7][:c]
	for i := range s0 {
		row := g.t[i*lanes : i*lanes+lanes : i*lanes+lanes]
		row[0], row[1], row[2], row[3] = s0[i], s1[i], s2[i], s3[i]
		row[4], row[5], row[6], row[7] = s4[i], s5[i], s6[i], s7[i]
	}
	numKnots = t.path[0].K()
	for k := 0; k <= numKnots; k++ {
		r0 := g.knotRows[2*k*lanes : 2*k*lanes+lanes : 2*k*lanes+lanes]
		r1 := g.knotRows[(2*k+1)*lanes : (2*k+1)*lanes+lanes : (2*k+1)*lanes+lanes]
		for j, p := range &t.path {
			r0[j], r1[j] = p.Knot(k)[0], p.Knot(k)[1]
		}
	}
	return numKnots
}

// blockEta writes η(t_n) of every lane's leg-1 chains on its path to the
// rows eta0 and eta1 (chain-major, the lanes innermost) at once, by
// kernel.PathEta: the bits of Spline.EtaStrided lane by lane.
func (t *tuner) blockEta(eta0, eta1 []float64) {
	numKnots := t.blockRows()
	kernel.PathEta(eta0, eta1, t.block.t, t.block.knotRows, numKnots)
}

// blockSteps takes the path step of lanes 0 … n−1 from the gradients of
// blockGradients at once (tune.StepLanes: Spline.Step's bits lane by
// lane): the sums of the interior knots φ_1 … φ_{K−1}, component 0 first,
// are the gradients' rows, the lanes innermost, in the order of
// Spline.Step's argument.
func (t *tuner) blockSteps(n int, lr float64) {
	free := 2 * (t.path[0].K() - 1)
	tune.StepLanes(t.path[:n], t.block.acc[2*lanes:(2+free)*lanes], lr, t.block.steps)
}

// leg1 returns lane j's schedule of the first leg: t of chains 0 … C1−1
// (the whole schedule with one leg).
func (t *tuner) leg1(j int) []float64 { return t.sched[j][:t.c1] }

// updateSchedules updates lane j's schedule from its rejections by pair
// of chains, rej (eq:equicrit): leg 1's from those of its pairs and, with
// two legs, leg 2's from those of its own, each leg separately (the
// junction's pair, always accepted, belongs to neither).
func (t *tuner) updateSchedules(j int, rej []float64) {
	t.updater.Update(t.leg1(j), t.leg1(j), rej[:t.c1-1])
	if t.legSched != nil {
		t.updateLeg2(j, rej[t.c1:])
	}
}

// updateLeg2 updates lane j's leg-2 schedule from the rejections of leg
// 2's pairs in chain order, rej2[k] between chains C1+k and C1+k+1: in
// leg 2's rising order t_0 = 0 (the second reference, chain C1+C2−1) …
// t_{C2−1} = 1 (chain C1), then back in chain order.
func (t *tuner) updateLeg2(j int, rej2 []float64) {
	s, c2 := t.sched[j][t.c1:], len(t.legSched)
	for i := range t.legSched {
		t.legSched[i] = s[c2-1-i]
	}
	for i := range t.legRej {
		t.legRej[i] = rej2[c2-2-i]
	}
	t.updater.Update(t.legSched, t.legSched, t.legRej)
	for i, v := range t.legSched {
		s[c2-1-i] = v
	}
}

// eta returns η(t_n) of chain n of lane j: on the lane's path along leg
// 1, and on the linear path η = (1−t, t) along leg 2.
func (t *tuner) eta(j, n int) (float64, float64) {
	s := t.sched[j][n]
	if n < t.c1 {
		return t.path[j].Eta(s)
	}
	return 1 - s, s
}
