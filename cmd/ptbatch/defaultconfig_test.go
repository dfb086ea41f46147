package main

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// TestDefaultConfigIsRunDefault checks that batch.DefaultConfig is
// `ptbatch run`'s default: the library's run of the flags' default model
// (the Gaussian pair of newRunFlagSet: d = 1, μ0 = −1, μ1 = 1, σ0 = σ1 =
// 0.01) with the same iterations and seed gives the same round trips,
// rates, barrier, schedule and knots, bit for bit, as the command with no
// other flag. 2000 iterations (AutoScans gives 40 scans of 50) keep it
// short; seed 7 is arbitrary, not the default 1, to check that the seed
// is passed through.
func TestDefaultConfigIsRunDefault(t *testing.T) {
	out, errs, code := runCLI("run", "--iterations", "2000", "--seed", "7", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	var cli struct {
		RoundTrips     []int       `json:"round_trips"`
		RoundTripRates []float64   `json:"round_trip_rates"`
		Barrier        float64     `json:"barrier"`
		Schedule       []float64   `json:"schedule"`
		Knots          [][]float64 `json:"knots"`
		Tail           float64     `json:"tail_round_trip_rate"`
	}
	if err := json.Unmarshal([]byte(out), &cli); err != nil {
		t.Fatal(err)
	}
	m, err := models.NewGaussian(1, -1, 1, 0.01, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	cfg := batch.DefaultConfig(m, 2000)
	cfg.Seed = 7
	res, err := batch.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var knots [][]float64
	for _, k := range res.Knots[0] {
		knots = append(knots, []float64{k[0], k[1]})
	}
	tail, _ := meanSE(res.TailRoundTripRates())
	switch {
	case !slices.Equal(cli.RoundTrips, res.RoundTrips):
		t.Errorf("round trips: run %v, library %v", cli.RoundTrips, res.RoundTrips)
	case !slices.Equal(cli.RoundTripRates, res.RoundTripRates):
		t.Errorf("round-trip rates: run %v, library %v", cli.RoundTripRates, res.RoundTripRates)
	case cli.Barrier != res.Summary().Barrier:
		t.Errorf("barrier: run %v, library %v", cli.Barrier, res.Summary().Barrier)
	case !slices.Equal(cli.Schedule, res.Schedules[0]):
		t.Errorf("schedule: run %v, library %v", cli.Schedule, res.Schedules[0])
	case !slices.EqualFunc(cli.Knots, knots, slices.Equal):
		t.Errorf("knots: run %v, library %v", cli.Knots, knots)
	case cli.Tail != tail:
		t.Errorf("tail round-trip rate: run %v, library %v", cli.Tail, tail)
	case len(res.Knots[0]) != batch.DefaultKnots+1 || res.Config.Tuning != batch.AutoTuning:
		t.Errorf("library run: %d knots, tuning %v; want K = %d (%d knots) and auto", len(res.Knots[0]), res.Config.Tuning, batch.DefaultKnots, batch.DefaultKnots+1)
	}
}
