package runout

import (
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
)

// TestTuningWarningAuto checks the automatic tuning's branch of
// tuningWarnings on results built by hand (a complete run's tuner always
// stops before the kept scans, so only a run interrupted earlier has
// replicates still tuning): a warning naming 1 of 2 replicates when one
// has not stopped, none when both have.
func TestTuningWarningAuto(t *testing.T) {
	res := &batch.Result{Scans: 5, Config: batch.Config{Tuning: batch.AutoTuning}, TuningFrozen: []bool{true, false}}
	if w := tuningWarnings(res); len(w) != 1 || !strings.Contains(w[0], "had not stopped in 1 of 2 replicates") {
		t.Errorf("one replicate still tuning: warnings %q", w)
	}
	res.TuningFrozen[1] = true
	if w := tuningWarnings(res); len(w) != 0 {
		t.Errorf("every replicate stopped: warnings %q", w)
	}
}
