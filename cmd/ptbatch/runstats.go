package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
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
// The statistics are read through interfaces (merge.go) that the batch
// types satisfy, so that ptbatch merge can give them the values joined
// from the shards.
type runStats struct {
	logZ     logZValues
	restarts restartValues
	ess      essValues
	profile  profileValues // nil without --out
	index    *indexRecord
	props    *batch.Proposals // nil for a model that does not count proposals (explorer.go)
	model    models.Model
	first    int // Config.FirstReplicate: the CSVs number replicates from it

	// diag keeps the kept samples for the multi-chain diagnostics (nil in
	// ptbatch merge, which reads them from samples.csv); report is what
	// they computed, once (diagout.go); filesDone is set once
	// diagnostics.csv and samples.png are written.
	diag      *batch.Diagnostics
	report    *diagReport
	filesDone bool
}

// lambdaPoints is the number of grid points of lambda.csv per replicate.
const lambdaPoints = 100

// newRunStats adds the statistics to cfg; close must be called when the
// run is over.
func newRunStats(f *runFlags, cfg *batch.Config) (*runStats, error) {
	logZ, restarts, ess := &batch.LogZ{FromScan: logZFromScan(cfg)}, new(batch.Restarts), new(batch.ESS)
	// The diagnostics keep the states samples.csv holds (every --thin-th),
	// so that ptbatch merge computes the same from the merged file.
	dg := &batch.Diagnostics{Thin: f.thin, Observables: maxDiagObservables, MaxDraws: diagMaxDraws}
	s := &runStats{logZ: logZ, restarts: restarts, ess: ess, model: cfg.Model, first: cfg.FirstReplicate, diag: dg}
	if !f.jsonOut && f.out == "" {
		ess.Observables = 1 // the table shows the first observable's (--out's summary.json is the JSON)
		dg.Observables = 1
	}
	cfg.Statistics = append(cfg.Statistics, logZ, restarts, ess, dg)
	s.props = addProposals(cfg) // explorer.go
	if f.out != "" {
		profile := &batch.BarrierProfile{Points: lambdaPoints}
		s.profile = profile
		cfg.Statistics = append(cfg.Statistics, profile)
	}
	if f.record == "index" {
		ix, err := newIndexRecord(f.out, f.indexSpec(cfg), cfg.FirstReplicate)
		if err != nil {
			return nil, err
		}
		s.index = ix
		cfg.Statistics = append(cfg.Statistics, ix.stat)
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

// logZSummary is summarizeLogZ of the run's LogZ.
func (s *runStats) logZSummary() (mean, se, diff float64) { return summarizeLogZ(s.logZ) }

// summarizeLogZ returns the mean over replicates of lz's estimates, its
// standard error across replicates (sd/√R; NaN for one replicate) and the
// mean of the reverse minus the forward estimates.
func summarizeLogZ(lz logZValues) (mean, se, diff float64) {
	mean, se = batch.MeanSE(lz.Estimates())
	diff, _ = meanSD(lz.Differences())
	return mean, se, diff
}

// restartRate returns the mean over replicates of the restarts per
// iteration in the last scan, comparable with round_trip_rate.
func (s *runStats) restartRate() float64 {
	mean, _ := meanSD(s.restarts.ScanRates())
	return mean
}

// keptRoundTrips returns, per replicate, the round trips during the kept
// scans: the number of independent excursions of the target chain's state
// to the reference and back, the ceiling of the ESS of a target whose local
// exploration mixes slowly.
func keptRoundTrips(res *batch.Result) []int {
	out := make([]int, len(res.History))
	first := res.Scans - res.KeptScans // scans before the kept ones
	if res.KeptScans == 0 {
		return out
	}
	for b, hist := range res.History {
		out[b] = hist[res.Scans-1].RoundTrips
		if first > 0 {
			out[b] -= hist[first-1].RoundTrips
		}
	}
	return out
}

// essPerSecond returns, per observable, the sum over replicates of the ESS
// divided by the run's elapsed seconds (the whole run, burn-in included).
func (s *runStats) essPerSecond(res *batch.Result) []float64 {
	values := s.ess.Values()
	if len(values) == 0 {
		return nil
	}
	out := make([]float64, len(values[0]))
	for _, v := range values {
		for k, x := range v {
			out[k] += x
		}
	}
	for k := range out {
		out[k] /= res.Elapsed.Seconds()
	}
	return out
}

// addJSON adds the statistics' fields to the JSON object of `ptbatch run
// --json` (README, "JSON fields"), the diagnostics' among them.
func (s *runStats) addJSON(out map[string]any, f *runFlags, res *batch.Result) error {
	rep, err := s.diagnostics(f, res)
	if err != nil {
		return err
	}
	rep.addJSON(out)
	mean, se, diff := s.logZSummary()
	exact, _ := exactLogZ(s.model)
	out["log_z"] = num(mean)
	out["log_z_se"] = num(se)
	out["log_z_replicates"] = nums(s.logZ.Estimates())
	out["log_z_reverse_minus_forward"] = num(diff)
	out["log_z_exact"] = num(exact)
	out["restarts"] = s.restarts.Counts()
	out["restart_rate"] = num(s.restartRate())
	out["ess"] = numRows(s.ess.Values())
	out["ess_draws"] = s.ess.Draws()
	out["ess_per_second"] = nums(s.essPerSecond(res))
	out["ess_round_trip_ceiling"] = keptRoundTrips(res)
	s.addProposalsJSON(out) // explorer.go
	return nil
}

// addHeadline adds the line of log Z ± se, which the table leads with
// after the tail round-trip rate.
func (s *runStats) addHeadline(tw io.Writer, res *batch.Result) {
	mean, se, diff := s.logZSummary()
	exact := ""
	if x, ok := exactLogZ(s.model); ok {
		exact = fmt.Sprintf("; exact %.10g", x)
	}
	fmt.Fprintf(tw, "log Z = log(Z1/Z0), %s\t%s (mean ± se over replicates; reverse − forward %.2g%s)\n", logZScans(res.Config), formatLogZ(mean, se), diff, exact)
}

// addTable adds the statistics' lines to the human table, the
// diagnostics' among them.
func (s *runStats) addTable(tw io.Writer, f *runFlags, res *batch.Result) {
	total := 0
	for _, c := range s.restarts.Counts() {
		total += c
	}
	fmt.Fprintf(tw, "restarts (all scans, all replicates)\t%d (last scan: %.5f per iteration)\n", total, s.restartRate())
	values := s.ess.Values()
	if len(values) > 0 && len(values[0]) > 0 && len(res.Observables) > 0 {
		first := make([]float64, len(values))
		for b, v := range values {
			first[b] = v[0]
		}
		m, _ := meanSD(first)
		kept := keptRoundTrips(res)
		trips := make([]float64, len(kept))
		for b, t := range kept {
			trips[b] = float64(t)
		}
		tm, _ := meanSD(trips)
		fmt.Fprintf(tw, "ESS of %s (kept scans)\t%.4g of %d draws, %.4g round trips in them (the ceiling when local moves mix slowly), means over replicates; %.3g per second over all replicates; per replicate, from its own draws: see the diagnostics below\n",
			res.Observables[0], m, s.ess.Draws(), tm, s.essPerSecond(res)[0])
	}
	if rep, err := s.diagnostics(f, res); err != nil {
		fmt.Fprintf(tw, "diagnostics\t%v\n", err)
	} else {
		rep.addTable(tw)
	}
}

// writeDiagnosticFiles writes diagnostics.csv and the figure samples.png/svg
// into --out, once.
func (s *runStats) writeDiagnosticFiles(f *runFlags, res *batch.Result) error {
	if s.filesDone {
		return nil
	}
	rep, err := s.diagnostics(f, res)
	if err != nil {
		return err
	}
	if err := rep.writeCSV(filepath.Join(f.out, "diagnostics.csv")); err != nil {
		return err
	}
	if err := rep.saveFigure(filepath.Join(f.out, "samples")); err != nil {
		return fmt.Errorf("samples figure: %w", err)
	}
	s.filesDone = true
	return nil
}

// printWarnings prints the diagnostics' warnings on w, one line each.
func (s *runStats) printWarnings(w io.Writer, f *runFlags, res *batch.Result) error {
	rep, err := s.diagnostics(f, res)
	if err != nil {
		return err
	}
	for _, msg := range rep.warnings {
		fmt.Fprintf(w, "ptbatch: warning: %s\n", msg)
	}
	return nil
}

// writeFiles writes logz.csv, lambda.csv and the figure lambda.png/svg
// into dir, and the index process figure when recorded.
func (s *runStats) writeFiles(dir string, res *batch.Result) error {
	if err := writeLogZCSV(filepath.Join(dir, "logz.csv"), s.logZ, s.first); err != nil {
		return err
	}
	if s.profile != nil {
		if err := writeLambda(dir, s.profile, s.first); err != nil {
			return err
		}
	}
	if s.index != nil {
		if err := s.index.close(); err != nil {
			return err
		}
		if err := s.index.figure(res).save(filepath.Join(dir, "index")); err != nil {
			return fmt.Errorf("index figure: %w", err)
		}
	}
	return nil
}

// exactLogZ returns log(Z1/Z0), Z_i = ∫ exp(W_i), for the built-in models
// with a closed form, with W0 and W1 as package models defines them:
//
//	Gaussian:       W_i = -Σ_d (x_d-μ_i)²/(2σ_i²), Z_i = (2πσ_i²)^{d/2},
//	                log(Z1/Z0) = d·(ln σ1 - ln σ0);
//	Beta-binomial:  W0 = (A-1) ln p + (B-1) ln(1-p), W1 = W0 + S ln p + F ln(1-p),
//	                log(Z1/Z0) = ln B(A+S, B+F) - ln B(A, B),
//
// the Beta-binomial's being its log marginal likelihood without the
// binomial coefficients. The mixtures (galaxy, mixture) have a normalised
// W0, so log(Z1/Z0) is their log evidence, which has no closed form: ok is
// false.
func exactLogZ(m models.Model) (logZ float64, ok bool) {
	switch m := m.(type) {
	case *models.Gaussian:
		return float64(m.Dim) * (math.Log(m.Sigma1) - math.Log(m.Sigma0)), true
	case *models.BetaBinomial:
		return lnBeta(m.A+float64(m.Successes), m.B+float64(m.Failures)) - lnBeta(m.A, m.B), true
	}
	return math.NaN(), false
}

// lnBeta returns ln B(a, b) = ln Γ(a) + ln Γ(b) - ln Γ(a+b).
func lnBeta(a, b float64) float64 {
	x, _ := math.Lgamma(a)
	y, _ := math.Lgamma(b)
	z, _ := math.Lgamma(a + b)
	return x + y - z
}

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
type reproduceStats struct {
	logZ     logZValues
	restarts restartValues
	profile  profileValues
}

// newReproduceStats adds the statistics to cfg.
func newReproduceStats(cfg *batch.Config) *reproduceStats {
	logZ, restarts, profile := &batch.LogZ{FromScan: logZFromScan(cfg)}, new(batch.Restarts), &batch.BarrierProfile{Points: lambdaPoints}
	cfg.Statistics = append(cfg.Statistics, logZ, restarts, profile)
	return &reproduceStats{logZ: logZ, restarts: restarts, profile: profile}
}

// logZSummary is summarizeLogZ of the run's LogZ.
func (s *reproduceStats) logZSummary() (mean, se, diff float64) { return summarizeLogZ(s.logZ) }

// restartsSummary returns the mean over replicates of the restarts of the
// whole run and of the last scan's restarts per iteration.
func (s *reproduceStats) restartsSummary() (mean, rate float64) {
	counts := s.restarts.Counts()
	c := make([]float64, len(counts))
	for b, n := range counts {
		c[b] = float64(n)
	}
	mean, _ = meanSD(c)
	rate, _ = meanSD(s.restarts.ScanRates())
	return mean, rate
}

// appendLambdaRows appends the rows of lambda.csv of `ptbatch reproduce`,
// `method,replicate,t,local_barrier,cumulative_barrier`, of one method.
func (s *reproduceStats) appendLambdaRows(rows [][]string, method string) [][]string {
	grid, loc, cum := s.profile.Grid(), s.profile.Local(), s.profile.Cumulative()
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
