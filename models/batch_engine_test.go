package models_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/models"
)

// logisticRun runs the batched logistic model on 60 simulated
// observations (seed 9, 2 covariates) with MALA, and returns the result
// and every replicate's kept states in order.
func logisticRun(t *testing.T, replicates, workers int) (*batch.Result, [][]float64) {
	t.Helper()
	m, err := models.NewLogistic(models.SimulateLogistic(60, 2, 9), 3, models.MALA{})
	if err != nil {
		t.Fatal(err)
	}
	kept := make([][]float64, replicates)
	s := &batch.Samples{Write: func(b, _ int, x []float64) error { kept[b] = append(kept[b], x...); return nil }}
	cfg := batch.Config{Model: m, Chains: 6, Replicates: replicates, Iterations: 120, Scans: 4, TuneSchedule: true, Knots: 1,
		Seed: 4, Workers: workers, Statistics: []batch.Statistic{s}}
	res, err := batch.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res, kept
}

// TestBatchModelInvariance checks that the batched logistic model's
// replicates run the same whatever the number of replicates beside them
// and of workers, and under the generic kernels as under the fastest:
// round trips, schedules and every kept state bit for bit.
func TestBatchModelInvariance(t *testing.T) {
	a, ka := logisticRun(t, 16, 2)
	restore, err := kernel.SetImpl("generic")
	if err != nil {
		t.Fatal(err)
	}
	b, kb := logisticRun(t, 8, 1)
	restore()
	if !reflect.DeepEqual(a.RoundTrips[:8], b.RoundTrips) || !reflect.DeepEqual(a.Schedules[:8], b.Schedules) {
		t.Errorf("round trips %v and %v, or schedules, differ", a.RoundTrips[:8], b.RoundTrips)
	}
	for r := range kb {
		if len(kb[r]) == 0 || !reflect.DeepEqual(ka[r], kb[r]) {
			t.Fatalf("replicate %d: kept states differ (%d and %d values)", r, len(ka[r]), len(kb[r]))
		}
	}
}

// TestBatchModelCheckpoint checks that a run of the batched logistic
// model saved after two scans and restored continues bit for bit as the
// uninterrupted run.
func TestBatchModelCheckpoint(t *testing.T) {
	m, err := models.NewLogistic(models.SimulateLogistic(60, 2, 9), 3, models.HMC{Leapfrogs: 3})
	if err != nil {
		t.Fatal(err)
	}
	cfg := batch.Config{Model: m, Chains: 6, Replicates: 8, Iterations: 120, Scans: 4, TuneSchedule: true, Knots: 1, Seed: 4, Workers: 1}
	ctx := context.Background()
	whole, err := batch.Run(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := batch.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := e.Step(ctx); err != nil {
			t.Fatal(err)
		}
	}
	data, err := e.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	r, err := batch.Restore(cfg, data)
	if err != nil {
		t.Fatal(err)
	}
	for !r.Done() {
		if err := r.Step(ctx); err != nil {
			t.Fatal(err)
		}
	}
	got := r.Result()
	if !reflect.DeepEqual(got.RoundTrips, whole.RoundTrips) || !reflect.DeepEqual(got.Schedules, whole.Schedules) || !reflect.DeepEqual(got.Rejections, whole.Rejections) {
		t.Errorf("resumed run: round trips %v, uninterrupted %v", got.RoundTrips, whole.RoundTrips)
	}
}
