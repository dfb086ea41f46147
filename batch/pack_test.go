package batch

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// packedStats are the statistics a paper experiment records for a run.
type packedStats struct {
	logZ     *LogZ
	restarts *Restarts
	profile  *BarrierProfile
}

// withStats returns cfg with new statistics, and them.
func withStats(cfg Config) (Config, packedStats) {
	s := packedStats{&LogZ{FromScan: 2}, new(Restarts), &BarrierProfile{Points: 5}}
	cfg.Statistics = []Statistic{s.logZ, s.restarts, s.profile}
	return cfg, s
}

// packedText returns every field of res but the seconds (Elapsed and
// TuningFraction) and the statistics' pointers, printed: floats in their
// shortest exact form, so that equal texts are equal bits (NaN included).
func packedText(res *Result, s packedStats) string {
	r := *res
	r.Elapsed, r.TuningFraction, r.Config.Statistics, r.Config.Model = 0, 0, nil, nil
	return fmt.Sprintf("%+v\n%+v\n%+v\n%+v", r, s.logZ.Record(), s.restarts.Record(), s.profile.Record())
}

// paperLikeConfigs returns runs of m as the paper's methods make them:
// reversible and NRPT on the linear path, and NRPT on K = 2 and 4
// splines with their paths tuned, with reps[i] replicates each.
func paperLikeConfigs(m models.Model, reps []int, workers int) []Config {
	base := Config{Model: m, Chains: 7, Iterations: 60, Scans: 6, LearningRate: 0.3, Seed: 11, Workers: workers}
	var out []Config
	for i, r := range reps {
		c := base
		c.Replicates = r
		switch i % 4 {
		case 0:
			c.Algorithm, c.Knots = Reversible, 1
		case 1:
			c.Knots, c.TuneSchedule = 1, true
		case 2:
			c.Knots, c.TuneSchedule, c.TunePath = 2, true, true
		case 3:
			c.Knots, c.TuneSchedule, c.TunePath = 4, true, true
		}
		out = append(out, c)
	}
	return out
}

// TestPackedSameAsSeparate checks that every packed run's result and
// statistics' records are bit for bit those of its run alone: on an exact
// model (the Gaussian) and on the mixtures (galaxy, two components), for
// runs of 3, 10 and a mix of replicate counts, on 1 and 2 workers, with
// reversible and NRPT lanes in the same blocks.
func TestPackedSameAsSeparate(t *testing.T) {
	mods := map[string]models.Model{"gaussian": gaussian(t, 0.1), "galaxy": models.NewGalaxy(), "mixture": models.NewMixture(3)}
	for name, m := range mods {
		for _, reps := range [][]int{{3, 3, 3, 3}, {10, 10, 10, 10, 10}, {5, 1, 10, 3}} {
			for _, workers := range []int{1, 2} {
				what := fmt.Sprintf("%s, replicates %v, %d workers", name, reps, workers)
				cfgs := paperLikeConfigs(m, reps, workers)
				packed := make([]Config, len(cfgs))
				pst := make([]packedStats, len(cfgs))
				for i := range cfgs {
					packed[i], pst[i] = withStats(cfgs[i])
				}
				got, err := RunPacked(context.Background(), packed, nil)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				for i, cfg := range cfgs {
					cfg, st := withStats(cfg)
					want := mustRun(t, cfg)
					if g, w := packedText(got[i], pst[i]), packedText(want, st); g != w {
						t.Errorf("%s: run %d differs packed:\n%s\nalone:\n%s", what, i, g, w)
					}
				}
			}
		}
	}
}

// TestPackedBlocks checks that the runs' replicates share blocks: 70
// replicates of 7 runs in 9 blocks, not 14.
func TestPackedBlocks(t *testing.T) {
	cfgs := paperLikeConfigs(gaussian(t, 0.1), []int{10, 10, 10, 10, 10, 10, 10}, 1)
	p, err := NewPacked(cfgs)
	if err != nil {
		t.Fatal(err)
	}
	if p.Blocks() != 9 {
		t.Errorf("%d blocks, want 9", p.Blocks())
	}
}

