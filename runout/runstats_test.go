package runout

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// TestLogZFromScan: the paper's tuning pools the last scan; the automatic
// tuner the last tenth of the scans, at least one (150 scans: from 136;
// 5 scans: the last).
func TestLogZFromScan(t *testing.T) {
	for _, c := range []struct {
		tuning      batch.Tuning
		scans, want int
	}{{batch.PaperTuning, 150, 150}, {batch.AutoTuning, 150, 136}, {batch.AutoTuning, 5, 5}, {batch.AutoTuning, 20, 19}} {
		cfg := batch.Config{Tuning: c.tuning, Scans: c.scans}
		if got := LogZFromScan(&cfg); got != c.want {
			t.Errorf("%v, %d scans: LogZFromScan = %d, want %d", c.tuning, c.scans, got, c.want)
		}
	}
}

// TestRunStatsAdds checks the statistics NewRunStats adds, in the order
// a checkpoint records (samples.csv's, log Z, restarts, ESS, diagnostics,
// the caller's, the barrier profile, the index process; no target moments
// when only the first observable is followed), and that a run with them
// writes its files and records what they measured.
func TestRunStatsAdds(t *testing.T) {
	g, err := models.NewGaussian(2, -1, 1, 0.3, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := batch.DefaultConfig(g, 120) // sizes only to be quick, as streamRun's
	cfg.Chains, cfg.Replicates, cfg.Scans, cfg.Workers = 6, 3, 3, 1
	extra := new(batch.Restarts)
	s, err := NewRunStats(&cfg, StatsOptions{Thin: 2, Dir: dir, Index: &IndexSpec{Thin: 1, From: 1, Replicas: []int{0}},
		Extra: func(c *batch.Config) { c.Statistics = append(c.Statistics, extra) }, Settings: &Settings{Model: "gaussian"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := []batch.Statistic{nil, s.LogZ, s.Restarts, s.ESS, s.Diag, extra, s.Profile, s.Index.Stat}
	if len(cfg.Statistics) != len(want) {
		t.Fatalf("%d statistics added, want %d", len(cfg.Statistics), len(want))
	}
	if sm, ok := cfg.Statistics[0].(*batch.Samples); !ok || sm.Thin != 2 || s.Samples == nil || s.Moments != nil {
		t.Errorf("statistic 0 is %T (writer %v, moments %v), want samples.csv's *batch.Samples of Thin 2 and no moments", cfg.Statistics[0], s.Samples != nil, s.Moments != nil)
	}
	for i := 1; i < len(want); i++ {
		if cfg.Statistics[i] != want[i] {
			t.Errorf("statistic %d is %T, want %T", i, cfg.Statistics[i], want[i])
		}
	}
	if s.ESS.Observables != 1 || s.Diag.Observables != 1 || s.Diag.Thin != 2 || !s.LogZ.Path || s.LogZ.FromScan != LogZFromScan(&cfg) {
		t.Errorf("options not applied: ESS %d, diagnostics %d thin %d, log Z path %v from %d",
			s.ESS.Observables, s.Diag.Observables, s.Diag.Thin, s.LogZ.Path, s.LogZ.FromScan)
	}
	res, err := batch.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := s.Record(res, nil)
	if len(rec.LogZ.Fwd) != 3 || rec.Profile == nil || rec.ESS == nil || rec.Settings.Model != "gaussian" {
		t.Fatalf("record: log Z of %d replicates, profile %v, ESS %v", len(rec.LogZ.Fwd), rec.Profile != nil, rec.ESS != nil)
	}
	if d := s.Diagnostics(res); d != s.Diagnostics(res) {
		t.Error("the diagnostics were computed twice")
	}
	if err := s.WriteFiles(dir, res); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"samples.csv", "logz.csv", "lambda.csv", "index.csv", "index.png", "diagnostics.csv", "samples.png"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestRunStatsMoments: following every observable adds the target
// moments first, and without an output directory neither samples.csv nor
// the barrier profile.
func TestRunStatsMoments(t *testing.T) {
	g, err := models.NewGaussian(2, -1, 1, 0.3, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	cfg := batch.DefaultConfig(g, 120)
	s, err := NewRunStats(&cfg, StatsOptions{Thin: 1, AllObservables: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []batch.Statistic{s.Moments, s.LogZ, s.Restarts, s.ESS, s.Diag}
	if s.Moments == nil || s.Samples != nil || s.Profile != nil || len(cfg.Statistics) != len(want) {
		t.Fatalf("moments %v, samples %v, profile %v, %d statistics; want moments only and %d statistics",
			s.Moments != nil, s.Samples != nil, s.Profile != nil, len(cfg.Statistics), len(want))
	}
	for i := range want {
		if cfg.Statistics[i] != want[i] {
			t.Errorf("statistic %d is %T, want %T", i, cfg.Statistics[i], want[i])
		}
	}
	if s.ESS.Observables != 0 || s.Diag.Observables != MaxDiagObservables {
		t.Errorf("ESS of %d observables, diagnostics of %d; want all (0) and %d", s.ESS.Observables, s.Diag.Observables, MaxDiagObservables)
	}
}

// TestRunMemoryCountsRunStats checks RunMemory against what it stands
// for, computed the long way: batch.EstimateMemory of the configuration
// with the statistics NewRunStats really adds (files and all), plus
// OutputMemory, for each output (table, JSON, a directory with the index
// process) of a 3-dimensional Gaussian (sizes small and distinct so that
// a swapped factor shows); and that the caller's statistics are counted
// and cfg's own are kept.
func TestRunMemoryCountsRunStats(t *testing.T) {
	g, err := models.NewGaussian(3, -1, 1, 0.3, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	base := batch.DefaultConfig(g, 1000)
	base.Chains, base.Replicates, base.Scans = 7, 10, 10
	base.Statistics = []batch.Statistic{new(batch.Restarts)} // cfg's own, counted too
	index := &IndexSpec{Window: 100, Thin: 2, From: 901, Replicas: []int{0, 3, 6}}
	extra := func(c *batch.Config) { c.Statistics = append(c.Statistics, new(batch.Proposals)) }
	for _, c := range []struct {
		name string
		o    StatsOptions
		json bool
	}{
		{"table", StatsOptions{Thin: 1}, false},
		{"json", StatsOptions{Thin: 3, AllObservables: true, Extra: extra}, true},
		{"dir", StatsOptions{Thin: 4, AllObservables: true, Dir: t.TempDir(), Index: index}, false},
	} {
		got, err := RunMemory(base, c.o, c.json)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		cfg := base
		cfg.Statistics = append([]batch.Statistic(nil), base.Statistics...)
		s, err := NewRunStats(&cfg, c.o)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		stats, err := batch.EstimateMemory(cfg)
		if err != nil {
			t.Fatal(err)
		}
		out, err := OutputMemory(base, Outputs{JSON: c.json, Dir: c.o.Dir != "", Thin: c.o.Thin, Index: c.o.Index})
		if err != nil {
			t.Fatal(err)
		}
		if got != stats+out {
			t.Errorf("%s: RunMemory = %d, want %d + %d = %d", c.name, got, stats, out, stats+out)
		}
		if len(base.Statistics) != 1 {
			t.Errorf("%s: RunMemory changed cfg's statistics to %d", c.name, len(base.Statistics))
		}
	}
	huge := base
	huge.Replicates = math.MaxInt64 / 8
	if _, err := RunMemory(huge, StatsOptions{Thin: 1}, true); !errors.Is(err, batch.ErrMemoryOverflow) {
		t.Errorf("RunMemory of %d replicates: %v, want batch.ErrMemoryOverflow", huge.Replicates, err)
	}
}

// TestRecordMoments runs a small Gaussian twice, following every
// observable and not: the record carries the moments the run followed
// (batch.TargetMoments' means and variances, as Record takes them), and
// none when it did not follow them.
func TestRecordMoments(t *testing.T) {
	g, err := models.NewGaussian(2, -1, 1, 0.3, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	for _, all := range []bool{true, false} {
		cfg := batch.DefaultConfig(g, 120)
		s, err := NewRunStats(&cfg, StatsOptions{Thin: 1, AllObservables: all})
		if err != nil {
			t.Fatal(err)
		}
		res, err := batch.Run(context.Background(), cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := s.RecordMoments(res).Moments
		if !all {
			if got.Mean != nil || got.Var != nil {
				t.Errorf("not following every observable: moments %v, want none", got)
			}
			continue
		}
		want := s.Record(res, &batch.MomentsRecord{Mean: s.Moments.Means(), Var: s.Moments.Vars()}).Moments
		if len(got.Mean) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("moments %v, want the followed %v", got, want)
		}
	}
}
