package tune_test

import (
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/tune"
)

// TestEquiRejectionRate checks τ(N) = 1/(2 + 2Λ/(1 - Λ/(N-1))) against the
// rate of eq:nrpt_rtr computed from N-1 equal rejections r = Λ/(N-1)
// (NonAsymptoticBarrier), against the paper's Gaussian figure (Λ* = 6.435
// for K = 4 and 50 chains: 6.435/(1 - 6.435/49) = 7.408 and τ = 1/16.816 =
// 0.05947, quoted as τ* = 0.0594 in issue 12), and its limits: 0 at and
// beyond saturation, 1/2 at Λ = 0.
func TestEquiRejectionRate(t *testing.T) {
	for _, c := range []struct {
		lambda float64
		chains int
	}{{0.5, 2}, {6.435, 50}, {3.5, 10}, {40, 100}} {
		rej := make([]float64, c.chains-1)
		for n := range rej {
			rej[n] = c.lambda / float64(c.chains-1)
		}
		want := tune.RoundTripRate(tune.NonAsymptoticBarrier(rej))
		if got := tune.EquiRejectionRate(c.lambda, c.chains); math.Abs(got-want) > 1e-14 {
			t.Errorf("Λ %v, %d chains: %v, want %v", c.lambda, c.chains, got, want)
		}
	}
	if got := tune.EquiRejectionRate(6.435, 50); math.Abs(got-0.05947) > 5e-6 {
		t.Errorf("paper's Gaussian: τ = %.6f, want 0.05947", got)
	}
	if tune.EquiRejectionRate(9, 10) != 0 || tune.EquiRejectionRate(12, 10) != 0 || tune.EquiRejectionRate(0, 5) != 0.5 {
		t.Error("limits: saturation gives 0, Λ = 0 gives 1/2")
	}
}

// TestBestChains checks the maximiser of τ(N)/N against a search over
// every N up to 10,000, and its limit 2Λ + 1 for large Λ (within 1%).
func TestBestChains(t *testing.T) {
	for _, lambda := range []float64{0, 0.2, 1, 3.3, 6.435, 16.8, 100, 1000} {
		want, best := 2, 0.0
		for n := 2; n <= 10000; n++ {
			if v := tune.EquiRejectionRate(lambda, n) / float64(n); v > best {
				want, best = n, v
			}
		}
		if got := tune.BestChains(lambda, 1<<30); got != want {
			t.Errorf("Λ %v: BestChains %d, search %d", lambda, got, want)
		}
		if lambda >= 100 {
			if got := float64(tune.BestChains(lambda, 1<<30)); math.Abs(got-(2*lambda+1)) > 0.01*(2*lambda+1) {
				t.Errorf("Λ %v: %v chains, want about 2Λ+1 = %v", lambda, got, 2*lambda+1)
			}
		}
	}
	if got := tune.BestChains(50, 20); got != 20 {
		t.Errorf("Λ 50 with at most 20 chains: %d, want 20", got)
	}
}
