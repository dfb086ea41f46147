package runout

import (
	"fmt"
	"math"
	"strings"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/diag"
)

// MaxDiagObservables is the number of leading observables whose
// multi-chain diagnostics a run computes for its files and JSON;
// batch.Diagnostics keeps their kept states in memory, 8 bytes per
// state, replicate and observable.
const MaxDiagObservables = 32

// DiagMaxDraws is batch.Diagnostics.MaxDraws of a run: each replicate
// keeps between 1000 and 1999 of its kept states (every 2^j-th), whatever
// the run's length, so that the memory is bounded.
const DiagMaxDraws = 1000

// The thresholds of the warnings (Vehtari et al. 2021, Section 5; the
// factor of the error bars is issue 21's).
const (
	RhatLimit         = 1.01 // R-hat above it: the replicates disagree
	ESSPerReplicate   = 100  // bulk-ESS below this many per replicate
	ErrorBarDisagree  = 3.0  // per-replicate and between-replicate se apart by more
	SettledBarrierSEs = 3.0  // paper tuning: last scans' barriers apart by more se
)

// Diagnostics holds the multi-chain diagnostics of the kept samples, per
// observable (the first len(Sums)), and the run's warnings.
type Diagnostics struct {
	Names           []string
	Draws           [][][]float64 // observable, replicate, kept state
	Sums            []diag.Summary
	Errs            []error
	PerRep, Between []float64 // batch.ErrorBars
	Warnings        []string
}

// NewDiagnostics computes the diagnostics of draws (observable,
// replicate, state) named by names, and the warnings of res.
func NewDiagnostics(names []string, draws [][][]float64, res *batch.Result) *Diagnostics {
	r := &Diagnostics{Names: names[:min(len(names), len(draws))], Draws: draws}
	for k := range r.Names {
		s, err := diag.Summarize(draws[k])
		per, between := batch.ErrorBars(draws[k])
		r.Sums, r.Errs = append(r.Sums, s), append(r.Errs, err)
		r.PerRep, r.Between = append(r.PerRep, per), append(r.Between, between)
	}
	r.Warnings = append(r.mixingWarnings(), tuningWarnings(res)...)
	return r
}

// DrawsOf returns the draws the statistic d kept, per observable.
func DrawsOf(d *batch.Diagnostics) [][][]float64 {
	var draws [][][]float64
	for k := 0; k < d.Kept(); k++ {
		draws = append(draws, d.Draws(k))
	}
	return draws
}

// mixingWarnings returns the warnings of the diagnostics: R-hat above
// RhatLimit, a bulk-ESS under ESSPerReplicate per replicate, and error
// bars that disagree by more than ErrorBarDisagree.
func (r *Diagnostics) mixingWarnings() []string {
	var out []string
	for k, s := range r.Sums {
		if r.Errs[k] != nil {
			continue
		}
		name := r.Names[k]
		if s.Rhat > RhatLimit {
			out = append(out, fmt.Sprintf("R-hat of %s is %.3f > %.2f: the replicates have not mixed (their samples disagree); run longer, or check the explorer", name, s.Rhat, RhatLimit))
		}
		if s.ESSBulk < ESSPerReplicate*float64(s.Chains) {
			out = append(out, fmt.Sprintf("bulk-ESS of %s is %.0f over %d replicates, under %d per replicate (%d): too few effective draws for reliable estimates", name, s.ESSBulk, s.Chains, ESSPerReplicate, ESSPerReplicate*s.Chains))
		}
		per, between := r.PerRep[k], r.Between[k]
		if per > 0 && between > 0 && (between > ErrorBarDisagree*per || per > ErrorBarDisagree*between) {
			out = append(out, fmt.Sprintf("the standard error of the mean of %s is %.3g from each replicate's ESS but %.3g from the spread of the replicates' means (%.1f× apart): the per-replicate ESS is not to be trusted", name, per, between, math.Max(between/per, per/between)))
		}
	}
	return out
}

// tuningWarnings returns a warning when a tuned quantity has not settled:
// with AutoTuning, replicates whose tuner had not stopped by the last
// scan; with PaperTuning, a barrier Λ whose last two scans' estimates
// differ by more than SettledBarrierSEs standard errors across replicates
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
	if math.Abs(md) > SettledBarrierSEs*se && math.Abs(md) > 0.05*math.Abs(ml) {
		return []string{fmt.Sprintf("the barrier Λ has not settled: it changed by %.3g ± %.2g (mean ± se over replicates) between the last two scans, to %.4g; run more scans", md, se, ml)}
	}
	return nil
}

// ErrText returns err's text without its "diag: " prefix, or nil.
func ErrText(err error) any {
	if err == nil {
		return nil
	}
	return strings.TrimPrefix(err.Error(), "diag: ")
}
