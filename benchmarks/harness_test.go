package benchmarks

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// TestRunReportsRepeats checks a short run of every part with Workers 0
// (all CPUs).
func TestRunReportsRepeats(t *testing.T) {
	w := Workload{Dim: 4, Chains: 6, Replicates: 16, Iterations: 10, Sigma: 0.3, Repeats: 2, Seed: 1}
	var calls [][2]int
	rep, err := RunWithProgress(context.Background(), w, func(done, of int) { calls = append(calls, [2]int{done, of}) })
	if err != nil {
		t.Fatal(err)
	}
	if want := [][2]int{{0, 2}, {1, 2}, {2, 2}}; !slices.Equal(calls, want) {
		t.Errorf("progress calls %v, want %v (the start, then each repeat)", calls, want)
	}
	if rep.Interrupted || len(rep.EngineSamples) != 2 || len(rep.ScalarSamples) != 2 || len(rep.RooflineSamples) != 2 {
		t.Fatalf("report %+v", rep)
	}
	if rep.Workload.Workers < 1 || !(rep.EngineNs > 0) {
		t.Errorf("workers %d, engine %v ns", rep.Workload.Workers, rep.EngineNs)
	}
}

// TestPartsHonourTheContext checks that the engine's runs, the scalar
// engine and the roofline return within milliseconds of the context's end,
// and that Run then reports the repeats completed.
func TestPartsHonourTheContext(t *testing.T) {
	w := Workload{Dim: 64, Chains: 50, Replicates: 16, Iterations: 1 << 30, Sigma: 0.3, Workers: 2, Repeats: 3, Seed: 1}
	for name, f := range map[string]func(ctx context.Context) error{
		"scalar": func(ctx context.Context) error {
			_, err := ScalarGaussian(ctx, w.Replicates, w.Chains, w.Dim, w.Iterations, -1, 1, w.Sigma, w.Seed)
			return err
		},
		"roofline": func(ctx context.Context) error { return Roofline(ctx, w) },
		"run": func(ctx context.Context) error {
			rep, err := Run(ctx, w)
			if err == nil && (!rep.Interrupted || len(rep.EngineSamples) != 0) {
				t.Errorf("run: interrupted %v after %d repeats", rep.Interrupted, len(rep.EngineSamples))
			}
			return ctx.Err()
		},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		start := time.Now()
		err := f(ctx)
		cancel()
		// The parts check the context every fraction of a millisecond;
		// the bound leaves room for a loaded machine and the generic
		// (purego) kernels, while an unchecked loop would run for minutes.
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("%s: returned %v after the start, want about 100 ms", name, took)
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: error %v", name, err)
		}
	}
}
