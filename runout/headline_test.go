package runout

import (
	"math"
	"testing"
	"time"

	"github.com/ptbatch/ptbatch/batch"
)

// TestNewHeadline checks every figure of a hand-made record of two
// replicates against its arithmetic done by hand: log Z estimates 1 and 3
// (forward 0.5, 2.5 and reverse 1.5, 3.5: mean 2, se sd/√2 = √2/√2 = 1,
// reverse − forward 1), restarts 1 + 4, round trips 2 + 3, ESS 10 and 30
// of 500 draws over 2 seconds, 3 scans of which the last 2 are kept (kept
// round trips 5 − 1 and 9 − 6), the automatic tuner's 100 and 300
// iterations in 2 and 5 rounds, one replicate fixed.
func TestNewHeadline(t *testing.T) {
	hist := func(trips ...int) []batch.ScanStats {
		out := make([]batch.ScanStats, len(trips))
		for i, n := range trips {
			out[i] = batch.ScanStats{Scan: i + 1, RoundTrips: n}
		}
		return out
	}
	rec := &Record{
		Result: batch.Result{Config: batch.Config{Tuning: batch.AutoTuning}, Scans: 3, KeptScans: 2, Elapsed: 2 * time.Second,
			RoundTrips: []int{2, 3}, Observables: []string{"x0", "x1"}, History: [][]batch.ScanStats{hist(1, 3, 5), hist(6, 8, 9)},
			TuningIterations: []int{100, 300}, TuningRounds: []int{2, 5}, TuningFrozen: []bool{true, false}},
		Settings: &Settings{ExactLogZ: 2.25},
		LogZ:     batch.LogZRecord{Fwd: []float64{0.5, 2.5}, Rev: []float64{1.5, 3.5}},
		Restarts: batch.RestartsRecord{Count: []int{1, 4}, ScanRate: []float64{0.1, 0.3}},
		ESS:      &batch.ESSRecord{PerReplicate: [][]float64{{10, 99}, {30, 99}}, N: 500},
	}
	h := NewHeadline(rec)
	want := Headline{LogZ: 2, LogZSE: 1, LogZDiff: 1, ExactLogZ: 2.25, Restarts: 5, RestartRate: 0.2, RoundTrips: 5,
		HasESS: true, ESS: 20, ESSDraws: 500, KeptRoundTrips: 3.5, ESSPerSecond: 20,
		AutoTuned: true, TuningIterations: 200, TuningRounds: 3.5, TuningFrozen: 1}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }
	if !near(h.LogZ, want.LogZ) || !near(h.LogZSE, want.LogZSE) || !near(h.LogZDiff, want.LogZDiff) || !near(h.RestartRate, want.RestartRate) {
		t.Errorf("log Z %v ± %v (diff %v), restart rate %v; want %v ± %v (%v), %v", h.LogZ, h.LogZSE, h.LogZDiff, h.RestartRate,
			want.LogZ, want.LogZSE, want.LogZDiff, want.RestartRate)
	}
	h.LogZ, h.LogZSE, h.LogZDiff, h.RestartRate = want.LogZ, want.LogZSE, want.LogZDiff, want.RestartRate
	if h != want {
		t.Errorf("NewHeadline =\n%+v\nwant\n%+v", h, want)
	}
	// Without settings, an ESS, or the automatic tuner: none of their figures.
	rec.Settings, rec.ESS, rec.Result.Config.Tuning = nil, nil, batch.PaperTuning
	if h := NewHeadline(rec); !math.IsNaN(h.ExactLogZ) || h.HasESS || h.AutoTuned || h.TuningIterations != 0 {
		t.Errorf("bare record: exact %v, ESS %v, tuned %v (%v iterations); want NaN, none, not tuned", h.ExactLogZ, h.HasESS, h.AutoTuned, h.TuningIterations)
	}
}
