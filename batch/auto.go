package batch

import (
	"math"

	"github.com/ptbatch/ptbatch/tune"
)

// autoScansTarget is the number of scans AutoScans aims at: rounds of the
// automatic tuner are whole scans, so this sets their granularity, and the
// history keeps one ScanStats per scan.
const autoScansTarget = 1000

// autoFirstRound is the least length in iterations of the automatic
// tuner's first rounds: the gradient and the SKL's standard error need a
// few dozen draws per chain.
const autoFirstRound = 32

// AutoScans returns the number of equal scans for a run of the given
// iterations with AutoTuning: the divisor of iterations nearest to 1000 in
// ratio (the larger one on a tie), so scans are about a thousandth of the
// run — 45 iterations for the paper's 45,000. It returns 0 for iterations
// below 1.
func AutoScans(iterations int) int {
	if iterations < 1 {
		return 0
	}
	best, bestDist := 1, math.Inf(1)
	consider := func(s int) {
		d := math.Abs(math.Log(float64(s) / autoScansTarget))
		if d < bestDist || (d == bestDist && s > best) {
			best, bestDist = s, d
		}
	}
	for i := 1; i*i <= iterations; i++ {
		if iterations%i == 0 {
			consider(i)
			consider(iterations / i)
		}
	}
	return best
}

// autoBudget returns the iterations the automatic tuner may use: those of
// the scans before the kept ones.
func autoBudget(cfg *Config, perScan int) int {
	return (cfg.Scans - cfg.KeepScansInEffect()) * perScan
}

// newAutoTuners returns every lane's automatic tuner for scans of perScan
// iterations, their schedule updates on updater's buffers (nil: pooled
// ones).
func newAutoTuners(cfg *Config, perScan int, updater *tune.ScheduleUpdater) (auto [lanes]*tune.Auto) {
	c := cfg.leg1Chains()
	opts := tune.AutoOptions{
		Budget:     max(autoBudget(cfg, perScan), 1),
		FirstRound: max(perScan, autoFirstRound),
		Path:       cfg.TunePath,
		Schedule:   cfg.TuneSchedule,
		Updater:    updater,
	}
	for j := range auto {
		auto[j] = tune.NewAuto(c, cfg.Knots, opts)
	}
	return auto
}

// autoEndScan hands lane j's scan of iters iterations to its automatic
// tuner: the shifted sums of the energies by chain, from which it merges
// each chain's mean energies and centred sums of products into its round
// (tune.Auto.EndScanSums), and each pair's rejection sum. It reports
// whether the tuner changed the lane's path or schedule; a frozen tuner is
// handed nothing, since it would ignore the scan.
func (t *tuner) autoEndScan(e *energyMoments, x *exchange, j, iters int) bool {
	if t.auto[j].Frozen() {
		return false
	}
	sums := tune.AutoSums{Iters: iters, Stride: lanes, Lane: j,
		Shift0: e.shift0, Shift1: e.shift1, Sum0: e.sum0, Sum1: e.sum1,
		Sq00: e.sq00, Sq01: e.sq01, Sq11: e.sq11, RejSum: x.rej}
	pool := t.legRound[j] != nil
	if pool {
		for k := range t.legRound[j] {
			t.legRound[j][k] += x.rej[(t.c1+k)*lanes+j]
		}
		t.legIters[j] += iters
	}
	changed := t.auto[j].EndScanSums(t.leg1(j), t.path[j], sums)
	if changed && pool {
		t.endLeg2Round(j)
	}
	return changed
}

// endLeg2Round updates lane j's leg-2 schedule when its automatic tuner
// ends a round (and so updates leg 1's), from leg 2's rejections pooled
// over the round, and clears them.
func (t *tuner) endLeg2Round(j int) {
	for k, r := range t.legRound[j] {
		t.legRound[j][k] = r / float64(t.legIters[j])
	}
	t.updateLeg2(j, t.legRound[j])
	clear(t.legRound[j])
	t.legIters[j] = 0
}

// frozen reports whether lane j's path and schedule no longer change:
// always false with PaperTuning.
func (t *tuner) frozen(j int) bool {
	return t.auto[j] != nil && t.auto[j].Frozen()
}
