package batch

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/ptbatch/ptbatch/models"
	"golang.org/x/sys/unix"
)

// threadMinorFaults returns the calling thread's minor page faults so far.
func threadMinorFaults(t *testing.T) int64 {
	t.Helper()
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		t.Skipf("getrusage(RUSAGE_THREAD): %v", err)
	}
	return int64(ru.Minflt) // int32 on 32-bit Linux
}

// TestFirstScanEndMapsNoPages checks, under the paper's tuning and the
// automatic tuner (whose first round ends with the first scan), and with
// the statistics a run of the command line keeps, that the buffers a
// block's end of a scan writes (the reports, the last rejections, the
// history, the tuners', the observers') are written when the block is
// built (newSharingBlock, start, touch): the first end of a scan then
// takes no page fault, where each buffer left as the runtime took it from
// the system cost a fault on a new page, a few microseconds on a virtual
// machine, in every block's first scan end. The faults are the test
// thread's own (RUSAGE_THREAD, the goroutine locked to it and no
// collection running); a first engine, kept alive, runs the code and
// grows the stack beforehand, and the free heap goes back to the system
// before the engine under test is built, so that it is built on pages
// never mapped.
func TestFirstScanEndMapsNoPages(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector maps its shadow memory at faults of its own")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	g, err := models.NewGaussian(1, -1, 1, 0.1, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tuning := range []Tuning{PaperTuning, AutoTuning} {
		for _, stats := range []bool{false, true} {
			config := func() Config {
				cfg := Config{Model: g, Chains: 50, Replicates: 64, Iterations: 64, Scans: 2, Knots: 4, Seed: 3, Workers: 1,
					TuneSchedule: true, TunePath: true, LearningRate: 0.2, Tuning: tuning}
				if stats {
					cfg.Statistics = []Statistic{&LogZ{FromScan: 1, Path: true}, new(Restarts), new(ESS),
						&Diagnostics{Thin: 1, Observables: 1, MaxDraws: 1000}, new(TargetMoments), new(Proposals),
						&IndexProcess{Replicas: []int{0, 1}, Thin: 1, Window: 100}, &BarrierProfile{}}
				}
				return cfg
			}
			t.Run(fmt.Sprintf("%v/statistics=%v", tuning, stats), func(t *testing.T) { testFirstScanEndMapsNoPages(t, config) })
		}
	}
}

// testFirstScanEndMapsNoPages is TestFirstScanEndMapsNoPages on the
// configurations config returns (each engine its own statistics).
func testFirstScanEndMapsNoPages(t *testing.T, config func() Config) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// endScans runs scan 1's iterations on every block and then ends
	// it, block by block, and returns each end's faults.
	endScans := func(e *Engine) []int64 {
		faults := make([]int64, len(e.blocks))
		for i, b := range e.blocks {
			for ; b.pos < e.perScan; b.pos++ {
				b.iterate(b.alg, 1, b.pos+1, b.pos)
			}
			f0 := threadMinorFaults(t)
			b.endScan(&e.cfg, 1, e.perScan)
			faults[i] = threadMinorFaults(t) - f0
			b.scans, b.pos = 1, 0
		}
		return faults
	}
	warm, err := New(config())
	if err != nil {
		t.Fatal(err)
	}
	endScans(warm)
	debug.FreeOSMemory()
	e, err := New(config())
	if err != nil {
		t.Fatal(err)
	}
	faults := endScans(e)
	runtime.KeepAlive(warm)
	var total int64
	for _, f := range faults {
		total += f
	}
	// A buffer left unwritten costs every block at least one fault; two
	// in all leave room for one the kernel takes of its own accord.
	if total > 2 {
		t.Errorf("the first scan ends of %d blocks took %d page faults (by block %v), want none", len(faults), total, faults)
	}
	if e.cfg.Tuning == AutoTuning && e.blocks[0].tuner.auto[0].Rounds() == 0 {
		t.Errorf("the automatic tuner ended no round at the first end of a scan: the test checks none of its work")
	}
}
