package studydir

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/study"
)

// TestMethodSeries checks the figures' lines on testPlan (2 methods × 2
// seeds, runs in the order method, then seed): one line per method label,
// x the group (model, grid, seed) of the run, 0 for seed 1 and 1 for seed
// 2, and y, Lo, Hi the interval get returns, here made from the run's
// number so that each point says which run it came from.
func TestMethodSeries(t *testing.T) {
	p := testPlan()
	var sums []study.RunSummary
	for k := range p.Runs {
		sums = append(sums, study.RunSummary{Run: k, Barrier: study.Interval{Mean: float64(k), Lo: float64(k) - 0.5, Hi: float64(k) + 0.5}})
	}
	got := MethodSeries(p, sums, func(s *study.RunSummary) study.Interval { return s.Barrier })
	if len(got) != 2 || got[0].Name != "NRPT+Linear" || got[1].Name != "auto" {
		t.Fatalf("lines %+v, want NRPT+Linear and auto", got)
	}
	// Runs 0, 1 are NRPT+Linear with seeds 1, 2; runs 2, 3 auto (NewPlan's order).
	for i, want := range [][]float64{{0, 1}, {2, 3}} {
		s := got[i]
		if !slices.Equal(s.Xs, []float64{0, 1}) || !slices.Equal(s.Ys, want) || !s.Points ||
			s.Lo[1] != want[1]-0.5 || s.Hi[0] != want[0]+0.5 {
			t.Errorf("line %s: xs %v ys %v lo %v hi %v, want xs [0 1] ys %v ± 0.5", s.Name, s.Xs, s.Ys, s.Lo, s.Hi, want)
		}
	}
}

// TestWriteFigures checks that WriteFigures writes the four files a
// study names in Outputs, each non-empty.
func TestWriteFigures(t *testing.T) {
	dir, p := t.TempDir(), testPlan()
	sums := []study.RunSummary{{Run: 0, TailRate: study.Interval{Mean: 0.1, Lo: 0.05, Hi: 0.15}, Barrier: study.Interval{Mean: 2, Lo: 1, Hi: 3}}}
	if err := WriteFigures(dir, p, sums); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"tail_rate.png", "tail_rate.svg", "barrier.png", "barrier.svg"} {
		if !slices.Contains(Outputs, name) {
			t.Errorf("%s is not in Outputs", name)
		}
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v (size %v)", name, err, st)
		}
	}
}
