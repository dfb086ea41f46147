package batch

import (
	"time"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/models"
)

const lanes = layout.Lanes

// histPrealloc is the number of scans whose statistics a block allocates
// room for at the start (512 KiB per block: the 1000 scans of
// AutoTuning fit); longer histories grow.
const histPrealloc = 1024

// block is the whole state of layout.Lanes replicates, in named parts:
// the model's states, the random streams, the communication state (index
// process and swaps), the scan's energy moments, the per-replicate tuner,
// and the observers of the run's statistics (round trips and the first
// observable's moments first, then Config.Statistics in order).
type block struct {
	info      BlockInfo
	numChains int
	alg       Algorithm // every lane's algorithm (in a packed block with both, lane 0's, and x.algs each lane's)
	// pk is a packed block's lanes (RunPacked): nil for a block of one run.
	pk     *packing
	rng    *kernel.Stream
	states models.Block

	x       exchange
	moments energyMoments
	tuner   tuner

	trips     *roundTrips
	target    *firstMoments
	observers []Observer
	view      View

	scans int // scans completed
	pos   int // iterations done in the current scan

	hist [lanes][]ScanStats
	// legHist holds, with two legs, each lane's leg counts at the end of
	// every scan, beside hist.
	legHist [lanes][]legCounts
	last    [lanes][]float64 // the last scan's rejection per pair
	// prev is what a Result reports of a block that has completed one
	// scan more than the engine (the run was interrupted while other
	// blocks were still in that scan): each lane's state as it was after
	// the scan before.
	prev [lanes]reported
	// sums and rejRows are the end of a scan's scratch: every lane's
	// barrier, non-asymptotic barrier and SKL estimate (rows 0, 1, 2) and
	// rejection by pair, with the lanes innermost (kernel.ScanSums).
	sums    [3 * lanes]float64
	rejRows []float64

	// Time spent in iterations and at the ends of scans.
	iterTime, tuneTime time.Duration
}

// ScanStats are one replicate's statistics of one scan.
type ScanStats struct {
	Scan                 int     // 1-based
	RoundTrips           int     // cumulative, up to the end of this scan
	Barrier              float64 // Σ_n r_n, the estimate of Λ
	NonAsymptoticBarrier float64 // Σ_n r_n/(1-r_n) (eq:nonasympcb)
	SKL                  float64 // Σ_n SKL(π_{t_n}, π_{t_{n+1}}) estimate (eq:bound)
	MeanRejection        float64
	TargetMean           float64 // the target chain's first observable: mean over the scan (M iterations)
	TargetVar            float64 // … and variance (divisor M-1)
}

// reported is what a Result takes from one lane after a scan: the scan's
// rejections and round trips, and the schedule and knots tuned after it.
type reported struct {
	rejection []float64
	tripsScan int
	schedule  []float64
	knots     [][2]float64
	// The automatic tuner's rounds, iterations used and freeze (AutoTuning).
	rounds, used int
	frozen       bool
}

// report returns lane j's reported values now, in new slices.
func (b *block) report(j int) reported {
	var r reported
	b.reportInto(&r, j)
	return r
}

// reportInto sets r to lane j's reported values now, reusing r's slices
// (endScan keeps prev this way once a scan without allocating; Result
// copies what it takes from prev).
func (b *block) reportInto(r *reported, j int) {
	r.rejection = append(r.rejection[:0], b.last[j]...)
	r.tripsScan = b.trips.lastScan[j]
	r.schedule = append(r.schedule[:0], b.tuner.sched[j]...)
	r.knots = b.tuner.path[j].AppendKnots(r.knots[:0])
	r.rounds, r.used, r.frozen = 0, 0, false
	if a := b.tuner.auto[j]; a != nil {
		r.rounds, r.used, r.frozen = a.Rounds(), a.Used(), a.Frozen()
	}
}

// clone returns a copy of r that shares no slice with it.
func (r reported) clone() reported {
	r.rejection = append([]float64(nil), r.rejection...)
	r.schedule = append([]float64(nil), r.schedule...)
	r.knots = append([][2]float64(nil), r.knots...)
	return r
}

// newBlock allocates the block of run-relative replicates [first,
// first+layout.Lanes) and sets every state to the model's initial one.
func newBlock(cfg *Config, first, recordRows int) *block {
	return newSharingBlock(cfg, first, recordRows, nil)
}

