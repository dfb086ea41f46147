package benchmarks

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/ptbatch/ptbatch/models"
)

// TestScalarModelAgreesWithScalarGaussian runs the generic scalar engine on
// the Gaussian model's scalar reference and the hand-written Gaussian
// scalar engine (independent code and random streams) on the same
// workload: their round-trip rates must agree within Monte Carlo error.
func TestScalarModelAgreesWithScalarGaussian(t *testing.T) {
	const reps, chains, iters = 8, 12, 4000
	g, err := models.NewGaussian(2, -1, 1, 0.5, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	generic, err := ScalarModel(context.Background(), g.Scalar(), reps, chains, iters, 3)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := ScalarGaussian(context.Background(), reps, chains, 2, iters, -1, 1, 0.5, 4)
	if err != nil {
		t.Fatal(err)
	}
	// Round trips over reps × iters iterations: counts of a few hundred,
	// with a variance below their mean (round trips are more regular than
	// a Poisson count), so 4·sqrt(sum) bounds their difference.
	t.Logf("round trips: generic %d, plain %d", generic, plain)
	if generic < 100 || plain < 100 {
		t.Fatalf("too few round trips to compare: %d, %d", generic, plain)
	}
	if d := math.Abs(float64(generic - plain)); d > 4*math.Sqrt(float64(generic+plain)) {
		t.Errorf("round trips: generic scalar engine %d, Gaussian scalar engine %d", generic, plain)
	}
}

// TestModelWorkloads runs every model's default workload, shrunk, through
// Run: each part reports a positive time.
func TestModelWorkloads(t *testing.T) {
	for _, name := range ModelNames() {
		w, err := DefaultWorkloadFor(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Replicates, w.Iterations, w.Repeats, w.Chains = 9, 2, 1, 6
		if name == Gaussian {
			w.Dim = 3
		}
		rep, err := Run(context.Background(), w)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !(rep.EngineNs > 0 && rep.ScalarNs > 0 && rep.RooflineNs > 0) {
			t.Errorf("%s: engine %v, scalar %v, roofline %v ns", name, rep.EngineNs, rep.ScalarNs, rep.RooflineNs)
		}
	}
	if _, err := DefaultWorkloadFor("nope"); err == nil {
		t.Error("unknown model accepted")
	}
}

// TestModelPartsHonourTheContext checks that the generic scalar engine and
// the model roofline stop soon after the context ends.
func TestModelPartsHonourTheContext(t *testing.T) {
	w, _ := DefaultWorkloadFor(Galaxy)
	w.Iterations, w.Workers = 1<<30, 2
	m, err := w.NewModel()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := ModelRoofline(ctx, w, m); err == nil {
		t.Error("roofline: no error after the context ended")
	}
	_, err = ScalarModel(ctx, m.(models.Referenced).Scalar(), 1, w.Chains, w.Iterations, 1)
	if err == nil {
		t.Error("scalar: no error after the context ended")
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %v after a 50 ms deadline", took)
	}
}
