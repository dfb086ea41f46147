package main

import (
	"math"
	"slices"
	"testing"
)

// TestBothModesInEveryReplicate runs the README's setting (d = 2, 16
// replicates, 20 chains, 20,000 iterations) and checks that every
// replicate's kept target samples fall half in each mode: by symmetry the
// exact share is ½; with ≥ 500 round trips per replicate (each an
// independent chance to switch modes) its sd is well under 0.02, so
// ±0.05 is a check a sampler stuck in one mode (share 0 or 1) fails. It
// checks the headline log Z too: log(Z1/Z0) is ln 2 exactly (W1 adds two
// normal densities, each with W0's normalising constant), and the mean
// over replicates must be within 4 of its standard errors of it (a
// normal mean misses by more once in 16,000), the standard error under
// 0.1 (0.031 with this seed) so that the check has teeth.
func TestBothModesInEveryReplicate(t *testing.T) {
	fraction, res, lz, err := study(2, 16, 20, 20000, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if logZ, se := lz.Estimate(); !(math.Abs(logZ-math.Ln2) <= 4*se && se < 0.1) {
		t.Errorf("log Z = %.4f ± %.4f, want ln 2 = %.4f", logZ, se, math.Ln2)
	}
	if rate, se := res.TailRoundTripRate(); !(rate > 0 && se < rate/10) {
		t.Errorf("tail round-trip rate %.4f ± %.4f: want a positive rate known to 10%%", rate, se)
	}
	for b, f := range fraction {
		if math.Abs(f-0.5) > 0.05 {
			t.Errorf("replicate %d: %.3f of the samples in the positive mode, want 0.5 ± 0.05", b, f)
		}
		if res.RoundTrips[b] < 500 {
			t.Errorf("replicate %d: %d round trips", b, res.RoundTrips[b])
		}
	}
}

// TestInvariance checks that the mode fractions and round trips do not
// depend on the number of workers, and that replicates 0–7 give the same
// with 8 or 16 replicates.
func TestInvariance(t *testing.T) {
	one, r1, _, err := study(3, 16, 12, 2000, 7, 1)
	if err != nil {
		t.Fatal(err)
	}
	two, r2, _, _ := study(3, 16, 12, 2000, 7, 2)
	eight, r8, _, _ := study(3, 8, 12, 2000, 7, 2)
	if !slices.Equal(one, two) || !slices.Equal(r1.RoundTrips, r2.RoundTrips) {
		t.Error("1 and 2 workers differ")
	}
	if !slices.Equal(one[:8], eight) || !slices.Equal(r1.RoundTrips[:8], r8.RoundTrips) {
		t.Error("replicates 0–7 differ between 16 and 8 replicates")
	}
}
