package batch

import (
	"context"
	"errors"
	"runtime"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// heldBytes returns the heap that a finished run of cfg holds (engine and
// result), measured as TestEstimateMemoryMatchesTheHeap does.
func heldBytes(t *testing.T, cfg Config) int64 {
	t.Helper()
	before := liveBytes()
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for !e.Done() {
		if err := e.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	res := e.Result()
	used := int64(liveBytes()) - int64(before)
	runtime.KeepAlive(e)
	runtime.KeepAlive(res)
	return used
}

// TestStatisticsEstimateTheirMemory checks every statistic of this
// package against the heap it adds to a run: the heap of the run with it
// minus the heap of the run with a statistic that keeps nothing, after a full collection, must be
// at most twice its EstimateStatistic (and 64 KiB, below), and at least
// a quarter of it (the
// estimates are bounds: the ESS's counts the most batch means a series
// can hold, 2√(2n) for n draws, with append's slack), and EstimateMemory
// must grow by exactly that estimate. The run (1024 chains, 16
// replicates of the 4-dimensional Gaussian, 4 scans of 100 iterations)
// makes each statistic's memory large against the heap's noise.
func TestStatisticsEstimateTheirMemory(t *testing.T) {
	g, _ := models.NewGaussian(4, -1, 1, 0.3, 0.3)
	base := Config{Model: g, Chains: 1024, Replicates: 16, Iterations: 400, Scans: 4, Workers: 1}
	write := func(int, int, []float64) error { return nil }
	record := func(int, int, []int) error { return nil }
	stats := []MemoryEstimator{
		new(LogZ), new(Restarts), new(ESS), new(Proposals), new(TargetMoments),
		&Diagnostics{MaxDraws: 1000}, &BarrierProfile{Points: 100},
		&Samples{Write: write}, &IndexProcess{Write: record, Replicas: []int{0, 500, 1023}},
	}
	without, err := EstimateMemory(base)
	if err != nil {
		t.Fatal(err)
	}
	// The heap of a run with a statistic that keeps nothing: what the
	// engine spends on having statistics at all (their views), which is
	// not any statistic's.
	empty := base
	empty.Statistics = []Statistic{nopStatistic{}}
	held := heldBytes(t, empty)
	// Every statistic that keeps something holds about 33 KB more than
	// the estimate of its own allocations in this run, the smallest
	// (TargetMoments: 3 KB) as the largest (LogZ: 787 KB); it is not
	// theirs to count, and the run's estimate is far above it.
	const slack = 64 << 10
	for _, st := range stats {
		cfg := base
		cfg.Statistics = []Statistic{st}
		est, err := st.EstimateStatistic(shapeOf(&cfg, 4))
		if err != nil {
			t.Fatalf("%T: %v", st, err)
		}
		if with, err := EstimateMemory(cfg); err != nil || with-without != est {
			t.Errorf("%T: EstimateMemory grows by %d (%v), its estimate is %d", st, with-without, err, est)
		}
		used := heldBytes(t, cfg) - held
		t.Logf("%T: estimate %d, heap %d (%.2f)", st, est, used, float64(est)/float64(used))
		if float64(used) > 2*float64(est)+slack || float64(est) > 4*float64(used) {
			t.Errorf("%T: estimate %d bytes, it holds %d", st, est, used)
		}
	}
}

// nopStatistic observes nothing and keeps nothing.
type nopStatistic struct{}

func (nopStatistic) NewObserver(BlockInfo) Observer { return nopStatistic{} }
func (nopStatistic) Iterate(*View)                  {}
func (nopStatistic) EndScan(*View)                  {}

// TestStatisticEstimatesOverflow checks that a shape whose sizes pass
// 2⁶³ gives ErrMemoryOverflow, never a wrapped small number: 2⁴⁰ blocks
// of 2²⁵ chains for LogZ (2⁴⁰·6·2²⁵·8·8 > 2⁶³), and 2⁶² iterations per
// scan times 4 kept scans for ESS and Diagnostics.
func TestStatisticEstimatesOverflow(t *testing.T) {
	big := MemoryShape{Replicates: 8, Blocks: 1 << 40, Lanes: lanes, Chains: 1 << 25, Observables: 1, Scans: 4, KeepScans: 2, PerScan: 1}
	long := MemoryShape{Replicates: 8, Blocks: 1, Lanes: lanes, Chains: 2, Observables: 1, Scans: 4, KeepScans: 4, PerScan: 1 << 62}
	cases := []struct {
		st MemoryEstimator
		s  MemoryShape
	}{{new(LogZ), big}, {new(ESS), long}, {new(Diagnostics), long}}
	for _, c := range cases {
		if n, err := c.st.EstimateStatistic(c.s); !errors.Is(err, ErrMemoryOverflow) {
			t.Errorf("%T: %d, %v; want ErrMemoryOverflow", c.st, n, err)
		}
	}
}
