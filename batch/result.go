package batch

import (
	"math"
	"time"

	"github.com/ptbatch/ptbatch/tune"
)

// Result holds what a run measured, per replicate: every slice indexed by
// replicate is indexed by the run-relative replicate b (its stream is that
// of Config.FirstReplicate+b). Summary computes the averages over
// replicates.
type Result struct {
	Config      Config
	Scans       int // scans completed
	Iterations  int // iterations completed
	Interrupted bool
	Elapsed     time.Duration

	RoundTrips     []int       // per replicate, whole run
	RoundTripRates []float64   // per replicate, round trips per iteration in the last scan
	Rejections     [][]float64 // per replicate and pair, the last scan's mean rejection r_n
	Schedules      [][]float64 // per replicate, final schedule
	Knots          [][][2]float64
	History        [][]ScanStats // per replicate, one entry per scan

	// Observables names the model's observables; KeptScans is the number of
	// completed scans whose target-chain states count as samples (see
	// Config.KeepScans, Samples and TargetMoments).
	Observables []string
	KeptScans   int

	// With AutoTuning: per replicate, the rounds of tuning and the
	// iterations they used (the path and schedule are fixed after them),
	// and whether the tuning had stopped by the last completed scan. Zero
	// with PaperTuning.
	TuningRounds     []int
	TuningIterations []int
	TuningFrozen     []bool

	// Legs holds, per replicate, the figures of leg 1 and leg 2 of a run
	// with two legs (Config.VariationalLeg), over the completed scans;
	// nil with one leg. RoundTrips, RoundTripRates, History's round trips
	// and TailRoundTripRates are then the sums over both legs; Rejections
	// and Schedules run along the line of Chains chains (leg 2's t from 1
	// at chain C1 down to 0 at the last chain, and the junction's pair
	// never rejecting), and History's barriers sum every pair of it.
	Legs [][2]Leg

	// TuningFraction is the share of the workers' time spent at the ends
	// of scans (statistics, path gradient step and schedule update) rather
	// than in iterations.
	TuningFraction float64
}

// Summary holds the averages over replicates of a Result.
type Summary struct {
	RoundTripRate        float64   // mean of RoundTripRates
	Rejection            []float64 // per pair, mean over replicates of the last scan's rejection
	Barrier              float64   // mean over replicates of Σ_n r_n in the last scan
	NonAsymptoticBarrier float64   // mean over replicates of Σ_n r_n/(1-r_n)
	TauPredicted         float64   // 1/(2+2·NonAsymptoticBarrier) (eq:nrpt_rtr)
	SKL                  float64   // mean over replicates of the last scan's SKL estimate
	TargetMean           float64   // mean over replicates of the target chain's first-observable mean in the last scan
	TargetVar            float64   // … and variance
}

// ChainStepsPerSecond is replicates × chains × iterations / elapsed.
func (r *Result) ChainStepsPerSecond() float64 {
	return float64(r.Config.Replicates) * float64(r.Config.Chains) * float64(r.Iterations) / r.Elapsed.Seconds()
}

// Summary returns the averages over replicates; every field is NaN (and
// Rejection zero) when no scan has completed.
func (r *Result) Summary() Summary {
	R := r.Config.Replicates
	s := Summary{Rejection: make([]float64, r.Config.Chains-1)}
	if r.Scans == 0 {
		nan := math.NaN()
		return Summary{Rejection: s.Rejection, RoundTripRate: nan, Barrier: nan, NonAsymptoticBarrier: nan,
			TauPredicted: nan, SKL: nan, TargetMean: nan, TargetVar: nan}
	}
	for b := 0; b < R; b++ {
		st := r.History[b][r.Scans-1]
		s.RoundTripRate += r.RoundTripRates[b] / float64(R)
		for n, x := range r.Rejections[b] {
			s.Rejection[n] += x / float64(R)
		}
		s.Barrier += st.Barrier / float64(R)
		s.NonAsymptoticBarrier += st.NonAsymptoticBarrier / float64(R)
		s.SKL += st.SKL / float64(R)
		s.TargetMean += st.TargetMean / float64(R)
		s.TargetVar += st.TargetVar / float64(R)
	}
	s.TauPredicted = tune.RoundTripRate(s.NonAsymptoticBarrier)
	return s
}

