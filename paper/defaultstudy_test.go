package paper

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/registry"
)

// TestDefaultStudyConfigs checks the default study's runs against the
// paper's Gaussian settings (appendix "Experimental details": 50 chains,
// 45,000 iterations, 150 scans, learning rate 0.2) and the methods of
// Figure 3, and that each is a valid configuration.
func TestDefaultStudyConfigs(t *testing.T) {
	g, err := registry.MustPreset(registry.Gaussian).NewModel(1)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name      string
		alg       batch.Algorithm
		tuneSched bool
		knots     int
		tunePath  bool
	}{ // Figure 3's Reversible+Linear, NRPT+Linear and NRPT+Spline(K=4)
		{"Reversible+Linear", batch.Reversible, false, 1, false},
		{"NRPT+Linear", batch.NRPT, true, 1, false},
		{"NRPT+Spline(K=4)", batch.NRPT, true, 4, true},
	}
	ms := DefaultStudyMethods()
	if len(ms) != len(want) {
		t.Fatalf("%d methods, want %d", len(ms), len(want))
	}
	for i, m := range ms {
		c := m.Config(g)
		w := want[i]
		if m.Name != w.name || c.Algorithm != w.alg || c.TuneSchedule != w.tuneSched || c.Knots != w.knots || c.TunePath != w.tunePath {
			t.Errorf("method %d: %q %v sched %v K %d tunePath %v, want %+v", i, m.Name, c.Algorithm, c.TuneSchedule, c.Knots, c.TunePath, w)
		}
		if c.Chains != 50 || c.Iterations != 45000 || c.Scans != 150 || c.LearningRate != 0.2 || c.Replicates != 10 || c.Seed != 1 {
			t.Errorf("%s: %d chains, %d iterations, %d scans, lr %g, %d replicates, seed %d; want the paper's 50, 45000, 150, 0.2 and 10, seed 1",
				m.Name, c.Chains, c.Iterations, c.Scans, c.LearningRate, c.Replicates, c.Seed)
		}
		if err := c.Validate(); err != nil {
			t.Errorf("%s: %v", m.Name, err)
		}
	}
}

// TestRunDefaultStudyInterrupted drives the default study through
// runloop and ends it from the test after the first scan of the first
// method: the study stops there with that method's row, Interrupted, and
// its numbers are those of batch.Run's own loop stopped at the same scan
// (an independent loop over the same engine).
func TestRunDefaultStudyInterrupted(t *testing.T) {
	stopAfterOne := func(cancel context.CancelFunc) func(batch.Progress) {
		return func(p batch.Progress) {
			if p.Scan == 1 {
				cancel()
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var rows []DefaultStudyRow
	errStop := errors.New("the test's error")
	err := RunDefaultStudy(ctx, func(StudyMethod) func(batch.Progress) { return stopAfterOne(cancel) }, func(r DefaultStudyRow) error {
		rows = append(rows, r)
		return errStop
	})
	if !errors.Is(err, errStop) {
		t.Fatalf("RunDefaultStudy returned %v, want each's error", err)
	}
	if len(rows) != 1 || !rows[0].Result.Interrupted || rows[0].Method.Name != "Reversible+Linear" {
		t.Fatalf("rows %+v: want the first method's one interrupted row", rows)
	}
	g, err := registry.MustPreset(registry.Gaussian).NewModel(1)
	if err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	want, err := batch.Run(ctx2, DefaultStudyMethods()[0].Config(g), stopAfterOne(cancel2))
	if err != nil {
		t.Fatal(err)
	}
	got := rows[0]
	// After one scan the round trips are all 0 (Λ = 112.8 on the linear
	// path); the rejections and each scan's statistics are not.
	if got.Result.Scans != 1 || !reflect.DeepEqual(got.Result.Rejections, want.Rejections) || !reflect.DeepEqual(got.Result.History, want.History) ||
		!reflect.DeepEqual(got.Result.RoundTripRates, want.RoundTripRates) || !reflect.DeepEqual(got.Result.RoundTrips, want.RoundTrips) {
		t.Errorf("runloop's run (%d scans) differs from batch.Run's (%d scans): barrier %g, want %g", got.Result.Scans, want.Scans, got.Result.Summary().Barrier, want.Summary().Barrier)
	}
	if want.Summary().Barrier == 0 {
		t.Errorf("batch.Run's barrier after one scan is 0: the comparison checks nothing")
	}
	mean, sd := batch.MeanSD(want.RoundTripRates)
	trips := 0.0
	for _, n := range want.RoundTrips {
		trips += float64(n)
	}
	trips /= float64(len(want.RoundTrips))
	if got.Rate != mean || got.RateSD != sd || math.Abs(got.RoundTrips-trips) > 1e-12 {
		t.Errorf("row rate %g ± %g, trips %g; want %g ± %g and %g", got.Rate, got.RateSD, got.RoundTrips, mean, sd, trips)
	}
}