// TestPackedInterrupted checks that packed runs interrupted between scans
// report the scans completed, as runs alone do.
func TestPackedInterrupted(t *testing.T) {
	cfgs := paperLikeConfigs(gaussian(t, 0.1), []int{3, 10}, 2)
	p, err := NewPacked(cfgs)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := p.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	for i, res := range p.Results() {
		e, err := New(cfgs[i])
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if err := e.Step(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		want := e.Result()
		if !res.Interrupted || res.Scans != 2 {
			t.Errorf("run %d: interrupted %v after %d scans, want true after 2", i, res.Interrupted, res.Scans)
		}
		if g, w := packedText(res, withNone()), packedText(want, withNone()); g != w {
			t.Errorf("run %d differs packed:\n%s\nalone:\n%s", i, g, w)
		}
	}
}

// withNone returns statistics that recorded nothing.
func withNone() packedStats {
	_, s := withStats(Config{})
	return s
}

// TestPackedRefuses checks the clear errors for runs that cannot be
// packed.
func TestPackedRefuses(t *testing.T) {
	g := gaussian(t, 0.1)
	for _, c := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Scans = 3 }, "scans differ"},
		{func(c *Config) { c.Seed = 2 }, "seeds differ"},
		{func(c *Config) { c.Model = gaussian(t, 0.2) }, "different models"},
		{func(c *Config) { c.Tuning, c.LearningRate = AutoTuning, 0 }, "automatic tuner"},
		{func(c *Config) { c.Gradient = FullGradient }, "full-covariance"},
		{func(c *Config) { c.KeepScans = 1 }, "kept scans differ"},
	} {
		cfgs := paperLikeConfigs(g, []int{3, 3, 3}, 1)
		c.change(&cfgs[2])
		_, err := NewPacked(cfgs)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "run 2") {
			t.Errorf("error %v, want one that says %q of run 2", err, c.want)
		}
	}
	if _, err := NewPacked(nil); err == nil {
		t.Error("no runs: no error")
	}
	bad := paperLikeConfigs(g, []int{3, 0}, 1)
	if _, err := NewPacked(bad); !errors.Is(err, ErrConfig) {
		t.Errorf("0 replicates: error %v, want ErrConfig", err)
	}
}

// replicateWatch is a random-walk explorer that counts the moves it
// makes for each replicate its Target names.
type replicateWatch struct {
	mu    *sync.Mutex
	moves map[int]int
}

func (w replicateWatch) Name() string { return "random-walk" }

func (w replicateWatch) NewState(dim int) models.ExplorerState {
	return &watchedState{ExplorerState: models.RandomWalk{}.NewState(dim), w: w}
}

// watchedState is one chain's random-walk state, counting its moves.
type watchedState struct {
	models.ExplorerState
	w replicateWatch
}

func (s *watchedState) Move(t *models.Target, rng models.Rand, x []float64, w *[2]float64) {
	s.w.mu.Lock()
	s.w.moves[t.Replicate()]++
	s.w.mu.Unlock()
	s.ExplorerState.Move(t, rng, x, w)
}

// TestPackedUserModel checks that a user model's moves in a packed run
// see their own replicates (models.BlockSpec.LaneReplicates), as many
// moves per replicate as the runs alone make, and the same results.
func TestPackedUserModel(t *testing.T) {
	var moves [2]map[int]int
	var text [2][]string
	for k := range moves {
		moves[k] = map[int]int{}
		m := twoModes(t, 2, replicateWatch{new(sync.Mutex), moves[k]})
		cfgs := paperLikeConfigs(m, []int{5, 10, 2, 3}, 2)
		cfgs[2].FirstReplicate = 4
		var res []*Result
		if k == 0 {
			for _, c := range cfgs {
				res = append(res, mustRun(t, c))
			}
		} else {
			var err error
			if res, err = RunPacked(context.Background(), cfgs, nil); err != nil {
				t.Fatal(err)
			}
		}
		for _, r := range res {
			text[k] = append(text[k], packedText(r, withNone()))
		}
	}
	if !maps.Equal(moves[0], moves[1]) {
		t.Errorf("moves per replicate: packed %v, alone %v", moves[1], moves[0])
	}
	for i := range text[0] {
		if text[0][i] != text[1][i] {
			t.Errorf("run %d differs packed:\n%s\nalone:\n%s", i, text[1][i], text[0][i])
		}
	}
}
