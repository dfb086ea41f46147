package runloop

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// testConfig is a small run: 10 scans of 60 iterations of the
// 2-dimensional Gaussian on a tuned spline path (the settings of batch's
// own interrupt tests, scaled down so that a test runs in milliseconds),
// 20 replicates on 2 workers (3 blocks of 8 lanes, the last one partial).
func testConfig(t *testing.T) batch.Config {
	t.Helper()
	g, err := models.NewGaussian(2, -1, 1, 0.3, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	cfg := batch.DefaultConfig(g, 600)
	cfg.Chains, cfg.Replicates, cfg.Workers = 10, 20, 2
	cfg.Tuning, cfg.Scans, cfg.Knots, cfg.LearningRate = batch.PaperTuning, 10, 3, 0.3
	return cfg
}

// sameRun fails unless a and b measured the same: every replicate's round
// trips, rejections, schedule, knots and per-scan history (the timings
// aside).
func sameRun(t *testing.T, what string, a, b *batch.Result) {
	t.Helper()
	if a.Scans != b.Scans || !reflect.DeepEqual(a.RoundTrips, b.RoundTrips) || !reflect.DeepEqual(a.Rejections, b.Rejections) ||
		!reflect.DeepEqual(a.Schedules, b.Schedules) || !reflect.DeepEqual(a.Knots, b.Knots) || !reflect.DeepEqual(a.History, b.History) {
		t.Errorf("%s: the result differs from the uninterrupted run's", what)
	}
}

// saved is one checkpoint Run stored: the engine's scans then, and why.
type saved struct {
	scans int
	why   Why
}

// recorder is an Options.Save and Options.Sync that keeps what it is
// given, and checks that Sync came just before each Save.
type recorder struct {
	t      *testing.T
	saves  []saved
	data   []byte
	synced bool
}

func (r *recorder) sync() error { r.synced = true; return nil }

func (r *recorder) save(data []byte, e *batch.Engine, why Why) error {
	if !r.synced {
		r.t.Errorf("checkpoint after %d scans not preceded by Sync", e.Scans())
	}
	r.synced = false
	r.saves, r.data = append(r.saves, saved{e.Scans(), why}), data
	return nil
}

func (r *recorder) options() Options { return Options{Save: r.save, Sync: r.sync} }

// TestPlainRunIsBatchRun checks that Run without checkpoints measures
// what batch.Run does, and calls Progress after each of the 10 scans.
func TestPlainRunIsBatchRun(t *testing.T) {
	cfg := testConfig(t)
	want, err := batch.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var scans []int
	got, err := Run(context.Background(), cfg, Options{Progress: func(p batch.Progress) { scans = append(scans, p.Scan) }})
	if err != nil {
		t.Fatal(err)
	}
	sameRun(t, "Run", want, got)
	if !reflect.DeepEqual(scans, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}) || got.Interrupted {
		t.Errorf("progress at scans %v, interrupted %v; want 1..10 and a finished run", scans, got.Interrupted)
	}
}

// TestCadenceByScans checks that Every.Scans = 3 of 10 scans writes
// checkpoints after scans 3, 6 and 9, and AtEnd one after scan 10.
func TestCadenceByScans(t *testing.T) {
	r := &recorder{t: t}
	o := r.options()
	o.Every.Scans, o.AtEnd = 3, true
	if _, err := Run(context.Background(), testConfig(t), o); err != nil {
		t.Fatal(err)
	}
	want := []saved{{3, OnCadence}, {6, OnCadence}, {9, OnCadence}, {10, AtEnd}}
	if !reflect.DeepEqual(r.saves, want) {
		t.Errorf("checkpoints %v, want %v", r.saves, want)
	}
}

// TestCadenceByWallTime drives the clock from the test: it moves an hour
// after scans 4 and 7 only, so Every.Wall = 1h writes checkpoints there
// and nowhere else (none at the end without AtEnd).
func TestCadenceByWallTime(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) // any instant
	r := &recorder{t: t}
	o := r.options()
	o.Every.Wall, o.Now = time.Hour, func() time.Time { return now }
	o.Progress = func(p batch.Progress) {
		if p.Scan == 4 || p.Scan == 7 {
			now = now.Add(time.Hour)
		}
	}
	if _, err := Run(context.Background(), testConfig(t), o); err != nil {
		t.Fatal(err)
	}
	if want := []saved{{4, OnCadence}, {7, OnCadence}}; !reflect.DeepEqual(r.saves, want) {
		t.Errorf("checkpoints %v, want %v", r.saves, want)
	}
}

