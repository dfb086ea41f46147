package diag

import (
	"math"
	"testing"
)

// TestSpread prints the spread of the estimators over seeds (go test -run
// Spread -v -spread); it backs the tolerances above.
func TestSpread(t *testing.T) {
	if !*spread {
		t.Skip("measurement: -spread")
	}
	for _, c := range []struct {
		rho float64
		n   int
	}{{0.9, 80000}, {0, 2000}} {
		var e, e2, r, r2 float64
		const k = 20
		for seed := uint64(1); seed <= k; seed++ {
			s, err := Summarize(ar1(seed, 8, c.n, c.rho, 0))
			if err != nil {
				t.Fatal(err)
			}
			want := float64(c.n) * (1 - c.rho) / (1 + c.rho) * 8
			x := s.ESSBulk / want
			e += x / k
			e2 += x * x / k
			r += (s.Rhat - 1) / k
			r2 += (s.Rhat - 1) * (s.Rhat - 1) / k
		}
		t.Logf("rho %.1f n %d: ESS/want mean %.4f sd %.4f; R-hat-1 mean %.5f sd %.5f", c.rho, c.n, e, math.Sqrt(e2-e*e), r, math.Sqrt(r2-r*r))
	}
}
