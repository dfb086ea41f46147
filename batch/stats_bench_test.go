package batch

import (
	"fmt"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// BenchmarkStatistics measures what each of the opt-in statistics of
// issue 10 adds to a run: whole scans of 100 iterations on one worker
// (iterations, scan ends with the schedule update, and CollectScan), with
// no statistic added and with each one, on the Gaussian at d = 1 with 50
// chains (where per-chain work dominates, the worst case for LogZ) and at
// d = 16 with 60 chains; 64 replicates. ns/iteration is per iteration of
// all replicates and ns/element per replicate × chain × coordinate, as in
// BenchmarkIteration. Every iteration is a kept one (KeepScans = Scans),
// so ESS and IndexProcess record throughout.
func BenchmarkStatistics(b *testing.B) {
	discard := func(int, int, []int) error { return nil }
	cases := []struct {
		name string
		make func(chains int) []Statistic
	}{
		{"none", func(int) []Statistic { return nil }},
		{"LogZ", func(int) []Statistic { return []Statistic{new(LogZ)} }},
		{"Restarts", func(int) []Statistic { return []Statistic{new(Restarts)} }},
		{"IndexProcess3", func(c int) []Statistic {
			return []Statistic{&IndexProcess{Replicas: []int{0, c / 2, c - 1}, Write: discard}}
		}},
		{"ESS", func(int) []Statistic { return []Statistic{new(ESS)} }},
		{"BarrierProfile", func(int) []Statistic { return []Statistic{new(BarrierProfile)} }},
		{"all", func(c int) []Statistic {
			return []Statistic{new(LogZ), new(Restarts), &IndexProcess{Replicas: []int{0, c / 2, c - 1}, Write: discard},
				new(ESS), new(BarrierProfile)}
		}},
	}
	const perScan, scans, reps = 100, 1000, 64
	for _, w := range []struct{ dim, chains int }{{1, 50}, {16, 60}} {
		g, _ := models.NewGaussian(w.dim, -1, 1, 0.1, 0.1)
		for _, c := range cases {
			b.Run(fmt.Sprintf("d=%d/chains=%d/stat=%s", w.dim, w.chains, c.name), func(b *testing.B) {
				newEngine := func() *Engine {
					e, err := New(Config{Model: g, Chains: w.chains, Replicates: reps, Iterations: perScan * scans, Scans: scans,
						KeepScans: scans, TuneSchedule: true, Knots: 1, Seed: 1, Workers: 1, Statistics: c.make(w.chains)})
					if err != nil {
						b.Fatal(err)
					}
					return e
				}
				e := newEngine()
				steps := 0
				for b.Loop() {
					if e.Done() {
						b.StopTimer()
						e = newEngine()
						b.StartTimer()
					}
					if err := e.Step(b.Context()); err != nil {
						b.Fatal(err)
					}
					steps++
				}
				iters := float64(steps) * perScan
				ns := b.Elapsed().Seconds() * 1e9
				b.ReportMetric(ns/iters, "ns/iteration")
				b.ReportMetric(ns/(iters*reps*float64(w.chains*w.dim)), "ns/element")
			})
		}
	}
}
