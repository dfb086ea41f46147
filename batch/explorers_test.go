package batch

import (
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/models"
)

// allExplorers are every built-in explorer with its defaults.
func allExplorers() []models.Explorer {
	return []models.Explorer{models.RandomWalk{}, models.SliceSampler{}, models.MALA{}, models.AutoMALA{},
		models.HMC{}, models.HMC{Auto: true}}
}

// funnel3 is the 3-d funnel with scale 1.5 explored by ex.
func funnel3(t *testing.T, ex models.Explorer) models.Model {
	t.Helper()
	m, err := models.NewFunnel(3, 1.5, ex)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// explorerCfg is a small NRPT run with scans for the explorers to adapt
// between, 17 replicates in 3 blocks.
func explorerCfg(m models.Model) Config {
	return Config{Model: m, Chains: 6, Replicates: 17, Iterations: 300, Scans: 3, TuneSchedule: true, Knots: 1, Seed: 13, Workers: 2}
}

// TestExplorersMatchScalarOracle checks, for every explorer on the funnel,
// that the batched engine and the scalar oracle (models.Scalar, one
// replicate alone) agree on every replicate's round trips, barriers and
// schedules: the explorer's state follows the chain, not the slot.
func TestExplorersMatchScalarOracle(t *testing.T) {
	for _, ex := range allExplorers() {
		cfg := explorerCfg(funnel3(t, ex))
		res := mustRun(t, cfg)
		trips := 0
		for b := 0; b < cfg.Replicates; b++ {
			o := runOracle(cfg, b)
			trips += o.trips
			if o.trips != res.RoundTrips[b] {
				t.Errorf("%s replicate %d: round trips engine %d, oracle %d", ex.Name(), b, res.RoundTrips[b], o.trips)
			}
			for s, rej := range o.rejection {
				sum := 0.0
				for _, r := range rej {
					sum += r
				}
				// To rounding, as TestStatefulModelsMatchScalarOracle.
				if got := res.History[b][s].Barrier; math.Abs(sum-got) > 1e-9 {
					t.Errorf("%s replicate %d scan %d: barrier engine %.12f, oracle %.12f", ex.Name(), b, s+1, got, sum)
				}
			}
			for n, x := range o.schedule {
				if math.Abs(x-res.Schedules[b][n]) > 1e-9 {
					t.Errorf("%s replicate %d: schedule[%d] engine %v, oracle %v", ex.Name(), b, n, res.Schedules[b][n], x)
					break
				}
			}
		}
		if trips == 0 {
			t.Errorf("%s: no round trips; the comparison needs some", ex.Name())
		}
	}
}

// TestExplorersCheckpointResumeBitForBit checks, for every explorer, that
// a run checkpointed at a scan's end or within a scan and restored on
// another number of workers ends exactly as the uninterrupted run
// (checkResume): the explorers' states per chain are saved whole.
func TestExplorersCheckpointResumeBitForBit(t *testing.T) {
	for _, ex := range allExplorers() {
		t.Run(ex.Name(), func(t *testing.T) {
			cfg := explorerCfg(funnel3(t, ex))
			per := cfg.Iterations / cfg.Scans
			t.Run("scan-end", func(t *testing.T) { checkResume(t, cfg, 2, 0) })
			t.Run("within-scan", func(t *testing.T) { checkResume(t, cfg, 1, per/3) })
		})
	}
}

// TestExplorersInvariance checks, for every explorer, that 1 or 3 workers,
// replicates 8–16 run alone (FirstReplicate 8) and every kernel
// implementation this CPU and build offer give identical results.
func TestExplorersInvariance(t *testing.T) {
	for _, ex := range allExplorers() {
		cfg := explorerCfg(funnel3(t, ex))
		want := mustRun(t, cfg)
		cfg.Workers = 1
		sameResults(t, mustRun(t, cfg), want, cfg.Replicates, ex.Name()+": 1 worker vs 2")
		cfg.Workers = 3
		sameResults(t, mustRun(t, cfg), want, cfg.Replicates, ex.Name()+": 3 workers vs 2")
		part := cfg
		part.FirstReplicate, part.Replicates = 8, 9
		shifted := *want
		shifted.RoundTrips, shifted.Schedules, shifted.History = want.RoundTrips[8:], want.Schedules[8:], want.History[8:]
		sameResults(t, mustRun(t, part), &shifted, 9, ex.Name()+": replicates 8–16 alone vs inside 0–16")
		for _, name := range kernel.Impls() {
			restore, err := kernel.SetImpl(name)
			if err != nil {
				t.Fatal(err)
			}
			got := mustRun(t, cfg)
			restore()
			sameResults(t, got, want, cfg.Replicates, ex.Name()+" impl="+name)
		}
	}
}
