package diag

import (
	"math"
	"testing"
)

// TestAR1BulkESS checks the bulk-ESS of replicates that are stationary
// AR(1) series against the closed form of their effective sample size,
// n(1−ρ)/(1+ρ) per chain (the integrated autocorrelation time of AR(1) is
// (1+ρ)/(1−ρ)). The ranks of Gaussian draws normalised back to Gaussian
// are nearly the draws, so the rank-normalised series have nearly the same
// autocorrelations. With ρ = 0.9, 8 chains of 80,000 draws (τ = 19, an
// ESS of 33,684), the estimator's relative standard deviation is about 2 %
// (2.1 % over seeds 1–20: go test ./diag -run Spread -v -spread), so a
// 10 % tolerance is about five standard deviations: it
// fails for a wrong τ̂ (a factor 2 in the sum, a missed pair, the
// single-chain variance in place of var⁺) but not for the seed.
func TestAR1BulkESS(t *testing.T) {
	const rho, m, n = 0.9, 8, 80000
	want := n * (1 - rho) / (1 + rho) * m
	for _, seed := range []uint64{1, 2, 3} {
		got, err := ESSBulk(ar1(seed, m, n, rho, 0))
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got/want-1) > 0.1 {
			t.Errorf("seed %d: bulk-ESS %.0f, want %.0f ± 10%%", seed, got, want)
		}
	}
}

// TestIIDDiagnostics checks that independent draws (ρ = 0 in ar1) give an
// R-hat below 1.01 (the paper's threshold) and a bulk-ESS within 10 % of
// the number of draws: with 8 chains of 2,000 draws the ESS estimator's
// relative standard deviation is about 2 % and R-hat's excess over 1
// 0.0001 ± 0.00014 (over seeds 1–20: go test ./diag -run Spread -v
// -spread), so both tolerances are five standard deviations or more.
func TestIIDDiagnostics(t *testing.T) {
	const m, n = 8, 2000
	for _, seed := range []uint64{1, 2, 3} {
		s, err := Summarize(ar1(seed, m, n, 0, 0))
		if err != nil {
			t.Fatal(err)
		}
		if s.Rhat >= 1.01 {
			t.Errorf("seed %d: R-hat %.4f, want < 1.01", seed, s.Rhat)
		}
		if math.Abs(s.ESSBulk/(m*n)-1) > 0.1 {
			t.Errorf("seed %d: bulk-ESS %.0f, want %d ± 10%%", seed, s.ESSBulk, m*n)
		}
	}
}

// TestShiftedChainsRhat checks that R-hat sees chains that disagree:
// chains shifted by half a standard deviation each give an R-hat well above
// 1.01.
func TestShiftedChainsRhat(t *testing.T) {
	r, err := Rhat(ar1(7, 4, 1000, 0, 0.5))
	if err != nil {
		t.Fatal(err)
	}
	if r < 1.1 {
		t.Errorf("R-hat %.4f of chains 0.5 sd apart, want > 1.1", r)
	}
}
