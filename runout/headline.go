package runout

import (
	"math"

	"github.com/ptbatch/ptbatch/batch"
)

// Headline holds the figures a run's short report gives beyond
// batch.Summary, as numbers: the means over replicates that `ptbatch
// run`'s table prints (its wording is the command's).
type Headline struct {
	// LogZ, LogZSE and LogZDiff are SummarizeLogZ's of the run's log Z;
	// ExactLogZ is the closed form (Settings.ExactLogZ), NaN without one.
	LogZ, LogZSE, LogZDiff, ExactLogZ float64
	// Restarts counts the tempered restarts of the whole run over all
	// replicates, and RestartRate is RestartRate's last-scan rate.
	Restarts    int
	RestartRate float64
	// RoundTrips counts the round trips of the whole run over all
	// replicates.
	RoundTrips int
	// HasESS is set when the run estimated the ESS of its first
	// observable: ESS is its mean over replicates over the kept scans,
	// of ESSDraws draws each, KeptRoundTrips the mean round trips in
	// them (KeptRoundTrips: the ESS's ceiling when local moves mix
	// slowly), and ESSPerSecond the sum over replicates per second of
	// the whole run (ESSPerSecond).
	HasESS         bool
	ESS            float64
	ESSDraws       int
	KeptRoundTrips float64
	ESSPerSecond   float64
	// AutoTuned is set for a run of the automatic tuner with replicates:
	// TuningIterations and TuningRounds are then the means over
	// replicates of the iterations and rounds it took, and TuningFrozen
	// the replicates whose path and schedule it fixed.
	AutoTuned        bool
	TuningIterations float64
	TuningRounds     float64
	TuningFrozen     int
}

// NewHeadline returns the headline figures of the run whose record is
// rec (RunStats.Record, or a merge's).
func NewHeadline(rec *Record) Headline {
	res := &rec.Result
	h := Headline{ExactLogZ: math.NaN(), RestartRate: RestartRate(rec.Restarts)}
	h.LogZ, h.LogZSE, h.LogZDiff = SummarizeLogZ(rec.LogZ)
	if rec.Settings != nil {
		h.ExactLogZ = rec.Settings.ExactLogZ
	}
	for _, c := range rec.Restarts.Counts() {
		h.Restarts += c
	}
	for _, t := range res.RoundTrips {
		h.RoundTrips += t
	}
	h.essFigures(rec.ess(), res)
	if h.AutoTuned = res.Config.Tuning == batch.AutoTuning && len(res.TuningIterations) > 0; h.AutoTuned {
		for b := range res.TuningIterations {
			h.TuningIterations += float64(res.TuningIterations[b]) / float64(len(res.TuningIterations))
			h.TuningRounds += float64(res.TuningRounds[b]) / float64(len(res.TuningRounds))
			if res.TuningFrozen[b] {
				h.TuningFrozen++
			}
		}
	}
	return h
}

// essFigures sets the ESS's figures of h from ess, the first
// observable's, when there is one.
func (h *Headline) essFigures(ess batch.ESSRecord, res *batch.Result) {
	values := ess.Values()
	if len(values) == 0 || len(values[0]) == 0 || len(res.Observables) == 0 {
		return
	}
	first := make([]float64, len(values))
	for b, v := range values {
		first[b] = v[0]
	}
	kept := KeptRoundTrips(res)
	trips := make([]float64, len(kept))
	for b, t := range kept {
		trips[b] = float64(t)
	}
	h.HasESS, h.ESSDraws, h.ESSPerSecond = true, ess.Draws(), ESSPerSecond(ess, res)[0]
	h.ESS, _ = batch.MeanSD(first)
	h.KeptRoundTrips, _ = batch.MeanSD(trips)
}
