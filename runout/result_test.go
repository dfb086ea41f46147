package runout

import (
	"reflect"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
)

// mergedFields are the fields of batch.Result that mergeResults handles:
// joined per replicate, summed or weighted (timings), the configuration,
// and those checked equal.
var mergedFields = []string{
	"Config", "Elapsed", "TuningFraction", // joined range, summed, time-weighted
	"RoundTrips", "RoundTripRates", "Rejections", "Schedules", "Knots", "History",
	"TuningRounds", "TuningIterations", "TuningFrozen", "Legs", // per replicate
	"Scans", "Iterations", "Interrupted", "Observables", "KeptScans", // equal
}

// TestMergeKnowsEveryResultField fails when batch.Result has a field
// mergeResults does not handle, so that a new field is never dropped by
// a merge unseen.
func TestMergeKnowsEveryResultField(t *testing.T) {
	typ := reflect.TypeOf(batch.Result{})
	for i := 0; i < typ.NumField(); i++ {
		if name := typ.Field(i).Name; !slices.Contains(mergedFields, name) {
			t.Errorf("batch.Result.%s: mergeResults neither joins nor checks it; add it there and here", name)
		}
	}
	if typ.NumField() != len(mergedFields) {
		t.Errorf("batch.Result has %d fields, mergedFields lists %d", typ.NumField(), len(mergedFields))
	}
}
