package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/runout"
)

// runStats are the statistics of issue 10 that `ptbatch run` adds to every
// run: the stepping-stone log(Z1/Z0) of the last scan (batch.LogZ with
// FromScan = Scans: it costs about 2.7 iterations' worth per iteration at
// d = 1 while it accumulates, so only the last scan pays), tempered
// restarts (batch.Restarts), the effective sample size of the target
// chain's observables over the kept scans (batch.ESS: every observable
// with --json, the first one for the table), and with --out the barrier
// profile λ(t), Λ(t) of the last scan (batch.BarrierProfile) and, with
// --record index, the index process (indexRecord).
//
// The last scan is the last one sampled with one path and one schedule:
// the engine retunes both after every scan, so the final scan's samples
// are the only ones of the final path and schedule that were sampled (the
// schedule reported in "schedule" is the one tuned after it).
//
// The files are written by package runout from the run's record
// (record), which result.gob keeps for ptbatch merge.
type runStats struct {
	logZ     *batch.LogZ
	restarts *batch.Restarts
	ess      *batch.ESS
	profile  *batch.BarrierProfile // nil without --out
	index    *indexRecord
	props    *batch.Proposals // nil for a model that does not count proposals (explorer.go)
	model    models.Model

	// settings are the run's file settings (runout.Settings) and args its
	// command line, kept in its record.
	settings *runout.Settings
	args     []string

	// diag keeps the kept samples for the multi-chain diagnostics; report
	// is what they computed, once; filesDone is set once diagnostics.csv
	// and samples.png are written.
	diag      *batch.Diagnostics
	report    *runout.Diagnostics
	filesDone bool
}

// lambdaPoints is the number of grid points of lambda.csv per replicate.
const lambdaPoints = 100

// The diagnostics' limits (runout's), for statsMemory.
const (
	maxDiagObservables = runout.MaxDiagObservables
	diagMaxDraws       = runout.DiagMaxDraws
)

// newRunStats adds the statistics to cfg; close must be called when the
// run is over.
func newRunStats(f *runFlags, cfg *batch.Config) (*runStats, error) {
	logZ, restarts, ess := &batch.LogZ{FromScan: logZFromScan(cfg), Path: f.out != ""}, new(batch.Restarts), new(batch.ESS)
	// The diagnostics keep the states samples.csv holds (every --thin-th),
	// so that ptbatch merge computes the same from the merged file.
	dg := &batch.Diagnostics{Thin: f.thin, Observables: maxDiagObservables, MaxDraws: diagMaxDraws}
	set, err := f.outSettings(cfg)
	if err != nil {
		return nil, err
	}
	s := &runStats{logZ: logZ, restarts: restarts, ess: ess, model: cfg.Model, diag: dg, settings: set, args: argsOf(f.flags)}
	if !f.jsonOut && f.out == "" {
		ess.Observables = 1 // the table shows the first observable's (--out's summary.json is the JSON)
		dg.Observables = 1
	}
	cfg.Statistics = append(cfg.Statistics, logZ, restarts, ess, dg)
	s.props = addProposals(cfg) // explorer.go
	if f.out != "" {
		s.profile = &batch.BarrierProfile{Points: lambdaPoints}
		cfg.Statistics = append(cfg.Statistics, s.profile)
	}
	if f.record == "index" {
		ix, err := newIndexRecord(f.out, f.indexSpec(cfg), cfg.FirstReplicate)
		if err != nil {
			return nil, err
		}
		s.index = ix
		cfg.Statistics = append(cfg.Statistics, ix.Stat)
	}
	return s, nil
}

// outSettings returns the run's settings that shape its files, as data.
func (f *runFlags) outSettings(cfg *batch.Config) (*runout.Settings, error) {
	exact, _ := exactLogZ(cfg.Model)
	barrier, _ := runout.ExactBarrier(cfg.Model)
	s := &runout.Settings{Model: f.model, Path: f.path, Gradient: f.gradient, Params: map[string]json.RawMessage{},
		Thin: f.thin, MaxMemory: f.maxMemory, Workers: effectiveWorkers(cfg.Workers, cfg.Replicates),
		Record: f.record, IndexWindow: f.indexWindow, ExactLogZ: exact, ExactBarrier: barrier}
	for k, v := range modelSettings(f, cfg.Model) {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("setting %s: %w", k, err)
		}
		s.Params[k] = b
	}
	if f.record != "" {
		s.Index = f.indexSpec(cfg).lib()
	}
	if f.chainsChoice != nil {
		b, err := json.Marshal(chainsAutoJSON(f.chainsChoice)) // auto.go
		if err != nil {
			return nil, err
		}
		s.ChainsAuto = b
	}
	return s, nil
}

