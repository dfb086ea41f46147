package batch

import (
	"math"
	"slices"

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

	// With the block form of the path gradient (the default), the
	// moments of every lane's chains, lane-innermost, each lane's gradient
	// and their scratch (momentPathSteps).
	laneMoments tune.LaneMoments
	laneGrad    [lanes][]float64
	laneWork    tune.LaneGradientWorkspace

	// With AutoTuning: each lane's automatic tuner.
	auto [lanes]*tune.Auto

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

func newTuner(cfg *Config, recordRows int) tuner {
	t := tuner{c1: cfg.leg1Chains()}
	for j := 0; j < lanes; j++ {
		t.sched[j] = tune.UniformSchedule(t.c1)
		t.path[j] = tune.NewSpline(cfg.Knots)
	}
	if c2 := cfg.VariationalLeg; c2 > 0 {
		t.legSched, t.legRej = make([]float64, c2), make([]float64, c2-1)
		for j := 0; j < lanes; j++ {
			leg2 := tune.UniformSchedule(c2)
			slices.Reverse(leg2)
			t.sched[j] = append(t.sched[j], leg2...)
			if cfg.Tuning == AutoTuning && cfg.TuneSchedule {
				t.legRound[j] = make([]float64, c2-1)
			}
		}
	}
	c := t.c1
	if cfg.Tuning == AutoTuning {
		t.auto = newAutoTuners(cfg, recordRows)
		return t
	}
	if cfg.TunePath {
		if cfg.Gradient == FullGradient {
			t.matrix = make([]float64, recordRows*2*c)
		} else {
			m := &t.laneMoments
			for _, s := range []*[]float64{&m.Mean0, &m.Mean1, &m.C00, &m.C01, &m.C11} {
				*s = make([]float64, c*lanes)
			}
			for j := range t.laneGrad {
				t.laneGrad[j] = make([]float64, 2*(cfg.Knots-1))
			}
		}
		t.grad = make([]float64, 2*(cfg.Knots-1))
		for j := range t.work {
			t.work[j] = new(tune.SKLWorkspace)
		}
	}
	return t
}

// pathStep computes lane j's SKL gradient from the scan's recorded
// energies (the full form, Config.Gradient = FullGradient) and steps its
// spline. The full form's cross-chain covariances have zero expectation
// under the product target but add variance (tune.SKLWorkspace.Gradient);
// the block form, the default, is momentPathSteps.
func (t *tuner) pathStep(cfg *Config, e *energyMoments, j, iters int) {
	cols, all := 2*t.c1, 2*len(t.sched[j])
	mat := t.matrix[:iters*cols]
	for m := 0; m < iters; m++ {
		for col := 0; col < cols; col++ {
			mat[m*cols+col] = e.record[(m*all+col)*lanes+j]
		}
	}
	t.work[j].Gradient(t.grad, mat, iters, t.leg1(j), t.path[j], true)
	for _, g := range t.grad {
		if math.IsNaN(g) || math.IsInf(g, 0) {
			return // no step on a non-finite gradient; the scan's statistics show why
		}
	}
	t.path[j].Step(t.grad, cfg.LearningRate)
}

// tuneTogether is the paper's tuning (alg:PT_tuning) with the block form
// of the path gradient for the lanes j with tuned[j]: every lane's path
// step at once (momentPathSteps), then each lane's schedule update from
// its rejections rej[j] (updateSchedules), each lane's the same as one
// lane at a time, the path before the schedule.
func (t *tuner) tuneTogether(cfg *Config, e *energyMoments, tuned *[lanes]bool, rej *[lanes][]float64, iters int) {
	t.momentPathSteps(cfg, e, tuned, iters)
	if !cfg.TuneSchedule {
		return
	}
	for j := range tuned {
		if tuned[j] {
			t.updateSchedules(j, rej[j])
		}
	}
}

// momentPathSteps is the block form of the path step for the lanes j with
// active[j]: the sample means and covariances (divisor M-1) of each
// chain's energies over the scan, from the shifted sums, the gradient
// (tune.LaneGradientWorkspace.MomentGradients) and the spline's step.
// The lanes are done together, lane-innermost, each lane's numbers by the
// operations of one lane at a time before (and so the same bits): the
// moments of a chain are one row of every lane, and the lanes' chains of
// dependent operations overlap.
func (t *tuner) momentPathSteps(cfg *Config, e *energyMoments, active *[lanes]bool, iters int) {
	if iters < 2 {
		return
	}
	// Multiplications by 1/M and 1/(M-1), not divisions: the divider,
	// five times per chain, was a tenth of the scan's end.
	inv, inv1 := 1/float64(iters), 1/float64(iters-1)
	m := &t.laneMoments
	type row = [lanes]float64
	at := func(s []float64, n int) *row { return (*row)(s[n*lanes : (n+1)*lanes]) }
	for n := range t.c1 {
		s0, s1, h0, h1 := at(e.sum0, n), at(e.sum1, n), at(e.shift0, n), at(e.shift1, n)
		q00, q01, q11 := at(e.sq00, n), at(e.sq01, n), at(e.sq11, n)
		m0, m1, c00, c01, c11 := at(m.Mean0, n), at(m.Mean1, n), at(m.C00, n), at(m.C01, n), at(m.C11, n)
		for j := range lanes {
			f0, f1 := s0[j]*inv, s1[j]*inv
			m0[j] = h0[j] + f0
			m1[j] = h1[j] + f1
			c00[j] = (q00[j] - s0[j]*f0) * inv1
			c01[j] = (q01[j] - s0[j]*f1) * inv1
			c11[j] = (q11[j] - s1[j]*f1) * inv1
		}
	}
	var sched [lanes][]float64
	for j := range lanes {
		if active[j] {
			sched[j] = t.leg1(j)
		}
	}
	t.laneWork.MomentGradients(&t.laneGrad, m, &sched, &t.path, active)
	for j := range lanes {
		if active[j] {
			t.path[j].Step(t.laneGrad[j], cfg.LearningRate)
		}
	}
}

// leg1 returns lane j's schedule of the first leg: t of chains 0 … C1−1
// (the whole schedule with one leg).
func (t *tuner) leg1(j int) []float64 { return t.sched[j][:t.c1] }

// updateSchedules updates lane j's schedule from its rejections by pair
// of chains, rej (eq:equicrit): leg 1's from those of its pairs and, with
// two legs, leg 2's from those of its own, each leg separately (the
// junction's pair, always accepted, belongs to neither).
func (t *tuner) updateSchedules(j int, rej []float64) {
	tune.UpdateSchedule(t.leg1(j), t.leg1(j), rej[:t.c1-1])
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
	tune.UpdateSchedule(t.legSched, t.legSched, t.legRej)
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
