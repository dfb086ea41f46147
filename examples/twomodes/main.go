// Command twomodes samples a d-dimensional target with two well-separated
// modes with ptbatch, written only against ptbatch's public API: a user's
// own model given as plain functions, explored by random-walk Metropolis.
//
// The reference is N(0, I) and the target ½N(−4·1, 0.5² I) + ½N(4·1, 0.5² I).
// A single random-walk chain started in one mode stays there; parallel
// tempering carries states between the modes through the reference, so
// every replicate's kept target samples fall half in each mode.
//
//	go run ./examples/twomodes --dim 2 --replicates 16 --chains 20 --iterations 20000 --json
//
// The JSON holds mode_fraction (per replicate, the share of kept target
// samples whose first coordinate is positive), the headlines — the
// round-trip rate over the last tenth of the scans (tail_round_trip_rate)
// and the stepping-stone log(Z1/Z0) of the last scan (log_z), each with
// its standard error across replicates (_se) — and the last scan's
// barrier. W0 and W1 are normal log densities without their (2π)^{d/2},
// and W1 adds two of them, so log(Z1/Z0) is ln 2 exactly, whatever d.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// logNormal is the log density of N(mu·1, sd² I) at x, up to 2π terms.
func logNormal(x []float64, mu, sd float64) float64 {
	s := 0.0
	for _, v := range x {
		s += (v - mu) * (v - mu)
	}
	return -s/(2*sd*sd) - float64(len(x))*math.Log(sd)
}

// twoModes is the model: W0 the reference's log density, W1 the target's.
func twoModes(dim int) (models.Model, error) {
	return models.FromFuncs(models.Funcs{
		Dim:          dim,
		LogReference: func(x []float64) float64 { return logNormal(x, 0, 1) },
		LogTarget: func(x []float64) float64 {
			a, b := logNormal(x, -4, 0.5), logNormal(x, 4, 0.5)
			hi := math.Max(a, b)
			return hi + math.Log(math.Exp(a-hi)+math.Exp(b-hi))
		},
		SampleReference: func(rng models.Rand, x []float64) {
			for d := range x {
				x[d] = rng.Normal()
			}
		},
	}, models.RandomWalk{})
}

// scans is the number of scans of the paper's tuning: the schedule is
// tuned after each.
const scans = 20

// study runs the sampler and returns, per replicate, the share of kept
// target samples whose first coordinate is positive, the run's result and
// its log Z statistic (the last scan's samples).
func study(dim, replicates, chains, iterations int, seed uint64, workers int) ([]float64, *batch.Result, *batch.LogZ, error) {
	model, err := twoModes(dim)
	if err != nil {
		return nil, nil, nil, err
	}
	// Count, per replicate, the kept target samples and those in the
	// positive mode.
	kept := make([]int, replicates)
	positive := make([]int, replicates)
	samples := &batch.Samples{Write: func(b, _ int, x []float64) error {
		kept[b]++
		if x[0] > 0 {
			positive[b]++
		}
		return nil
	}}
	// The schedule changes after every scan: log Z uses the last one's
	// samples, all from one schedule.
	lz := &batch.LogZ{FromScan: scans}
	res, err := batch.Run(context.Background(), batch.Config{
		Model: model, Chains: chains, Replicates: replicates, Iterations: iterations, Scans: scans,
		TuneSchedule: true, Seed: seed, Workers: workers,
		Statistics: []batch.Statistic{samples, lz},
	}, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	fraction := make([]float64, replicates)
	for b := range fraction {
		fraction[b] = float64(positive[b]) / float64(kept[b])
	}
	return fraction, res, lz, nil
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "twomodes:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("twomodes", flag.ContinueOnError)
	dim := fs.Int("dim", 2, "dimension d of the target")
	replicates := fs.Int("replicates", 16, "number of independent replicate runs")
	chains := fs.Int("chains", 20, "number of chains")
	iterations := fs.Int("iterations", 20000, fmt.Sprintf("total iterations, in %d scans; the last half are kept as samples", scans))
	seed := fs.Uint64("seed", 1, "random seed; replicate b uses the stream of (seed, b)")
	workers := fs.Int("workers", 0, "worker goroutines; 0 means all CPUs")
	jsonOut := fs.Bool("json", false, "print JSON instead of a table")
	if err := fs.Parse(args); err != nil {
		return err
	}
	fraction, res, lz, err := study(*dim, *replicates, *chains, *iterations, *seed, *workers)
	if err != nil {
		return err
	}
	rate, rateSE := res.TailRoundTripRate()
	logZ, logZSE := lz.Estimate()
	barrier := res.Summary().Barrier
	if *jsonOut {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{
			"mode_fraction": fraction, "tail_round_trip_rate": rate, "tail_round_trip_rate_se": rateSE,
			"log_z": logZ, "log_z_se": logZSE, "barrier": barrier, "round_trips": res.RoundTrips,
		})
	}
	fmt.Printf("round-trip rate (last tenth of the scans) %.4f ± %.4f, log Z %.3f ± %.3f (exact: ln 2 = 0.693), barrier %.2f\n",
		rate, rateSE, logZ, logZSE, barrier)
	for b, f := range fraction {
		fmt.Printf("replicate %2d: %5.1f%% of the kept samples in the positive mode\n", b, 100*f)
	}
	return nil
}
