package batch

import (
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// twoModes is the user model of examples/twomodes in dim dimensions:
// reference N(0, I), target ½N(−4·1, 0.5² I) + ½N(4·1, 0.5² I).
func twoModes(t *testing.T, dim int, ex models.Explorer) models.Model {
	t.Helper()
	const mode, sd = 4.0, 0.5
	logNormal := func(x []float64, mu, sd float64) float64 {
		s := 0.0
		for _, v := range x {
			s += (v - mu) * (v - mu)
		}
		return -s/(2*sd*sd) - float64(len(x))*math.Log(sd)
	}
	m, err := models.FromFuncs(models.Funcs{
		Dim:          dim,
		LogReference: func(x []float64) float64 { return logNormal(x, 0, 1) },
		LogTarget: func(x []float64) float64 {
			a, b := logNormal(x, -mode, sd), logNormal(x, mode, sd)
			hi := math.Max(a, b)
			return hi + math.Log(math.Exp(a-hi)+math.Exp(b-hi))
		},
		SampleReference: func(r models.Rand, x []float64) {
			for d := range x {
				x[d] = r.Normal()
			}
		},
	}, ex)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestStatefulModelsMatchScalarOracle drives models whose moves depend on
// the current state — a user model under random-walk Metropolis (with its
// per-chain step sizes adapted between scans) and under the slice sampler,
// and the galaxy mixture — through the engine's slot path and through the
// scalar oracle, which keeps the states in slots with plain loops, and
// compares round trips, every scan's barrier and the final schedule,
// replicate by replicate. A move given the wrong chain, or a state paired
// with the wrong coefficients, changes the draws and so the results.
func TestStatefulModelsMatchScalarOracle(t *testing.T) {
	galaxy := models.NewGalaxy()
	cases := []struct {
		name      string
		m         models.Model
		minTrips  int
		chains    int
		iters     int
		scans     int
		algorithm Algorithm
	}{
		{"random-walk", twoModes(t, 2, models.RandomWalk{}), 20, 12, 1200, 6, NRPT},
		{"random-walk reversible", twoModes(t, 2, models.RandomWalk{}), 5, 12, 1200, 6, Reversible},
		{"slice", twoModes(t, 2, models.SliceSampler{}), 20, 12, 600, 3, NRPT},
		{"galaxy", galaxy, 0, 6, 40, 2, NRPT},
	}
	for _, c := range cases {
		cfg := Config{Model: c.m, Chains: c.chains, Replicates: 10, Algorithm: c.algorithm, Iterations: c.iters,
			Scans: c.scans, TuneSchedule: true, Knots: 1, Seed: 23, Workers: 2}
		res := mustRun(t, cfg)
		total := 0
		for b := 0; b < cfg.Replicates; b++ {
			o := runOracle(cfg, b)
			total += o.trips
			if o.trips != res.RoundTrips[b] {
				t.Errorf("%s replicate %d: round trips engine %d, oracle %d", c.name, b, res.RoundTrips[b], o.trips)
			}
			for s, rej := range o.rejection {
				sum := 0.0
				for _, r := range rej {
					sum += r
				}
				// Agreement to rounding: the oracle evaluates the swap ratio
				// term by term with math.Exp (see TestEngineMatchesScalarOracle).
				if got := res.History[b][s].Barrier; math.Abs(sum-got) > 1e-9 {
					t.Errorf("%s replicate %d scan %d: barrier engine %.12f, oracle %.12f", c.name, b, s+1, got, sum)
				}
			}
			for n, x := range o.schedule {
				if math.Abs(x-res.Schedules[b][n]) > 1e-9 {
					t.Errorf("%s replicate %d: schedule[%d] engine %v, oracle %v", c.name, b, n, res.Schedules[b][n], x)
					break
				}
			}
		}
		if total < c.minTrips {
			t.Errorf("%s: only %d round trips; the comparison needs a run with some", c.name, total)
		}
	}
}

// TestUserModelVisitsBothModes checks that NRPT with the random-walk
// explorer samples the two-mode target: in every replicate the kept target
// states' first coordinate has mean near 0 (the modes at ±4 weigh ½ each)
// and variance near 4² + 0.5² = 16.25, which a chain stuck in one mode
// (variance 0.25) cannot give.
func TestUserModelVisitsBothModes(t *testing.T) {
	moments := new(TargetMoments)
	cfg := Config{Model: twoModes(t, 2, models.RandomWalk{}), Chains: 16, Replicates: 8, Iterations: 8000, Scans: 20,
		TuneSchedule: true, Knots: 1, Seed: 5, Statistics: []Statistic{moments}}
	res := mustRun(t, cfg)
	means, vars := moments.Means(), moments.Vars()
	if len(means) != 8 {
		t.Fatalf("moments of %d replicates, want 8", len(means))
	}
	for b := range means {
		mean, v := means[b][0], vars[b][0]
		// A replicate's round trips bound its effective number of mode
		// switches; with ≥ 40 of them the mode fraction's sd is about
		// 0.5/√40 ≈ 0.08, so the mean (8 × that fraction − 4) stays
		// within ±2.5 of 0 at about 3.9 sd.
		if math.Abs(mean) > 2.5 || math.Abs(v/16.25-1) > 0.25 {
			t.Errorf("replicate %d: first coordinate mean %.3f, variance %.3f; want 0 and 16.25", b, mean, v)
		}
		if res.RoundTrips[b] < 40 {
			t.Errorf("replicate %d: %d round trips", b, res.RoundTrips[b])
		}
	}
}

// TestFuncsSummaryMatchesTargetMoments is the regression test of the
// per-scan summary of a FromFuncs model with Dim ≥ 2: Summary's TargetMean
// and TargetVar (the first observable at the target chain, last scan) must
// agree with TargetMoments' first observable. The block's Observe once
// strode rows by len(dst) instead of the model's dimension, so the summary,
// which asks for one observable, read other rows' coordinates: on
// N(0, I) → N(2, I) it gave 1.01 and 1.38 for 2 and 1.
//
// Target N((2, −3), I) in 2 dimensions under the slice sampler: the first
// coordinate has mean 2 and variance 1; a mixed-up stride would pull in the
// second coordinate (mean −3) or the reference's states (mean 0). The last
// scan has 2000 iterations × 8 replicates of nearly independent draws, so
// SE(mean) ≈ 1/√16000 ≈ 0.008 and SE(var) ≈ √(2/16000) ≈ 0.011; the
// tolerances 0.1 and 0.15 leave room for autocorrelation.
func TestFuncsSummaryMatchesTargetMoments(t *testing.T) {
	mu := []float64{2, -3}
	m, err := models.FromFuncs(models.Funcs{
		Dim: 2,
		LogReference: func(x []float64) float64 {
			return -(x[0]*x[0] + x[1]*x[1]) / 2
		},
		LogTarget: func(x []float64) float64 {
			a, b := x[0]-mu[0], x[1]-mu[1]
			return -(a*a + b*b) / 2
		},
		SampleReference: func(r models.Rand, x []float64) {
			x[0], x[1] = r.Normal(), r.Normal()
		},
	}, models.SliceSampler{})
	if err != nil {
		t.Fatal(err)
	}
	moments := new(TargetMoments)
	cfg := Config{Model: m, Chains: 12, Replicates: 8, Iterations: 4000, Scans: 2,
		TuneSchedule: true, Knots: 1, Seed: 11, KeepScans: 1, Statistics: []Statistic{moments}}
	res := mustRun(t, cfg)
	s := res.Summary()
	if math.Abs(s.TargetMean-2) > 0.1 || math.Abs(s.TargetVar-1) > 0.15 {
		t.Errorf("Summary: target mean %.4f, variance %.4f; want 2 and 1", s.TargetMean, s.TargetVar)
	}
	mean, variance := 0.0, 0.0
	for b := range moments.Means() {
		mean += moments.Means()[b][0] / 8
		variance += moments.Vars()[b][0] / 8
	}
	if math.Abs(s.TargetMean-mean) > 1e-9 || math.Abs(s.TargetVar-variance) > 1e-9 {
		t.Errorf("Summary (%.6f, %.6f) and TargetMoments (%.6f, %.6f) disagree on the last scan", s.TargetMean, s.TargetVar, mean, variance)
	}
}