// cancelAt is a Statistic whose observers cancel a context at iteration
// at of the block of replicates 16–19: an interruption within a scan.
// Its state is empty, so that a checkpoint can hold it.
type cancelAt struct {
	at     int
	cancel func()
}

func (c *cancelAt) NewObserver(batch.BlockInfo) batch.Observer { return c }
func (c *cancelAt) Iterate(v *batch.View) {
	if v.Iteration == c.at && v.FirstReplicate() == 16 && c.cancel != nil {
		c.cancel()
	}
}
func (c *cancelAt) EndScan(*batch.View)            {}
func (c *cancelAt) MarshalBinary() ([]byte, error) { return nil, nil }
func (c *cancelAt) UnmarshalBinary(b []byte) error { return nil }

// TestInterruptWithinScanThenResume cancels the run at iteration 17 of
// scan 5 (4·60 + 17 = 257): Run returns the result of the 4 scans
// completed with Interrupted and no error, after a checkpoint of the
// scan under way; Run resumed from it (Start told so, at 4 scans) must
// measure what the run never stopped does, bit for bit.
func TestInterruptWithinScanThenResume(t *testing.T) {
	cfg := testConfig(t)
	cfg.Statistics = []batch.Statistic{&cancelAt{at: 4*60 + 17}}
	want, err := Run(context.Background(), cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := cfg
	stop.Statistics = []batch.Statistic{&cancelAt{at: 4*60 + 17, cancel: cancel}}
	r := &recorder{t: t}
	o := r.options()
	o.Every.Scans = 2
	res, err := Run(ctx, stop, o)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Interrupted || res.Scans != 4 {
		t.Fatalf("interrupted %v after %d scans; want interrupted after 4", res.Interrupted, res.Scans)
	}
	if w := []saved{{2, OnCadence}, {4, OnCadence}, {4, OnInterrupt}}; !reflect.DeepEqual(r.saves, w) {
		t.Errorf("checkpoints %v, want %v", r.saves, w)
	}
	var began []int
	o = Options{Resume: r.data, Start: func(e *batch.Engine, resumed bool) error {
		if !resumed {
			t.Error("Start: resumed is false for a restored engine")
		}
		began = append(began, e.Scans())
		return nil
	}}
	got, err := Run(context.Background(), cfg, o)
	if err != nil {
		t.Fatal(err)
	}
	sameRun(t, "resumed", want, got)
	if !reflect.DeepEqual(began, []int{4}) {
		t.Errorf("Start called at scans %v, want once at 4", began)
	}
}

// TestInterruptAfterCadenceWritesOnce cancels from Progress after scan 3
// with Every.Scans = 3: the cadence's checkpoint is the state to resume
// from, and no second one is written.
func TestInterruptAfterCadenceWritesOnce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &recorder{t: t}
	o := r.options()
	o.Every.Scans, o.AtEnd = 3, true
	o.Progress = func(p batch.Progress) {
		if p.Scan == 3 {
			cancel()
		}
	}
	res, err := Run(ctx, testConfig(t), o)
	if err != nil || !res.Interrupted {
		t.Fatalf("%v, interrupted %v; want an interrupted run", err, res != nil && res.Interrupted)
	}
	if want := []saved{{3, OnCadence}}; !reflect.DeepEqual(r.saves, want) {
		t.Errorf("checkpoints %v, want %v", r.saves, want)
	}
}

// TestRestoreRefused checks that bytes that are not a checkpoint are
// refused as a *RestoreError wrapping batch's *CheckpointError, before
// Start is called.
func TestRestoreRefused(t *testing.T) {
	started := false
	_, err := Run(context.Background(), testConfig(t), Options{Resume: []byte("not a checkpoint"),
		Start: func(*batch.Engine, bool) error { started = true; return nil }})
	var re *RestoreError
	var ce *batch.CheckpointError
	if !errors.As(err, &re) || !errors.As(err, &ce) || started {
		t.Errorf("Run = %v (started %v); want a *RestoreError of a *batch.CheckpointError, Start not called", err, started)
	}
}

// TestStartErrorStops checks that Start's error ends Run before any step.
func TestStartErrorStops(t *testing.T) {
	stop := errors.New("refused by the caller")
	steps := 0
	_, err := Run(context.Background(), testConfig(t), Options{Start: func(*batch.Engine, bool) error { return stop },
		Progress: func(batch.Progress) { steps++ }})
	if !errors.Is(err, stop) || steps != 0 {
		t.Errorf("Run = %v after %d scans; want Start's error before any", err, steps)
	}
}
