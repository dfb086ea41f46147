package study

import "testing"

// TestDefaultTuningPath checks the defaulting rules against their
// statement in DefaultTuning's and DefaultPath's godoc, one case per
// setting that selects the paper's tuning.
func TestDefaultTuningPath(t *testing.T) {
	for _, c := range []struct {
		algorithm    string
		scans, lr    bool
		gradient     string
		tuning, path string
	}{
		{"nrpt", false, false, "block", "auto", "spline"},
		{"reversible", false, false, "block", "paper", "linear"},
		{"nrpt", true, false, "block", "paper", "linear"},
		{"nrpt", false, true, "block", "paper", "linear"},
		{"nrpt", false, false, "full", "paper", "linear"},
	} {
		tuning := DefaultTuning(c.algorithm, c.scans, c.lr, c.gradient)
		if tuning != c.tuning || DefaultPath(tuning) != c.path {
			t.Errorf("%+v: got tuning %s, path %s", c, tuning, DefaultPath(tuning))
		}
	}
}
