package runout

import (
	"slices"

	"github.com/ptbatch/ptbatch/batch"
)

// RunMemory estimates the memory of a run of cfg with the statistics
// NewRunStats adds under o (without creating a file), each of which
// estimates its own (batch.EstimateMemory, batch.MemoryEstimator), plus
// the output built from them (OutputMemory; json: the run's summary is
// built as JSON). A sharded run estimates its own replicates
// (cfg.Replicates), not the whole run's. It returns
// batch.ErrMemoryOverflow when the size does not fit in an int64.
func RunMemory(cfg batch.Config, o StatsOptions, json bool) (int64, error) {
	cfg.Statistics = slices.Clone(cfg.Statistics)
	var samples *batch.Samples
	if o.Dir != "" {
		samples = &batch.Samples{Thin: o.Thin}
	}
	var index *batch.IndexProcess
	if o.Index != nil {
		index = o.Index.process()
	}
	new(RunStats).add(&cfg, o, samples, index)
	need, err := batch.EstimateMemory(cfg)
	if err != nil {
		return 0, err
	}
	out, err := OutputMemory(cfg, Outputs{JSON: json, Dir: o.Dir != "", Thin: o.Thin, Index: o.Index})
	if err != nil {
		return 0, err
	}
	return AddBytes(need, out)
}
