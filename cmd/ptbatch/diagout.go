package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/diag"
)

// maxDiagObservables is the number of leading observables whose
// multi-chain diagnostics `ptbatch run` computes with --json or --out (the
// table alone: the first one); batch.Diagnostics keeps their kept states
// in memory, 8 bytes per state, replicate and observable.
const maxDiagObservables = 32

// diagMaxDraws is batch.Diagnostics.MaxDraws of `ptbatch run`: each
// replicate keeps between 1000 and 1999 of its kept states (every
// 2^j-th), whatever the run's length, so that the memory is bounded.
const diagMaxDraws = 1000

// The thresholds of the warnings (Vehtari et al. 2021, Section 5; the
// factor of the error bars is issue 21's).
const (
	rhatLimit         = 1.01 // R-hat above it: the replicates disagree
	essPerReplicate   = 100  // bulk-ESS below this many per replicate
	errorBarDisagree  = 3.0  // per-replicate and between-replicate se apart by more
	settledBarrierSEs = 3.0  // paper tuning: last scans' barriers apart by more se
)

// diagReport holds the multi-chain diagnostics of the kept samples, per
// observable (the first len(sums)), and the run's warnings.
type diagReport struct {
	names           []string
	draws           [][][]float64 // observable, replicate, kept state
	sums            []diag.Summary
	errs            []error
	perRep, between []float64 // batch.ErrorBars
	warnings        []string
}

// newDiagReport computes the diagnostics of draws (observable, replicate,
// state) named by names, and the warnings of res.
func newDiagReport(names []string, draws [][][]float64, res *batch.Result) *diagReport {
	r := &diagReport{names: names[:min(len(names), len(draws))], draws: draws}
	for k := range r.names {
		s, err := diag.Summarize(draws[k])
		per, between := batch.ErrorBars(draws[k])
		r.sums, r.errs = append(r.sums, s), append(r.errs, err)
		r.perRep, r.between = append(r.perRep, per), append(r.between, between)
	}
	r.warnings = append(r.mixingWarnings(), tuningWarnings(res)...)
	return r
}

// mixingWarnings returns the warnings of the diagnostics: R-hat above
// rhatLimit, a bulk-ESS under essPerReplicate per replicate, and error bars
// that disagree by more than errorBarDisagree.
func (r *diagReport) mixingWarnings() []string {
	var out []string
	for k, s := range r.sums {
		if r.errs[k] != nil {
			continue
		}
		name := r.names[k]
		if s.Rhat > rhatLimit {
			out = append(out, fmt.Sprintf("R-hat of %s is %.3f > %.2f: the replicates have not mixed (their samples disagree); run longer, or check the explorer", name, s.Rhat, rhatLimit))
		}
		if s.ESSBulk < essPerReplicate*float64(s.Chains) {
			out = append(out, fmt.Sprintf("bulk-ESS of %s is %.0f over %d replicates, under %d per replicate (%d): too few effective draws for reliable estimates", name, s.ESSBulk, s.Chains, essPerReplicate, essPerReplicate*s.Chains))
		}
		per, between := r.perRep[k], r.between[k]
		if per > 0 && between > 0 && (between > errorBarDisagree*per || per > errorBarDisagree*between) {
			out = append(out, fmt.Sprintf("the standard error of the mean of %s is %.3g from each replicate's ESS but %.3g from the spread of the replicates' means (%.1f× apart): the per-replicate ESS is not to be trusted", name, per, between, math.Max(between/per, per/between)))
		}
	}
	return out
}

// tuningWarnings returns a warning when a tuned quantity has not settled:
// with AutoTuning, replicates whose tuner had not stopped by the last
// scan; with PaperTuning, a barrier Λ whose last two scans' estimates
// differ by more than settledBarrierSEs standard errors across replicates
// and by more than 5 %.
func tuningWarnings(res *batch.Result) []string {
	if res.Scans == 0 {
		return nil
	}
	if res.Config.Tuning == batch.AutoTuning {
		n := 0
		for _, f := range res.TuningFrozen {
			if !f {
				n++
			}
		}
		if n > 0 {
			return []string{fmt.Sprintf("the automatic tuning had not stopped in %d of %d replicates: their path and schedule were still changing in the last scan", n, len(res.TuningFrozen))}
		}
		return nil
	}
	if res.Scans < 2 || !res.Config.TuneSchedule {
		return nil
	}
	d, last := make([]float64, len(res.History)), make([]float64, len(res.History))
	for b, h := range res.History {
		last[b] = h[res.Scans-1].Barrier
		d[b] = last[b] - h[res.Scans-2].Barrier
	}
	md, se := batch.MeanSE(d)
	ml, _ := batch.MeanSE(last)
	if math.Abs(md) > settledBarrierSEs*se && math.Abs(md) > 0.05*math.Abs(ml) {
		return []string{fmt.Sprintf("the barrier Λ has not settled: it changed by %.3g ± %.2g (mean ± se over replicates) between the last two scans, to %.4g; run more scans", md, se, ml)}
	}
	return nil
}

// diagnostics returns the run's diagnosticsReport, computing it once:
// from the statistic a run keeps, or (ptbatch merge, whose runStats has
// none) from dir/samples.csv of --out.
func (s *runStats) diagnostics(f *runFlags, res *batch.Result) (*diagReport, error) {
	if s.report != nil {
		return s.report, nil
	}
	var draws [][][]float64
	switch {
	case s.diag != nil:
		for k := 0; k < s.diag.Kept(); k++ {
			draws = append(draws, s.diag.Draws(k))
		}
	case f.out != "":
		var err error
		if draws, err = readSampleDraws(filepath.Join(f.out, "samples.csv"), maxDiagObservables); err != nil {
			return nil, err
		}
		for k := range draws {
			for b, x := range draws[k] {
				draws[k][b] = batch.KeepDraws(x, diagMaxDraws)
			}
		}
	}
	s.report = newDiagReport(res.Observables, draws, res)
	return s.report, nil
}

// errText returns err's text without its "diag: " prefix, or nil.
func errText(err error) any {
	if err == nil {
		return nil
	}
	return strings.TrimPrefix(err.Error(), "diag: ")
}
