package models_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// paddedRun runs m for replicates replicates (the paper's tuning, or the
// automatic tuner with auto) and returns the result and every
// replicate's kept states in order.
func paddedRun(t *testing.T, m models.Model, replicates, workers int, auto bool) (*batch.Result, [][]float64) {
	t.Helper()
	kept := make([][]float64, replicates)
	s := &batch.Samples{Write: func(b, _ int, x []float64) error { kept[b] = append(kept[b], x...); return nil }}
	cfg := batch.Config{Model: m, Chains: 8, Replicates: replicates, Iterations: 160, Scans: 4, TuneSchedule: true, Knots: 3,
		TunePath: true, LearningRate: 0.2, Seed: 6, Workers: workers, Statistics: []batch.Statistic{s}}
	if auto {
		cfg.Tuning, cfg.Scans, cfg.LearningRate = batch.AutoTuning, batch.AutoScans(cfg.Iterations), 0
	}
	res, err := batch.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res, kept
}

// TestFuncsPaddingInvariance checks the same for the models whose blocks
// run lane by lane (FromFuncs, here the funnel with MALA), side by side
// (FromBatch: the logistic model with HMC) and with a variational
// reference (the logistic model's, diagonal and dense), under the
// paper's tuning.
func TestFuncsPaddingInvariance(t *testing.T) {
	funnel, err := models.NewFunnel(3, 3, models.MALA{})
	if err != nil {
		t.Fatal(err)
	}
	logistic, err := models.NewLogistic(models.SimulateLogistic(40, 2, 9), 3, models.HMC{Leapfrogs: 3})
	if err != nil {
		t.Fatal(err)
	}
	diag, err := models.Variational(logistic, models.MALA{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	dense, err := models.VariationalDense(logistic, models.MALA{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []models.Model{funnel, logistic, diag, dense} {
		a, ka := paddedRun(t, m, 10, 2, false)
		b, kb := paddedRun(t, m, 16, 1, false)
		if !reflect.DeepEqual(a.RoundTrips, b.RoundTrips[:10]) || !reflect.DeepEqual(a.Schedules, b.Schedules[:10]) ||
			fmt.Sprint(a.History) != fmt.Sprint(b.History[:10]) {
			t.Errorf("%T: round trips %v and %v, or schedules or history, differ", m, a.RoundTrips, b.RoundTrips[:10])
		}
		for r := range ka {
			if len(ka[r]) == 0 || !reflect.DeepEqual(ka[r], kb[r]) {
				t.Fatalf("%T replicate %d: kept states differ (%d and %d values)", m, r, len(ka[r]), len(kb[r]))
			}
		}
	}
}

// TestMixturePaddingInvariance checks that the mixtures' replicates 0–9
// run the same in a run of 10 (whose second block has 6 padding lanes,
// which the blocks skip) and of 16 replicates (none), with 2 and 1
// workers: round trips, schedules, history and every kept state, bit for
// bit.
func TestMixturePaddingInvariance(t *testing.T) {
	for _, m := range []*models.Mixture{models.NewGalaxy(), models.NewMixture(1)} {
		for _, auto := range []bool{false, true} {
			a, ka := paddedRun(t, m, 10, 2, auto)
			b, kb := paddedRun(t, m, 16, 1, auto)
			// History holds NaN (a scan's TargetVar with one kept draw), which
			// DeepEqual never equals; its %v shows every bit of the others.
			if !reflect.DeepEqual(a.RoundTrips, b.RoundTrips[:10]) || !reflect.DeepEqual(a.Schedules, b.Schedules[:10]) ||
				fmt.Sprint(a.History) != fmt.Sprint(b.History[:10]) {
				t.Errorf("%s (auto %v): round trips %v and %v, or schedules or history, differ", m.Name(), auto, a.RoundTrips, b.RoundTrips[:10])
			}
			for r := range ka {
				if len(ka[r]) == 0 || !reflect.DeepEqual(ka[r], kb[r]) {
					t.Fatalf("%s (auto %v) replicate %d: kept states differ (%d and %d values)", m.Name(), auto, r, len(ka[r]), len(kb[r]))
				}
			}
		}
	}
}
