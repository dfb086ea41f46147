package runout

import (
	"context"
	"os"
	"path/filepath"
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
// a checkpoint records (log Z, restarts, ESS, diagnostics, the caller's,
// the barrier profile, the index process), and that a run with them
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
	want := []batch.Statistic{s.LogZ, s.Restarts, s.ESS, s.Diag, extra, s.Profile, s.Index.Stat}
	if len(cfg.Statistics) != len(want) {
		t.Fatalf("%d statistics added, want %d", len(cfg.Statistics), len(want))
	}
	for i := range want {
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
	for _, name := range []string{"logz.csv", "lambda.csv", "index.csv", "index.png"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