// Result returns what the run has measured so far; Interrupted is set when
// fewer than the configured scans have run.
func (e *Engine) Result() *Result {
	return e.resultOf(&e.cfg, func(b int) (*block, int) { return e.blocks[b/lanes], b % lanes })
}

// resultOf returns the result of the run cfg whose replicate b is lane j
// of block blk, (blk, j) = at(b).
func (e *Engine) resultOf(cfg *Config, at func(b int) (*block, int)) *Result {
	R := cfg.Replicates
	res := &Result{
		Config:           *cfg,
		Scans:            e.scans,
		Iterations:       e.scans * e.perScan,
		Interrupted:      e.scans < cfg.Scans,
		Elapsed:          e.elapsed,
		RoundTrips:       make([]int, R),
		RoundTripRates:   make([]float64, R),
		Rejections:       make([][]float64, R),
		Schedules:        make([][]float64, R),
		Knots:            make([][][2]float64, R),
		History:          make([][]ScanStats, R),
		TuningRounds:     make([]int, R),
		TuningIterations: make([]int, R),
		TuningFrozen:     make([]bool, R),
		Observables:      cfg.Model.Observables(),
		KeptScans:        max(0, e.scans-(cfg.Scans-cfg.KeepScansInEffect())),
	}
	if cfg.VariationalLeg > 0 {
		res.Legs = make([][2]Leg, R)
	}
	for b := 0; b < R; b++ {
		blk, j := at(b)
		rep := blk.report(j)
		if blk.scans > e.scans {
			rep = blk.prev[j].clone()
		}
		res.Schedules[b] = rep.schedule
		res.TuningRounds[b], res.TuningIterations[b], res.TuningFrozen[b] = rep.rounds, rep.used, rep.frozen
		res.Knots[b] = rep.knots
		res.History[b] = append([]ScanStats(nil), blk.hist[j][:e.scans]...)
		if e.scans == 0 {
			res.Rejections[b] = make([]float64, cfg.Chains-1)
			if res.Legs != nil {
				res.Legs[b][0].Chains, res.Legs[b][1].Chains = cfg.leg1Chains(), cfg.VariationalLeg
			}
			continue
		}
		res.Rejections[b] = rep.rejection
		res.RoundTripRates[b] = float64(rep.tripsScan) * (1 / float64(e.perScan))
		// Up to the end of the last completed scan: an interrupted scan's
		// round trips are not reported.
		res.RoundTrips[b] = blk.hist[j][e.scans-1].RoundTrips
		if l := blk.trips.legs; l != nil {
			res.Legs[b] = l.legs(cfg.Chains, e.perScan, rep.rejection, blk.legHist[j][e.scans-1])
		}
	}
	var iterTime, tuneTime time.Duration
	for _, b := range e.blocks {
		iterTime += b.iterTime
		tuneTime += b.tuneTime
	}
	if total := iterTime + tuneTime; total > 0 {
		res.TuningFraction = tuneTime.Seconds() / total.Seconds()
	}
	return res
}

// TailRoundTripRates returns, per replicate, the round trips per iteration
// over the last tenth of the completed scans (at least one scan): with
// Scans a multiple of 10, the last 10% of the iterations. With AutoTuning
// these scans run on the frozen path and schedule whenever the kept scans
// are at least a tenth of the scans (by default they are half), since the
// tuning ends before the kept scans; with PaperTuning they are where the
// tuning has settled most. Nil when no scan has completed.
func (r *Result) TailRoundTripRates() []float64 {
	if r.Scans == 0 {
		return nil
	}
	perScan := r.Iterations / r.Scans
	k := max(r.Scans/10, 1)
	out := make([]float64, len(r.History))
	for b, hist := range r.History {
		before := 0
		if n := len(hist); n > k {
			before = hist[n-k-1].RoundTrips
		}
		out[b] = float64(hist[len(hist)-1].RoundTrips-before) / float64(k*perScan)
	}
	return out
}
