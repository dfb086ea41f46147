package batch

import (
	"errors"
	"runtime"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// liveBytes returns the heap in use after a full collection.
func liveBytes() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestEstimateMemoryMatchesTheHeap runs configurations of each built-in
// model and checks that the estimate is within a factor of two of the heap
// the finished run holds (engine and result).
func TestEstimateMemoryMatchesTheHeap(t *testing.T) {
	g, _ := models.NewGaussian(64, -1, 1, 0.3, 0.3)
	bb, _ := models.NewBetaBinomial(180, 840, 140000, 60000)
	cases := []struct {
		name string
		cfg  Config
	}{
		{"gaussian", Config{Model: g, Chains: 200, Replicates: 64, Iterations: 20, Scans: 10, Knots: 4, TunePath: true, LearningRate: 0.2, Workers: 1}},
		{"gaussian full gradient", Config{Model: g, Chains: 100, Replicates: 32, Iterations: 400, Scans: 2, Knots: 4, TunePath: true, LearningRate: 0.2, Gradient: FullGradient, Workers: 1}},
		{"betabinomial", Config{Model: bb, Chains: 500, Replicates: 64, Iterations: 10, Scans: 5, Workers: 1, Statistics: []Statistic{new(TargetMoments)}}},
		{"galaxy", Config{Model: models.NewGalaxy(), Chains: 100, Replicates: 32, Iterations: 2, Scans: 1, Workers: 1}},
		{"history", Config{Model: g, Chains: 4, Replicates: 64, Iterations: 5000, Scans: 5000, Workers: 1}},
	}
	for _, c := range cases {
		est, err := EstimateMemory(c.cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		used := heldBytes(t, c.cfg)
		t.Logf("%s: estimate %d, heap %d (%.2f)", c.name, est, used, float64(est)/float64(used))
		if float64(est) < 0.8*float64(used) || float64(est) > 2*float64(used) {
			t.Errorf("%s: estimate %d bytes, the run holds %d", c.name, est, used)
		}
	}
}

// TestEstimateMemoryOverflows checks that sizes near 2⁶³ give
// ErrMemoryOverflow rather than a wrapped, small estimate.
func TestEstimateMemoryOverflows(t *testing.T) {
	g, _ := models.NewGaussian(1<<62, -1, 1, 0.3, 0.3)
	small, _ := models.NewGaussian(1, -1, 1, 0.3, 0.3)
	for _, cfg := range []Config{
		{Model: g, Chains: 2, Replicates: 1, Iterations: 1, Scans: 1},
		{Model: small, Chains: 1 << 61, Replicates: 1, Iterations: 1, Scans: 1},
		{Model: small, Chains: 2, Replicates: 1 << 62, Iterations: 1, Scans: 1},
		{Model: small, Chains: 2, Replicates: 1, Iterations: 1 << 62, Scans: 1 << 62},
		{Model: small, Chains: 2, Replicates: 1, Iterations: 1, Scans: 1, Knots: 1 << 62},
		{Model: small, Chains: 1000, Replicates: 1, Iterations: 1 << 60, Scans: 1, Knots: 4, TunePath: true, LearningRate: 0.1, Gradient: FullGradient},
	} {
		if n, err := EstimateMemory(cfg); !errors.Is(err, ErrMemoryOverflow) {
			t.Errorf("chains %d replicates %d scans %d knots %d: got %d, %v", cfg.Chains, cfg.Replicates, cfg.Scans, cfg.Knots, n, err)
		}
	}
}

// TestNewRefusesWhatCannotFit checks issue 26's cause 5: New refuses a run
// that EstimateMemory says exceeds AvailableMemory, with a *MemoryError
// that carries the estimate and the limit, before it allocates anything;
// a FromFuncs model with Dim = 1<<40 and a Gaussian run of 1<<30
// replicates used to end the process with the runtime's fatal
// out-of-memory error. A run that fits is built as before.
func TestNewRefusesWhatCannotFit(t *testing.T) {
	g, _ := models.NewGaussian(1, -1, 1, 0.3, 0.3)
	huge := twoModes(t, 1<<40, models.RandomWalk{})
	limit, source := AvailableMemory()
	if limit < 1 || source == "" {
		t.Fatalf("AvailableMemory() = %d, %q", limit, source)
	}
	for _, cfg := range []Config{
		{Model: huge, Chains: 4, Replicates: 8, Iterations: 10, Scans: 1},
		{Model: g, Chains: 4, Replicates: 1 << 30, Iterations: 10, Scans: 1},
	} {
		before := allocatedBytes()
		e, err := New(cfg)
		grew := allocatedBytes() - before
		var me *MemoryError
		if e != nil || !errors.Is(err, ErrNotEnoughMemory) || !errors.As(err, &me) {
			t.Fatalf("New(%d replicates, %d observables): %v, want a *MemoryError", cfg.Replicates, models.NumObservables(cfg.Model), err)
		}
		need, _ := EstimateMemory(cfg)
		if me.Need != need || me.Need <= me.Limit || me.Source == "" {
			t.Errorf("%v: need %d (EstimateMemory %d), limit %d from %q", err, me.Need, need, me.Limit, me.Source)
		}
		// Refused before the engine's state: 1 MiB covers the estimate's
		// own garbage (no list of 2^40 names).
		if grew > 1<<20 {
			t.Errorf("%v: New allocated %d bytes before refusing", err, grew)
		}
	}
	// 2^62 replicates of the Gaussian: the size overflows int64.
	if _, err := New(Config{Model: g, Chains: 4, Replicates: 1 << 62, Iterations: 10, Scans: 1}); !errors.Is(err, ErrMemoryOverflow) {
		t.Errorf("2^62 replicates: %v, want ErrMemoryOverflow", err)
	}
	if _, err := New(Config{Model: g, Chains: 4, Replicates: 8, Iterations: 10, Scans: 1}); err != nil {
		t.Errorf("a run that fits: %v", err)
	}
}

// allocatedBytes returns the bytes allocated on the heap so far.
func allocatedBytes() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.TotalAlloc
}

// TestCheckMemory checks CheckMemory's boundary: a need equal to the
// limit fits, one byte more is a *MemoryError (errors.Is
// ErrNotEnoughMemory) carrying the need, the limit and the source.
func TestCheckMemory(t *testing.T) {
	const limit = 4 << 30 // 4 GiB, an arbitrary limit
	if err := CheckMemory(limit, limit, "test"); err != nil {
		t.Errorf("need = limit: %v", err)
	}
	err := CheckMemory(limit+1, limit, "test")
	var me *MemoryError
	if !errors.As(err, &me) || !errors.Is(err, ErrNotEnoughMemory) || *me != (MemoryError{Need: limit + 1, Limit: limit, Source: "test"}) {
		t.Errorf("need = limit+1: %#v", err)
	}
}

// TestFirstScanEndAllocatesNothing checks that the end of a run's first
// scan, under the paper's tuning of the schedule and a spline path,
// allocates nothing: its buffers (the schedule updater's, the SKL
// workspaces', what is reported of each lane) are sized when the block is
// built, so that the first scan's end costs what the others do.
func TestFirstScanEndAllocatesNothing(t *testing.T) {
	g, _ := models.NewGaussian(1, -1, 1, 0.1, 0.1)
	// One P while counting, as testing.AllocsPerRun does, so that no other
	// goroutine's allocations fall between the two readings.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, tuning := range []Tuning{PaperTuning, AutoTuning} {
		cfg := Config{Model: g, Chains: 50, Replicates: 8, Iterations: 200, Scans: 2, Knots: 4, Seed: 1,
			Workers: 1, TuneSchedule: true, TunePath: true, LearningRate: 0.2, Tuning: tuning}
		e, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		b := e.blocks[0]
		// A collection empties sync.Pools, as it may between any two ends
		// of a scan.
		runtime.GC()
		for s := 1; s <= 2; s++ {
			for m := 0; m < 100; m++ {
				b.iterate(NRPT, s, (s-1)*100+m+1, m)
			}
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			b.endScan(&e.cfg, s, 100)
			runtime.ReadMemStats(&m1)
			if n := m1.Mallocs - m0.Mallocs; n != 0 {
				t.Errorf("%v: the end of scan %d allocated %d times (%d bytes)", tuning, s, n, m1.TotalAlloc-m0.TotalAlloc)
			}
		}
		if tuning == AutoTuning && b.tuner.auto[0].Rounds() == 0 {
			t.Errorf("the automatic tuner ended no round in two scans: the test checks none")
		}
	}
}

