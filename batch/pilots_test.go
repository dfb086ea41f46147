package batch

import (
	"context"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// TestPilotIterations checks the pilots' share of a run: a tenth of the
// iterations (45,000 → 4,500, the paper's Gaussian run), at least 2,000
// (10,000 → 2,000) and never more than the run (1,000 → 1,000).
func TestPilotIterations(t *testing.T) {
	for _, c := range []struct{ run, want int }{
		{45000, 4500}, {20000, 2000}, {10000, 2000}, {2000, 2000}, {1000, 1000}, {2, 2},
	} {
		if got := PilotIterations(c.run); got != c.want {
			t.Errorf("PilotIterations(%d) = %d, want %d", c.run, got, c.want)
		}
	}
}

// TestChooseDefaultChains checks that the default pilots start at
// PilotChains chains with PilotIterations of the run, and choose what
// ChooseChains chooses with those arguments. The Gaussian N(-1, 0.1²) →
// N(1, 0.1²) with K = 2 is small enough for one pilot of 32 chains.
func TestChooseDefaultChains(t *testing.T) {
	g, _ := models.NewGaussian(1, -1, 1, 0.1, 0.1)
	cfg := Config{Model: g, Replicates: 3, Iterations: 30000, TuneSchedule: true, Knots: 2, TunePath: true, Seed: 5}
	got, err := ChooseDefaultChains(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ChooseChains(context.Background(), cfg, 32, 3000)
	if err != nil {
		t.Fatal(err)
	}
	if got.Chains != want.Chains || got.Barrier != want.Barrier || len(got.Pilots) != len(want.Pilots) {
		t.Fatalf("ChooseDefaultChains %+v, ChooseChains(32, 3000) %+v", got, want)
	}
	if p := got.Pilots[0]; p.Chains != PilotChains || p.Iterations != 3000 || p.Replicates != 3 {
		t.Errorf("first pilot %+v: want %d chains, 3000 iterations, 3 replicates", p, PilotChains)
	}
}
