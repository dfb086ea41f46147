package main

import (
	"fmt"
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
}

// lambdaPoints is runout.LambdaPoints.
const lambdaPoints = runout.LambdaPoints

// newRunStats adds the run's statistics to cfg (runout.NewRunStats),
// with the proposal counts of a model that counts them (explorer.go);
// Close must be called when the run is over.
func newRunStats(f *runFlags, cfg *batch.Config) (*runStats, error) {
	s := new(runStats)
	o := f.statsOptions(cfg)
	o.Extra = func(cfg *batch.Config) { s.props = addProposals(cfg) }
	var err error
	if o.Settings, err = f.outSettings(cfg); err != nil {
		return nil, err
	}
	o.Args = argsOf(f.flags)
	if s.RunStats, err = runout.NewRunStats(cfg, o); err != nil {
		return nil, err
	}
	return s, nil
}

// statsOptions are the statistics' options of the run of cfg, with the
// model's proposal counts when it has them (explorer.go).
func (f *runFlags) statsOptions(cfg *batch.Config) runout.StatsOptions {
	o := runout.StatsOptions{Thin: f.thin, AllObservables: f.jsonOut || f.out != "", Dir: f.out,
		Extra: func(cfg *batch.Config) { addProposals(cfg) }}
	if f.record == "index" {
		spec := f.indexSpec(cfg).lib()
		o.Index = &spec
	}
	return o
}

// outSettings returns the run's settings that shape its files, as data
// (runout.NewSettings with the flags').
func (f *runFlags) outSettings(cfg *batch.Config) (s *runout.Settings, err error) {
	s = runout.NewSettings(f.model, f.path, cfg)
	s.Thin, s.MaxMemory, s.Workers = f.thin, f.maxMemory, effectiveWorkers(cfg.Workers, cfg.Replicates)
	if s.Record, s.IndexWindow = f.record, f.indexWindow; f.record != "" {
		s.Index = f.indexSpec(cfg).lib()
	}
	if f.chainsChoice != nil {
		if s.ChainsAuto, err = runout.ChainsAutoJSON(f.chainsChoice); err != nil {
			return nil, err
		}
	}
	return s, s.SetParams(modelSettings(f, cfg.Model))
}

// record is runout.RunStats.Record with the target moments of moments
// (nil: none).
func (s *runStats) record(res *batch.Result, moments momentsSource) *runout.Record {
	if moments == nil {
		return s.Record(res, nil)
	}
	return s.Record(res, &batch.MomentsRecord{Mean: moments.Means(), Var: moments.Vars()})
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
