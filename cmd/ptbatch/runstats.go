package main

import (
	"encoding/json"
	"fmt"
	"io"

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

// formatLogZ is runout.FormatLogZ (for addHeadline).
func formatLogZ(mean, se float64) string { return runout.FormatLogZ(mean, se) }