// TestWorkersShareScanScratch checks that the blocks of each worker share
// one set of the end of a scan's buffers (scanScratch), and that no two
// workers share one: 8 blocks on 1, 2 and 3 workers.
func TestWorkersShareScanScratch(t *testing.T) {
	g, _ := models.NewGaussian(1, -1, 1, 0.1, 0.1)
	for _, workers := range []int{1, 2, 3} {
		cfg := Config{Model: g, Chains: 20, Replicates: 64, Iterations: 20, Scans: 2, Knots: 4, Seed: 1,
			Workers: workers, TuneSchedule: true, TunePath: true, LearningRate: 0.2}
		e, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for w, r := range e.ranges {
			first := e.blocks[r[0]].tuner
			for i := r[0]; i < r[1]; i++ {
				tn := e.blocks[i].tuner
				if tn.block == nil || tn.updater == nil || tn.block != first.block || tn.updater != first.updater {
					t.Errorf("%d workers: block %d does not share worker %d's scratch", workers, i, w)
				}
			}
			for v, s := range e.ranges[:w] {
				if e.blocks[s[0]].tuner.block == first.block || e.blocks[s[0]].tuner.updater == first.updater {
					t.Errorf("%d workers: workers %d and %d share scratch", workers, v, w)
				}
			}
		}
	}
}
