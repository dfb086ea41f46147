package batch

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// cancelAt is a Statistic whose observers cancel a context when the block
// of replicates 16–23 reaches iteration at: an interrupt in the middle of
// a scan. With 2 workers and 3 blocks, worker 0 runs block 0 while worker
// 1 runs block 1 and then block 2, so block 0 has usually finished the
// scan when block 2 cancels, and the other blocks stop where they are.
type cancelAt struct {
	at     int
	cancel func()
}

func (c *cancelAt) NewObserver(BlockInfo) Observer { return c }
func (c *cancelAt) Iterate(v *View) {
	if v.Iteration == c.at && v.FirstReplicate() == 16 && c.cancel != nil {
		c.cancel()
	}
}
func (c *cancelAt) EndScan(*View) {}

// TestInterruptWithinScanThenContinue interrupts Engine.Step in the middle
// of a scan, checks that the Result then reports the scans completed and
// nothing of the open one (equal to a run of that many scans), and that
// further Steps finish the run with results identical to an uninterrupted
// run, for an exact and a stateful model.
func TestInterruptWithinScanThenContinue(t *testing.T) {
	g, _ := models.NewGaussian(2, -1, 1, 0.3, 0.3)
	for _, m := range []models.Model{g, twoModes(t, 2, models.RandomWalk{})} {
		base := Config{Model: m, Chains: 10, Replicates: 20, Iterations: 1200, Scans: 6, TuneSchedule: true,
			Knots: 3, TunePath: true, LearningRate: 0.3, Seed: 31, Workers: 2}
		want := mustRun(t, base)

		ctx, cancel := context.WithCancel(context.Background())
		stat := &cancelAt{at: 3*200 + 77, cancel: cancel} // iteration 77 of scan 4
		cfg := base
		cfg.Statistics = []Statistic{stat}
		e, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for e.Scans() < 3 {
			if err := e.Step(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if err := e.Step(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("%T: interrupted step returned %v, want context.Canceled", m, err)
		}
		mid := e.Result()
		three := base
		three.Iterations, three.Scans = 600, 3
		upTo3 := mustRun(t, three)
		if !mid.Interrupted || mid.Scans != 3 || mid.Iterations != 600 {
			t.Fatalf("%T: interrupted result: scans %d, iterations %d, interrupted %v", m, mid.Scans, mid.Iterations, mid.Interrupted)
		}
		sameResults(t, mid, upTo3, base.Replicates, "interrupted after 3 scans vs a 3-scan run")
		for b := range mid.Rejections {
			if !slices.Equal(mid.Rejections[b], upTo3.Rejections[b]) || mid.RoundTripRates[b] != upTo3.RoundTripRates[b] ||
				!slices.Equal(mid.Knots[b], upTo3.Knots[b]) {
				t.Errorf("%T replicate %d: the interrupted result reports the open scan", m, b)
			}
		}

		stat.cancel = nil
		for !e.Done() {
			if err := e.Step(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		got := e.Result()
		if got.Interrupted {
			t.Errorf("%T: finished run marked interrupted", m)
		}
		sameResults(t, got, want, base.Replicates, "interrupted and continued vs uninterrupted")
		for b := range got.Knots {
			if !slices.Equal(got.Knots[b], want.Knots[b]) || !slices.Equal(got.Rejections[b], want.Rejections[b]) {
				t.Errorf("%T replicate %d: knots or rejections differ after continuing", m, b)
			}
		}
	}
}