// close closes index.csv (when recorded); later calls do nothing.
func (s *runStats) close() error {
	if s.index == nil {
		return nil
	}
	return s.index.close()
}

// record returns the run's record: res, its target moments (nil: none)
// and the statistics' records, with the run's settings.
func (s *runStats) record(res *batch.Result, moments momentsSource) *runout.Record {
	rec := runout.NewRecord(res, s.settings)
	rec.Args = s.args
	if moments != nil {
		rec.SetMoments(batch.MomentsRecord{Mean: moments.Means(), Var: moments.Vars()})
	}
	rec.LogZ, rec.Restarts = s.logZ.Record(), s.restarts.Record()
	ess := s.ess.Record()
	rec.ESS = &ess
	if s.profile != nil {
		p := s.profile.Record()
		rec.Profile = &p
	}
	return rec
}

// diagnostics returns the run's diagnostics, computed once.
func (s *runStats) diagnostics(res *batch.Result) *runout.Diagnostics {
	if s.report == nil {
		s.report = runout.NewDiagnostics(res.Observables, runout.DrawsOf(s.diag), res)
	}
	return s.report
}

// addHeadline adds the line of log Z ± se, which the table leads with
// after the tail round-trip rate.
func (s *runStats) addHeadline(tw io.Writer, res *batch.Result) {
	mean, se, diff := runout.SummarizeLogZ(s.logZ.Record())
	exact := ""
	if x, ok := exactLogZ(s.model); ok {
		exact = fmt.Sprintf("; exact %.10g", x)
	}
	fmt.Fprintf(tw, "log Z = log(Z1/Z0), %s\t%s (mean ± se over replicates; reverse − forward %.2g%s)\n", logZScans(res.Config), formatLogZ(mean, se), diff, exact)
}

// addTable adds the statistics' lines to the human table, the
// diagnostics' among them.
func (s *runStats) addTable(tw io.Writer, res *batch.Result) {
	total := 0
	for _, c := range s.restarts.Counts() {
		total += c
	}
	fmt.Fprintf(tw, "restarts (all scans, all replicates)\t%d (last scan: %.5f per iteration)\n", total, runout.RestartRate(s.restarts.Record()))
	values := s.ess.Values()
	if len(values) > 0 && len(values[0]) > 0 && len(res.Observables) > 0 {
		first := make([]float64, len(values))
		for b, v := range values {
			first[b] = v[0]
		}
		m, _ := meanSD(first)
		kept := runout.KeptRoundTrips(res)
		trips := make([]float64, len(kept))
		for b, t := range kept {
			trips[b] = float64(t)
		}
		tm, _ := meanSD(trips)
		fmt.Fprintf(tw, "ESS of %s (kept scans)\t%.4g of %d draws, %.4g round trips in them (the ceiling when local moves mix slowly), means over replicates; %.3g per second over all replicates; per replicate, from its own draws: see the diagnostics below\n",
			res.Observables[0], m, s.ess.Draws(), tm, runout.ESSPerSecond(s.ess.Record(), res)[0])
	}
	addDiagTable(tw, s.diagnostics(res)) // diagjson.go
}

// printWarnings prints the diagnostics' warnings on w, one line each.
func (s *runStats) printWarnings(w io.Writer, _ *runFlags, res *batch.Result) error {
	for _, msg := range s.diagnostics(res).Warnings {
		fmt.Fprintf(w, "ptbatch: warning: %s\n", msg)
	}
	return nil
}

// writeFiles writes logz.csv, lambda.csv and the figure lambda.png/svg
// into dir, and the index process figure when recorded
// (runout.WriteStatFiles).
func (s *runStats) writeFiles(dir string, res *batch.Result) error {
	var trace *runout.IndexTrace
	if s.index != nil {
		if err := s.index.close(); err != nil {
			return err
		}
		trace = s.index.Trace()
	}
	return runout.WriteStatFiles(dir, s.record(res, nil), trace)
}

// exactLogZ is runout.ExactLogZ.
func exactLogZ(m models.Model) (logZ float64, ok bool) { return runout.ExactLogZ(m) }

