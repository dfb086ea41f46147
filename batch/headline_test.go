package batch

import (
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// TestMeanSE checks MeanSE by hand: {1, 2, 3, 4} has mean 2.5 and sample
// variance 5/3, so se = √(5/3)/2; one value has no se, none no mean.
func TestMeanSE(t *testing.T) {
	m, se := MeanSE([]float64{1, 2, 3, 4})
	if m != 2.5 || math.Abs(se-math.Sqrt(5.0/3)/2) > 1e-15 {
		t.Errorf("MeanSE = %v ± %v, want 2.5 ± %v", m, se, math.Sqrt(5.0/3)/2)
	}
	if m, se := MeanSE([]float64{7}); m != 7 || !math.IsNaN(se) {
		t.Errorf("one value: %v ± %v, want 7 ± NaN", m, se)
	}
	if m, _ := MeanSE(nil); !math.IsNaN(m) {
		t.Errorf("no value: mean %v, want NaN", m)
	}
}

// TestHeadlines checks that Result.TailRoundTripRate and LogZ.Estimate
// are MeanSE of the per-replicate values they summarise.
func TestHeadlines(t *testing.T) {
	g, _ := models.NewGaussian(1, -1, 1, 0.3, 0.3)
	lz := new(LogZ)
	res := mustRun(t, Config{Model: g, Chains: 10, Replicates: 5, Iterations: 2000, Scans: 10, Seed: 3, Statistics: []Statistic{lz}})
	for _, c := range []struct {
		name string
		per  []float64
		got  func() (float64, float64)
	}{
		{"tail rate", res.TailRoundTripRates(), res.TailRoundTripRate},
		{"log Z", lz.Estimates(), lz.Estimate},
	} {
		wm, ws := MeanSE(c.per)
		m, se := c.got()
		if m != wm || se != ws || math.IsNaN(se) || len(c.per) != 5 {
			t.Errorf("%s: %v ± %v, want MeanSE of %v", c.name, m, se, c.per)
		}
	}
}