// newSharingBlock is newBlock with the buffers of the end of a scan taken
// from sc, which the blocks of one worker share (nil: the block's own).
func newSharingBlock(cfg *Config, first, recordRows int, sc *scanScratch) *block {
	c := cfg.Chains
	info := BlockInfo{
		FirstReplicate: first,
		Replicates:     min(lanes, cfg.Replicates-first),
		Chains:         c,
		Observables:    models.NumObservables(cfg.Model), // no list of names per block (a Gaussian at d = 256 builds 256)
		Scans:          cfg.Scans,
		KeepScans:      cfg.KeepScansInEffect(),
	}
	if cfg.VariationalLeg > 0 {
		info.SecondLeg = cfg.leg1Chains()
	}
	exact := models.IsExact(cfg.Model)
	// The block's floats (exchange, moments, schedules, last rejections)
	// in one allocation.
	sl := newSlab(exchangeFloats(c, exact) + momentsFloats(cfg) + tunerFloats(cfg) + lanes*slabLen(c-1))
	b := &block{
		info:      info,
		numChains: c,
		alg:       cfg.Algorithm,
		rng:       kernel.NewStream(cfg.Seed, cfg.FirstReplicate+first),
		states:    cfg.Model.NewBlock(models.BlockSpec{FirstReplicate: cfg.FirstReplicate + first, Rows: c, Padding: lanes - info.Replicates, SecondLeg: info.SecondLeg}),
		x:         newExchange(c, exact, &sl),
		moments:   newEnergyMoments(cfg, recordRows, &sl),
		tuner:     newTuner(cfg, recordRows, &sl, false, sc),
		trips:     newRoundTrips(info),
		target:    new(firstMoments),
	}
	b.x.setLegs(info.SecondLeg, b.states)
	b.view.b = b
	b.observers = []Observer{b.trips, b.target}
	for _, s := range cfg.Statistics {
		b.observers = append(b.observers, s.NewObserver(info))
	}
	b.start(cfg.Scans, &sl)
	return b
}

// start takes every lane's last rejections from the slab sl and
// allocates its statistics (of a run of scans scans), then sets the
// coefficients η(t_n) and the model's initial states. The lanes of a
// block of one run start on one schedule and path, so their coefficients
// are lane 0's (setEtaStart); a packed block's lanes have paths of their
// own runs and get theirs lane by lane.
func (b *block) start(scans int, sl *slab) {
	for j := 0; j < lanes; j++ {
		b.last[j] = sl.take(b.numChains - 1)
	}
	b.rejRows = make([]float64, (b.numChains-1)*lanes)
	touch(b.rejRows)
	// What endScan reports of each lane (reportInto), with room for it
	// from the start: the first scan's end allocates no more than the next.
	knots := 0
	for j := 0; j < lanes; j++ {
		knots = max(knots, b.tuner.path[j].K()+1)
	}
	nr, ns := b.numChains-1, len(b.tuner.sched[0])
	floats, pairs := make([]float64, lanes*(nr+ns)), make([][2]float64, lanes*knots)
	for j := range b.prev {
		r := &b.prev[j]
		f := floats[j*(nr+ns) : (j+1)*(nr+ns)]
		r.rejection, r.schedule = f[:0:nr], f[nr:nr:nr+ns]
		r.knots = pairs[j*knots : j*knots : (j+1)*knots]
	}
	touch(floats)
	clear(pairs)
	// Every scan's statistics, as the memory estimate counts them:
	// allocated once for up to histPrealloc scans, not grown (and copied)
	// at the ends of scans, and written now, as the buffers above.
	carve(b.hist[:], 0, min(max(scans, 0), histPrealloc))
	for j := range b.hist {
		clear(b.hist[j][:cap(b.hist[j])])
	}
	if b.pk == nil {
		b.x.setEtaStart(&b.tuner)
	} else {
		var all [lanes]bool
		for j := range all {
			all[j] = true
		}
		b.x.setEtaLanes(&b.tuner, &all)
	}
	b.states.Init(b.rng, b.x.rows(), b.x.energies())
	if !b.x.exact {
		b.x.scatter()
	}
}

// iterate runs iteration m (1-based, alg:NRPT) of every lane of the block,
// step mScan (0-based) of scan s: local exploration, the scan's energy
// moments, communication, then the observers.
func (b *block) iterate(alg Algorithm, s, m, mScan int) {
	b.x.explore(b.states, b.rng)
	b.moments.add(b.x.w0, b.x.w1, mScan)
	b.x.communicate(alg, b.rng, m)
	b.view.Iteration, b.view.Scan, b.view.Step = m, s, mScan
	for _, o := range b.observers {
		o.Iterate(&b.view)
	}
	if b.pk != nil {
		b.pk.iterate(&b.view)
	}
}

