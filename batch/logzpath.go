package batch

import (
	"math"
	"slices"
)

// logZObserverPairs is what a block's LogZ with Path keeps of the scan
// that ended last: per pair n of neighbouring chains and lane j, at
// n*lanes+j, the forward term log mean_{π_{t_n}} exp(Δ_n·W) and the
// reverse term −log mean_{π_{t_{n+1}}} exp(−Δ_n·W) of the stepping stone
// (LogZ), and per lane the schedule t_0 … t_{C−1} they were sampled on.
type logZObserverPairs struct {
	fwd, rev []float64
	sched    [lanes][]float64
}

// newLogZObserverPairs returns the pairs of a block of chains chains, all
// NaN.
func newLogZObserverPairs(chains int) *logZObserverPairs {
	p := &logZObserverPairs{fwd: make([]float64, (chains-1)*lanes), rev: make([]float64, (chains-1)*lanes)}
	for j := range p.sched {
		p.sched[j] = make([]float64, chains)
		p.clear(j)
	}
	return p
}

// clear makes lane j's terms and schedule NaN; a nil p (no Path) does
// nothing.
func (p *logZObserverPairs) clear(j int) {
	if p == nil {
		return
	}
	for i := j; i < len(p.fwd); i += lanes {
		p.fwd[i], p.rev[i] = math.NaN(), math.NaN()
	}
	for n := range p.sched[j] {
		p.sched[j][n] = math.NaN()
	}
}

// set records the terms of pair and lane i = n*lanes+j.
func (p *logZObserverPairs) set(i int, fwd, rev float64) {
	if p != nil {
		p.fwd[i], p.rev[i] = fwd, rev
	}
}

// setSchedule records lane j's schedule.
func (p *logZObserverPairs) setSchedule(j int, sched []float64) {
	if p != nil {
		copy(p.sched[j], sched)
	}
}

// logZPairs are a LogZ's terms per replicate and pair, and the schedules,
// rows per run-relative replicate.
type logZPairs struct{ fwd, rev, sched [][]float64 }

// collectPairs takes every block's terms of the scan that ended last, for
// r replicates (CollectScan).
func (s *LogZ) collectPairs(r int) {
	s.pairs = logZPairs{fwd: make([][]float64, r), rev: make([][]float64, r), sched: make([][]float64, r)}
	for _, o := range s.observers {
		c := o.info.TargetChain() + 1
		for j := 0; j < o.info.Replicates; j++ {
			b := o.info.FirstReplicate + j
			f, rv := make([]float64, c-1), make([]float64, c-1)
			for n := range f {
				f[n], rv[n] = o.pairs.fwd[n*lanes+j], o.pairs.rev[n*lanes+j]
			}
			s.pairs.fwd[b], s.pairs.rev[b], s.pairs.sched[b] = f, rv, slices.Clone(o.pairs.sched[j])
		}
	}
}

// Path returns, per replicate, the schedule t_0 = 0 < … < t_{C−1} = 1 its
// estimate was sampled on, and the stepping-stone estimate of log(Z(t_n)/
// Z_0) accumulated along the chains, log Z(t_0) = 0 and
//
//	log Z(t_{n+1}) = log Z(t_n) + ½(forward_n + reverse_n),
//
// the average of the pair's forward and reverse terms (LogZ), so that
// log Z(t_{C−1}) is the replicate's estimate (LogZ.Estimates, up to the
// order of the sums). Z(t) is the normalising constant of π_t on the run's
// path. Both are nil for a record without Path.
func (r LogZRecord) Path() (sched, logZ [][]float64) {
	if r.PairFwd == nil {
		return nil, nil
	}
	logZ = make([][]float64, len(r.PairFwd))
	for b, f := range r.PairFwd {
		row := make([]float64, len(f)+1)
		for n := range f {
			row[n+1] = row[n] + 0.5*(f[n]+r.PairRev[b][n])
		}
		logZ[b] = row
	}
	return cloneFloatRows(r.Schedule), logZ
}

// mergePairs returns the pair rows of r followed by next's, and whether
// both have them or neither does.
func (r LogZRecord) mergePairs(next LogZRecord) (LogZRecord, bool) {
	if (r.PairFwd == nil) != (next.PairFwd == nil) {
		return LogZRecord{}, false
	}
	if r.PairFwd == nil {
		return LogZRecord{}, true
	}
	return LogZRecord{PairFwd: concat(r.PairFwd, next.PairFwd), PairRev: concat(r.PairRev, next.PairRev),
		Schedule: concat(r.Schedule, next.Schedule)}, true
}

// cloneFloatRows returns a deep copy of rows.
func cloneFloatRows(rows [][]float64) [][]float64 {
	if rows == nil {
		return nil
	}
	out := make([][]float64, len(rows))
	for i, row := range rows {
		out[i] = slices.Clone(row)
	}
	return out
}
