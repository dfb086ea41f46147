package main

import (
	"github.com/ptbatch/ptbatch/batch"
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

// newRunStats adds the run's statistics to cfg (runout.NewRunStats),
// with the proposal counts of a model that counts them (explorer.go);
// Close must be called when the run is over.
func newRunStats(f *runFlags, cfg *batch.Config) (*runStats, error) {
	s := new(runStats)
	o := f.statsOptions(cfg)
	o.Extra = func(cfg *batch.Config) { s.props = batch.AddProposals(cfg) }
	var err error
	if o.Settings, err = f.outSettings(cfg); err != nil {
		return nil, err
	}
	o.Args = f.flags.Recorded(unrecordedFlags)
	if s.RunStats, err = runout.NewRunStats(cfg, o); err != nil {
		return nil, err
	}
	return s, nil
}

// statsOptions are the statistics' options of the run of cfg, with the
// model's proposal counts when it has them (explorer.go).
func (f *runFlags) statsOptions(cfg *batch.Config) runout.StatsOptions {
	o := runout.StatsOptions{Thin: f.thin, AllObservables: f.jsonOut || f.out != "", Dir: f.out,
		Extra: func(cfg *batch.Config) { batch.AddProposals(cfg) }}
	if f.record == "index" {
		spec := runout.NewIndexSpec(f.indexWindow, f.indexThin, f.indexReplicas, cfg)
		o.Index = &spec
	}
	return o
}

// outSettings returns the run's settings that shape its files, as data
// (runout.NewSettings with the flags').
func (f *runFlags) outSettings(cfg *batch.Config) (s *runout.Settings, err error) {
	s = runout.NewSettings(f.model, f.path, cfg)
	s.Thin, s.MaxMemory, s.Workers = f.thin, f.maxMemory, cfg.EffectiveWorkers()
	if s.Record, s.IndexWindow = f.record, f.indexWindow; f.record != "" {
		s.Index = runout.NewIndexSpec(f.indexWindow, f.indexThin, f.indexReplicas, cfg)
	}
	if f.chainsChoice != nil {
		if s.ChainsAuto, err = runout.ChainsAutoJSON(f.chainsChoice); err != nil {
			return nil, err
		}
	}
	return s, s.SetParams(modelSettings(f, cfg.Model))
}
