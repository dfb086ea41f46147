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

// runStats are the statistics `ptbatch run` adds to every run
// (runout.RunStats), with the ESS and diagnostics of every observable
// with --json or --out (the table shows the first one's), and with --out
// the barrier profile and, with --record index, the index process. The
// files are written by package runout from the run's record, which
// result.gob keeps for ptbatch merge.
type runStats struct {
	*runout.RunStats
	props *batch.Proposals // nil for a model that does not count proposals (explorer.go)
	model models.Model

	// filesDone is set once diagnostics.csv and samples.png are written.
	filesDone bool
}

// lambdaPoints is runout.LambdaPoints.
const lambdaPoints = runout.LambdaPoints

// The diagnostics' limits (runout's), for flags.go's estimate.
const (
	maxDiagObservables = runout.MaxDiagObservables
	diagMaxDraws       = runout.DiagMaxDraws
)

// newRunStats adds the statistics to cfg; close must be called when the
// run is over.
func newRunStats(f *runFlags, cfg *batch.Config) (*runStats, error) {
	set, err := f.outSettings(cfg)
	if err != nil {
		return nil, err
	}
	s := &runStats{model: cfg.Model}
	o := runout.StatsOptions{Thin: f.thin, AllObservables: f.jsonOut || f.out != "", Dir: f.out,
		Extra:    func(cfg *batch.Config) { s.props = addProposals(cfg) }, // explorer.go
		Settings: set, Args: argsOf(f.flags)}
	if f.record == "index" {
		spec := f.indexSpec(cfg).lib()
		o.Index = &spec
	}
	if s.RunStats, err = runout.NewRunStats(cfg, o); err != nil {
		return nil, err
	}
	return s, nil
}

// outSettings returns the run's settings that shape its files, as data.
func (f *runFlags) outSettings(cfg *batch.Config) (*runout.Settings, error) {
	exact, _ := runout.ExactLogZ(cfg.Model)
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
		b, err := runout.ChainsAutoJSON(f.chainsChoice)
		if err != nil {
			return nil, err
		}
		s.ChainsAuto = b
	}
	return s, nil
}

// record is runout.RunStats.Record with the target moments of moments
// (nil: none).
func (s *runStats) record(res *batch.Result, moments momentsSource) *runout.Record {
	if moments == nil {
		return s.Record(res, nil)
	}
	return s.Record(res, &batch.MomentsRecord{Mean: moments.Means(), Var: moments.Vars()})
}

// addHeadline adds the line of log Z ± se, which the table leads with
// after the tail round-trip rate.
func (s *runStats) addHeadline(tw io.Writer, res *batch.Result) {
	mean, se, diff := runout.SummarizeLogZ(s.LogZ.Record())
	exact := ""
	if x, ok := runout.ExactLogZ(s.model); ok {
		exact = fmt.Sprintf("; exact %.10g", x)
	}
	fmt.Fprintf(tw, "log Z = log(Z1/Z0), %s\t%s (mean ± se over replicates; reverse − forward %.2g%s)\n", logZScans(res.Config), formatLogZ(mean, se), diff, exact)
}

// addTable adds the statistics' lines to the human table, the
// diagnostics' among them.
func (s *runStats) addTable(tw io.Writer, res *batch.Result) {
	total := 0
	for _, c := range s.Restarts.Counts() {
		total += c
	}
	fmt.Fprintf(tw, "restarts (all scans, all replicates)\t%d (last scan: %.5f per iteration)\n", total, runout.RestartRate(s.Restarts.Record()))
	values := s.ESS.Values()
	if len(values) > 0 && len(values[0]) > 0 && len(res.Observables) > 0 {
		first := make([]float64, len(values))
		for b, v := range values {
			first[b] = v[0]
		}
		m, _ := batch.MeanSD(first)
		kept := runout.KeptRoundTrips(res)
		trips := make([]float64, len(kept))
		for b, t := range kept {
			trips[b] = float64(t)
		}
		tm, _ := batch.MeanSD(trips)
		fmt.Fprintf(tw, "ESS of %s (kept scans)\t%.4g of %d draws, %.4g round trips in them (the ceiling when local moves mix slowly), means over replicates; %.3g per second over all replicates; per replicate, from its own draws: see the diagnostics below\n",
			res.Observables[0], m, s.ESS.Draws(), tm, runout.ESSPerSecond(s.ESS.Record(), res)[0])
	}
	addDiagTable(tw, s.Diagnostics(res)) // diagjson.go
}

// printWarnings prints the diagnostics' warnings on w, one line each.
func (s *runStats) printWarnings(w io.Writer, _ *runFlags, res *batch.Result) error {
	for _, msg := range s.Diagnostics(res).Warnings {
		fmt.Fprintf(w, "ptbatch: warning: %s\n", msg)
	}
	return nil
}

// statsMemory is runout.OutputMemory of the run's outputs.
func (f *runFlags) statsMemory(cfg batch.Config) (int64, error) {
	o := runout.Outputs{JSON: f.jsonOut, Dir: f.out != "", Thin: f.thin}
	if f.record == "index" {
		spec := f.indexSpec(&cfg).lib()
		o.Index = &spec
	}
	return runout.OutputMemory(cfg, o)
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
	mean, _ = batch.MeanSD(c)
	rate, _ = batch.MeanSD(s.rec.Restarts.ScanRates())
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
	if x, ok := runout.ExactLogZ(m); ok {
		return fmt.Sprintf("%s; its exact value for this model is %.4f.", what, x)
	}
	return what + "; W0 is the normalised prior, so log Z is the log evidence, which has no closed form."
}
