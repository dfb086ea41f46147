package tune_test

import (
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/internal/gaussexact"
	"github.com/ptbatch/ptbatch/tune"
)

// TestBarrierProfileExactGaussian checks the profile built from exact
// rejections against the exact local barrier λ(t) of the linear path
// (gaussexact.GaussianPair.LocalBarrier, thm:general_GCB) for two Gaussian
// pairs: equal scales on the uniform schedule, where λ = |μ1-μ0|/(σ√π) is
// constant, and unequal scales N(-1, 1) → N(1, 0.2²) on the equi-barrier
// schedule (the one eq:equicrit tunes towards), where λ falls from 28 at
// t = 0 to 0.36 at t = 1. With exact rejections the only errors are the
// schedule's discretisation (r_n = ∫ λ over the pair + O(δ³),
// lemma:nonlinear_gcb_err) and the interpolant's: with 60 chains both are
// below 1% of λ except in the end intervals, where Fritsch–Butland's
// one-sided end slopes are first order (allowed 3%).
func TestBarrierProfileExactGaussian(t *testing.T) {
	const numChains = 60
	path := tune.NewSpline(1)
	grid := tune.UniformSchedule(100)
	for _, g := range []gaussexact.GaussianPair{
		{Dim: 1, Mu0: -1, Mu1: 1, Sigma0: 0.25, Sigma1: 0.25},
		{Dim: 1, Mu0: -1, Mu1: 1, Sigma0: 1, Sigma1: 0.2},
	} {
		sched := tune.UniformSchedule(numChains)
		if g.Sigma0 != g.Sigma1 {
			sched = g.EquiBarrierSchedule(path, numChains)
		}
		rej, err := g.ScheduleRejections(path, sched)
		if err != nil {
			t.Fatal(err)
		}
		cum, local := make([]float64, len(grid)), make([]float64, len(grid))
		tune.BarrierProfile(cum, local, grid, sched, rej)
		if g.Sigma0 == g.Sigma1 {
			want := math.Abs(g.Mu1-g.Mu0) / (g.Sigma0 * math.Sqrt(math.Pi))
			if got := g.LocalBarrier([2]float64{0.5, 0.5}, [2]float64{-1, 1}); math.Abs(got-want) > 1e-9*want {
				t.Fatalf("closed form λ = %g, gaussexact %g", want, got)
			}
		}
		worst := 0.0
		for i, x := range grid {
			e0, e1 := path.Eta(x)
			want := g.LocalBarrier([2]float64{e0, e1}, [2]float64{-1, 1})
			rel := math.Abs(local[i]/want - 1)
			tol := 0.01
			if x < sched[1] || x > sched[numChains-2] {
				tol = 0.03
			}
			if rel > tol {
				t.Errorf("%+v: λ(%.3f) = %.5f, exact %.5f (relative error %.4f > %.2f)", g, x, local[i], want, rel, tol)
			}
			worst = max(worst, rel)
		}
		if exact := g.Barrier(path); math.Abs(cum[len(grid)-1]/exact-1) > 0.01 {
			t.Errorf("%+v: Λ(1) = %.5f, exact Λ = %.5f", g, cum[len(grid)-1], exact)
		}
		t.Logf("%+v: Λ(1) = %.5f (exact %.5f), worst relative error of λ %.4f", g, cum[len(grid)-1], g.Barrier(path), worst)
	}
}
