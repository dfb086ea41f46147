package batch

import (
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// issue10Stats are the statistics of issue 10, added together to a run.
type issue10Stats struct {
	lz    *LogZ
	rs    *Restarts
	ess   *ESS
	prof  *BarrierProfile
	index [][2]int // (replicate, chain of replica 0) per record
}

func runIssue10Stats(t *testing.T, cfg Config) *issue10Stats {
	t.Helper()
	s := &issue10Stats{lz: new(LogZ), rs: new(Restarts), ess: new(ESS), prof: new(BarrierProfile)}
	ip := &IndexProcess{Replicas: []int{0}, Write: func(b, m int, c []int) error {
		s.index = append(s.index, [2]int{b, c[0]})
		return nil
	}}
	cfg.Statistics = []Statistic{s.lz, s.rs, s.ess, s.prof, ip}
	mustRun(t, cfg)
	return s
}

// TestStatisticsInvariance checks that LogZ, Restarts, ESS, BarrierProfile
// and IndexProcess report the same numbers, bit for bit, with 1 and 2
// workers, and that replicates 0–7 of a 16-replicate run report what an
// 8-replicate run reports, for an exact and a stateful model.
func TestStatisticsInvariance(t *testing.T) {
	g, _ := models.NewGaussian(2, -1, 1, 0.5, 0.3)
	for _, m := range []models.Model{g, twoModes(t, 2, models.RandomWalk{})} {
		cfg := Config{Model: m, Chains: 8, Replicates: 16, Iterations: 400, Scans: 4, TuneSchedule: true, Knots: 2, TunePath: true,
			LearningRate: 0.2, Seed: 9, Workers: 1}
		one := runIssue10Stats(t, cfg)
		cfg.Workers = 2
		two := runIssue10Stats(t, cfg)
		cfg.Replicates = 8
		eight := runIssue10Stats(t, cfg)
		same := func(name string, a, b, c []float64) {
			if !slices.Equal(a, b) || !slices.Equal(a[:8], c) {
				t.Errorf("%T: %s differ between workers or replicate counts", m, name)
			}
		}
		same("forward log Z", one.lz.Forward(), two.lz.Forward(), eight.lz.Forward())
		same("reverse log Z", one.lz.Reverse(), two.lz.Reverse(), eight.lz.Reverse())
		same("restart rates", one.rs.Rates(), two.rs.Rates(), eight.rs.Rates())
		for b := 0; b < 16; b++ {
			var c []float64
			if b < 8 {
				c = eight.ess.Values()[b]
			} else {
				c = one.ess.Values()[b]
			}
			if !slices.Equal(one.ess.Values()[b], two.ess.Values()[b]) || !slices.Equal(one.ess.Values()[b], c) {
				t.Errorf("%T: ESS of replicate %d differs", m, b)
			}
			var p []float64
			if b < 8 {
				p = eight.prof.Local()[b]
			} else {
				p = one.prof.Local()[b]
			}
			if !slices.Equal(one.prof.Local()[b], two.prof.Local()[b]) || !slices.Equal(one.prof.Local()[b], p) {
				t.Errorf("%T: λ profile of replicate %d differs", m, b)
			}
		}
		if !slices.Equal(one.index, two.index) {
			t.Errorf("%T: index process differs between 1 and 2 workers", m)
		}
		var first8 [][2]int
		for _, r := range one.index {
			if r[0] < 8 {
				first8 = append(first8, r)
			}
		}
		if !slices.Equal(first8, eight.index) {
			t.Errorf("%T: index process of replicates 0–7 differs between 16 and 8 replicates", m)
		}
	}
}
