package main

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// TestGibbsLeavesTargetInvariant is the invariance test for the user's
// explorer, through the public API alone: 20000 exact draws of the
// target N(0, diag(1, 4, 9)), one move each, and the whitened coordinates
// x_k/(k+1) must still be N(0, 1) by Kolmogorov–Smirnov (critical value
// at α = 1e-4: 2.2253/√20000).
func TestGibbsLeavesTargetInvariant(t *testing.T) {
	const n, dim = 20000, 3
	f := models.Funcs{Dim: dim,
		LogReference: func(x []float64) float64 { return 0 },
		LogTarget: func(x []float64) float64 {
			s := 0.0
			for k, v := range x {
				s -= v * v / (2 * float64((k+1)*(k+1)))
			}
			return s
		}}
	tg, err := models.NewTarget(f, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := models.NewRand(3, 0)
	st := Gibbs{Step: 1.5}.NewState(dim)
	z := make([][]float64, dim)
	x := make([]float64, dim)
	for i := 0; i < n; i++ {
		for k := range x {
			x[k] = float64(k+1) * r.Normal()
		}
		w := tg.Energies(x)
		st.Move(tg, r, x, &w)
		for k, v := range x {
			z[k] = append(z[k], v/float64(k+1))
		}
	}
	for k, zs := range z {
		slices.Sort(zs)
		d := 0.0
		for i, v := range zs {
			c := 0.5 * math.Erfc(-v/math.Sqrt2)
			d = max(d, math.Abs(c-float64(i)/n), math.Abs(float64(i+1)/n-c))
		}
		if d > 2.2253/math.Sqrt(n) {
			t.Errorf("coordinate %d: KS distance %.4f from N(0, %d)", k, d, (k+1)*(k+1))
		}
	}
}

// TestStudyFindsVariances runs the example's study and checks every
// coordinate's pooled variance against k² within 15 % (16 replicates of
// 4000 kept iterations: the ESS of the far coordinates, whose step sizes
// start a factor 4 off, is a few hundred per replicate, a relative error
// of about √(2/5000) = 2 %).
func TestStudyFindsVariances(t *testing.T) {
	vars, err := study(4, 16, 8, 8000, 2)
	if err != nil {
		t.Fatal(err)
	}
	for d, v := range vars {
		if want := float64((d + 1) * (d + 1)); math.Abs(v/want-1) > 0.15 {
			t.Errorf("x%d: variance %.3f, want %.0f", d, v, want)
		}
	}
}

// TestGibbsCheckpointsThroughTheEngine checks that the example's state
// survives a checkpoint: a run saved after 2 of 4 scans and restored
// ends with the uninterrupted run's round trips, schedules and history.
func TestGibbsCheckpointsThroughTheEngine(t *testing.T) {
	m, _ := scaled(3, Gibbs{Step: 1})
	cfg := batch.Config{Model: m, Chains: 6, Replicates: 9, Iterations: 400, Scans: 4, TuneSchedule: true, Seed: 5}
	want, err := batch.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := batch.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for e.Scans() < 2 {
		if err := e.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	data, err := e.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	e, err = batch.Restore(cfg, data)
	if err != nil {
		t.Fatal(err)
	}
	for !e.Done() {
		if err := e.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	got := e.Result()
	if !slices.Equal(got.RoundTrips, want.RoundTrips) {
		t.Errorf("round trips %v after the restore, %v without", got.RoundTrips, want.RoundTrips)
	}
	for b := range want.Schedules {
		if !slices.Equal(got.Schedules[b], want.Schedules[b]) || !slices.Equal(got.History[b], want.History[b]) {
			t.Errorf("replicate %d: schedule or history differ after the restore", b)
		}
	}
}