// endScan closes scan s (1-based) of iters iterations for every lane: it
// records the scan's statistics and lets the observers and the model close
// the scan, then, as alg:PT_tuning does, takes the path gradient step (on
// the samples' own schedule), updates the schedule (eq:equicrit) and
// recomputes the coefficients η(t_n).
func (b *block) endScan(cfg *Config, s, iters int) {
	for j := range b.prev {
		// A padding lane's report never changes (it is not tuned, below),
		// so it is taken once.
		if j < b.info.Replicates || len(b.prev[j].schedule) == 0 {
			b.reportInto(&b.prev[j], j)
		}
	}
	b.view.Scan, b.view.Step = s, iters
	for _, o := range b.observers {
		o.EndScan(&b.view)
	}
	if b.pk != nil {
		b.pk.endScan(&b.view)
	}
	if a, ok := b.states.(models.ScanEnder); ok {
		a.EndScan()
	}
	inv := 1 / float64(iters)
	// Every lane's rejections and sums at once (kernel.ScanSums), for
	// scanStats.
	kernel.ScanSums(b.sums[:], b.rejRows, b.x.rej, b.x.eta0, b.x.eta1,
		b.moments.shift0, b.moments.sum0, b.moments.shift1, b.moments.sum1, inv)
	// A block of one run under the paper's tuning with the block gradient
	// takes every lane's path gradient and step at once
	// (tuner.blockGradients, blockSteps).
	blockPath := blockPathSteps && b.pk == nil && cfg.Tuning != AutoTuning && cfg.TunePath &&
		cfg.Gradient != FullGradient && iters >= 2
	if blockPath {
		b.tuner.blockGradients(&b.moments, iters)
		b.tuner.blockSteps(b.info.Replicates, cfg.LearningRate)
	}
	var changed [lanes]bool // the lanes whose path or schedule the tuning moved
	for j := 0; j < lanes; j++ {
		if l := b.trips.legs; l != nil {
			b.legHist[j] = append(b.legHist[j], l.counts(j))
		}
		if j >= b.info.Replicates {
			// A padding lane (a replicate past the run's last,
			// models.BlockSpec) is never reported: it keeps a history of
			// the right length for the checkpoint, without statistics,
			// and no tuning.
			b.hist[j] = append(b.hist[j], ScanStats{Scan: s})
			continue
		}
		rej := b.last[j]
		b.hist[j] = append(b.hist[j], b.scanStats(j, s))
		cfg := cfg
		if b.pk != nil {
			cfg = b.pk.of[j]
		}
		switch {
		case cfg.Tuning == AutoTuning:
			changed[j] = b.tuner.autoEndScan(&b.moments, &b.x, j, iters)
		default:
			if cfg.TunePath && !blockPath { // blockPath: stepped above
				b.tuner.pathStep(cfg, &b.moments, j, iters)
			}
			if cfg.TuneSchedule {
				b.tuner.updateSchedules(j, rej)
			}
			changed[j] = cfg.TunePath || cfg.TuneSchedule
		}
	}
	if f, ok := b.states.(models.LaneFreezer); ok { // the variational reference freezes with the path (issue 22)
		for j := 0; j < lanes; j++ {
			if b.tuner.frozen(j) {
				f.FreezeLane(j)
			}
		}
	}
	if blockPath && allChanged(&changed, b.info.Replicates) {
		b.x.setEtaBlock(&b.tuner)
	} else {
		b.x.setEtaLanes(&b.tuner, &changed)
	}
	clear(b.x.rej)
	b.moments.reset()
}

// allChanged reports whether changed holds for each of the first n
// lanes (the run's replicates; the others are padding).
func allChanged(changed *[lanes]bool, n int) bool {
	for j := range n {
		if !changed[j] {
			return false
		}
	}
	return true
}

// scanStats returns lane j's statistics of scan s from the sums of
// kernel.ScanSums in b.sums and b.rejRows, and sets b.last[j] to the
// scan's rejections (the kernel's, lane j's column of b.rejRows): the
// rejections, their sum and the non-asymptotic barrier, each sum in pair
// order, bit for bit as tune.NonAsymptoticBarrier (eq:nonasympcb) summing
// b.last[j], and the SKL estimate of sklEstimate.
func (b *block) scanStats(j, s int) ScanStats {
	c := b.numChains
	rej := b.last[j][:c-1]
	for n := range rej {
		rej[n] = b.rejRows[n*lanes+j]
	}
	barrier := b.sums[j]
	return ScanStats{Scan: s, RoundTrips: b.trips.total[j], Barrier: barrier,
		NonAsymptoticBarrier: b.sums[lanes+j], MeanRejection: barrier / float64(c-1), SKL: b.sums[2*lanes+j],
		TargetMean: b.target.lastMean[j], TargetVar: b.target.lastVar[j]}
}
