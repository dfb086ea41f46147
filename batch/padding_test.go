package batch

import (
	"slices"
	"testing"
)

// TestPaddingLanesChangeNothing checks that replicates 0–2 of a run of 3
// (a block with 5 padding lanes, which the end of a scan neither tunes nor
// keeps statistics for) are bit for bit those of a run of 8 (no padding),
// under the automatic tuning and under the paper's with a tuned path: the
// scans' statistics, schedules, knots and the automatic tuner's rounds.
func TestPaddingLanesChangeNothing(t *testing.T) {
	for _, tuning := range []Tuning{AutoTuning, PaperTuning} {
		cfg := Config{Model: gaussian(t, 0.1), Chains: 12, Replicates: 3, Iterations: 3000, Scans: 60, Tuning: tuning,
			TuneSchedule: true, TunePath: true, Knots: 3, LearningRate: 0.2, Seed: 7}
		if tuning == AutoTuning {
			cfg.LearningRate = 0
		}
		three := mustRun(t, cfg)
		cfg.Replicates = 8
		eight := mustRun(t, cfg)
		what := tuning.String() + " R=3 vs R=8"
		if tuning == AutoTuning && eight.TuningRounds[0] < 3 {
			t.Fatalf("%s: %d rounds of automatic tuning, want a few", what, eight.TuningRounds[0])
		}
		sameResults(t, three, eight, 3, what)
		for r := 0; r < 3; r++ {
			if !slices.Equal(three.Knots[r], eight.Knots[r]) || !slices.Equal(three.Rejections[r], eight.Rejections[r]) ||
				three.TuningRounds[r] != eight.TuningRounds[r] || three.TuningFrozen[r] != eight.TuningFrozen[r] {
				t.Errorf("%s: replicate %d: knots, rejections or tuning rounds differ", what, r)
			}
		}
	}
}