// statsMemory estimates the bytes of the output `ptbatch run` builds from
// its statistics (batch.EstimateMemory counts the statistics themselves):
// with --json the target moments' numbers and their text; with --out
// scans.csv's rows; the ESS's values in the JSON; the copies
// diag.Summarize makes of one observable's kept states; with --out
// lambda.csv's rows; with --record index the figure's records.
func (f *runFlags) statsMemory(cfg batch.Config) (int64, error) {
	reps, obs := int64(cfg.Replicates), int64(models.NumObservables(cfg.Model))
	essObs := int64(1)
	if f.jsonOut {
		essObs = obs
	}
	perScan, keep := int64(cfg.Iterations/cfg.Scans), int64(cfg.KeepScansInEffect())
	kept := perScan * keep
	if keep > 0 && kept/keep != perScan {
		return 0, batch.ErrMemoryOverflow
	}
	draws := min(kept/int64(f.thin)+1, 2*diagMaxDraws)
	terms := [][]int64{
		{2, reps, essObs, 24 + 26}, // the ESS's values in the JSON
		{8, reps, draws, 8},        // diag.Summarize's copies of one observable's
	}
	if f.jsonOut {
		terms = append(terms, []int64{reps, obs, 2 * (24 + 8 + 26)}) // target_means and target_vars
	}
	if f.out != "" {
		terms = append(terms,
			[]int64{reps, int64(cfg.Scans), 7 * (16 + 24)}, // scans.csv
			[]int64{reps, lambdaPoints, 4, 16 + 24})        // lambda.csv's rows
	}
	if f.record == "index" {
		terms = append(terms, []int64{2, indexFigureIterations, int64(len(f.indexSpec(&cfg).replicas)), 8})
	}
	var total int64
	for _, t := range terms {
		n, err := mulBytes(t...)
		if err != nil {
			return 0, err
		}
		if total, err = addBytes(total, n); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// reproduceStats are the statistics `ptbatch reproduce` adds to every run
// of an experiment: log Z of the last scan (LogZ with FromScan = Scans, as
// `ptbatch run`), restarts, and the last scan's barrier profile.
// They are read from their records (rec): the run's own once it is
// recorded, or in a merge the records joined from the shards.
type reproduceStats struct {
	logZ     *batch.LogZ
	restarts *batch.Restarts
	profile  *batch.BarrierProfile
	rec      *runout.Record
}

// newReproduceStats adds the statistics to cfg.
func newReproduceStats(cfg *batch.Config) *reproduceStats {
	logZ, restarts, profile := &batch.LogZ{FromScan: logZFromScan(cfg)}, new(batch.Restarts), &batch.BarrierProfile{Points: lambdaPoints}
	cfg.Statistics = append(cfg.Statistics, logZ, restarts, profile)
	return &reproduceStats{logZ: logZ, restarts: restarts, profile: profile}
}

// record sets the records of the run's statistics in r, and reads them
// from r from now on.
func (s *reproduceStats) record(r *runout.Record) {
	p := s.profile.Record()
	r.LogZ, r.Restarts, r.Profile = s.logZ.Record(), s.restarts.Record(), &p
	s.rec = r
}

// logZSummary is runout.SummarizeLogZ of the run's LogZ.
func (s *reproduceStats) logZSummary() (mean, se, diff float64) {
	return runout.SummarizeLogZ(s.rec.LogZ)
}

// restartsSummary returns the mean over replicates of the restarts of the
// whole run and of the last scan's restarts per iteration.
func (s *reproduceStats) restartsSummary() (mean, rate float64) {
	counts := s.rec.Restarts.Counts()
	c := make([]float64, len(counts))
	for b, n := range counts {
		c[b] = float64(n)
	}
	mean, _ = meanSD(c)
	rate, _ = meanSD(s.rec.Restarts.ScanRates())
	return mean, rate
}

// appendLambdaRows appends the rows of lambda.csv of `ptbatch reproduce`,
// `method,replicate,t,local_barrier,cumulative_barrier`, of one method.
func (s *reproduceStats) appendLambdaRows(rows [][]string, method string) [][]string {
	grid, loc, cum := s.rec.Profile.Grid(), s.rec.Profile.Local(), s.rec.Profile.Cumulative()
	for b := range cum {
		for i, t := range grid {
			rows = append(rows, []string{method, itoa(b), ftoa(t), ftoa(loc[b][i]), ftoa(cum[b][i])})
		}
	}
	return rows
}

// formatLogZ returns "mean ± se" with the se's two significant digits.
func formatLogZ(mean, se float64) string {
	if math.IsNaN(se) || se <= 0 {
		return fmt.Sprintf("%.6g", mean)
	}
	// Decimals down to the se's second significant digit.
	dec := max(0, 1-int(math.Floor(math.Log10(se))))
	return fmt.Sprintf("%.*f ± %.*f", dec, mean, dec, se)
}

// logZNote says what log Z is for the experiment's model, with its exact
// value when there is a closed form.
func logZNote(m models.Model) string {
	const what = "log Z is the stepping-stone estimate of log(Z1/Z0), Z_i = ∫ exp(W_i), from the last scan (average of the forward and reverse estimates; ± the standard error across replicates)"
	if x, ok := exactLogZ(m); ok {
		return fmt.Sprintf("%s; its exact value for this model is %.4f.", what, x)
	}
	return what + "; W0 is the normalised prior, so log Z is the log evidence, which has no closed form."
}
