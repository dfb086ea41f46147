package study

import (
	"context"
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/registry"
)

// TestBarrierMatchesClosedForm checks the cells' barrier Σ_n r_n against
// the linear path's closed form for the Gaussian pair N(μ0, σ²) → N(μ1,
// σ²) in d = 1: Λ = z/√π with z = |μ1 − μ0|/σ (the paper's Gaussian
// example, where z = 200 gives 112.8), here σ = 0.5 and z = 4, Λ =
// 2.2568. With 40 chains the sum of the tuned schedule's rejections is Λ
// up to a discretisation error far below the noise, so the mean over 8
// replicates must hold Λ within twice its 95 % half-width (about 4.7
// standard errors).
func TestBarrierMatchesClosedForm(t *testing.T) {
	specs := []ModelSpec{{Name: registry.Gaussian, Values: registry.Values{"sigma0": 0.5, "sigma1": 0.5}}}
	methods := []Method{{Label: "NRPT+Linear", Tuning: "paper", Chains: 40, Scans: 20}}
	p := NewPlan("barrier", specs, methods, []uint64{1}, 8000, 8)
	cells, err := Execute(context.Background(), &p, p.Pieces(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	lambda := 4 / math.Sqrt(math.Pi)
	s := Summarize(cells)[0]
	if h := s.Barrier.Hi - s.Barrier.Mean; !(math.Abs(s.Barrier.Mean-lambda) <= 2*h) {
		t.Errorf("barrier %.4f ± %.4f, want Λ = 4/√π = %.4f", s.Barrier.Mean, h, lambda)
	}
	t.Logf("barrier %.4f ± %.4f (95 %%), Λ = %.4f", s.Barrier.Mean, s.Barrier.Hi-s.Barrier.Mean, lambda)
}
