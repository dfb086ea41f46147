package paper

import (
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
)

// TestHighDimRows checks the rates and rates.csv rows of a made-up run of
// d = 4 (⌈15·√4⌉ = 30 chains), 2 replicates of 1,000 iterations with 3
// and 7 round trips, whose last scans estimated Λ = 1.5 and 2.25.
func TestHighDimRows(t *testing.T) {
	res := &batch.Result{Iterations: 1000, RoundTrips: []int{3, 7},
		History: [][]batch.ScanStats{{{Barrier: 9}, {Barrier: 1.5}}, {{Barrier: 9}, {Barrier: 2.25}}}}
	rows, rates := HighDimRows("NRPT+Linear", 4, 2, res)
	if !slices.Equal(rates, []float64{0.003, 0.007}) {
		t.Errorf("rates %v, want [0.003 0.007] (3 and 7 round trips in 1000 iterations)", rates)
	}
	want := [][]string{
		{"NRPT+Linear", "4", "30", "0", "0.003", "1.5"},
		{"NRPT+Linear", "4", "30", "1", "0.007", "2.25"},
	}
	if !slices.EqualFunc(rows, want, slices.Equal) {
		t.Errorf("rows %q, want %q", rows, want)
	}
}
