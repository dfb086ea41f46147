package runout

import (
	"encoding/json"

	"github.com/ptbatch/ptbatch/batch"
)

// RunConfig is a run's configuration as data, what its manifest
// fingerprints (rundir.Manifest.SetConfig): the batch.Config its record
// holds (the model and statistics left out, which Settings name with
// their parameters) as of the whole run, and the settings that shape its
// files, without what shards of one run may have differently (workers,
// memory limit, the pilots' timing of an automatic choice of chains).
// Shards of one run therefore have one RunConfig, which a merge checks.
type RunConfig struct {
	Config   batch.Config
	Settings *Settings
}

// ConfigOf returns the RunConfig of the run of units replicates whose
// record, of the whole run or of a shard of it, is rec.
func ConfigOf(rec *Record, units int) RunConfig {
	cfg := rec.Result.Config
	cfg.FirstReplicate, cfg.Replicates, cfg.Workers, cfg.Pin = 0, units, 0, false
	cfg.Model, cfg.Statistics = nil, nil
	rc := RunConfig{Config: cfg}
	if rec.Settings != nil {
		set := *rec.Settings
		set.Workers, set.MaxMemory, set.ExactLogZ, set.ExactBarrier = 0, 0, 0, 0 // the oracles: of the model (may be NaN)
		if set.ChainsAuto != nil {
			set.ChainsAuto = json.RawMessage("true")
		}
		rc.Settings = &set
	}
	return rc
}
