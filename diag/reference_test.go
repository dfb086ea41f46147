package diag

import (
	"math"
	"testing"
)

// TestPosteriorReference compares Summarize with the R package posterior
// 1.4.0 (Debian's r-cran-posterior, R 4.2.2), the reference implementation
// of Vehtari et al. (2021), on the fixed arrays of fixedArrays. The values
// were printed by
//
//	go test ./diag -run Dump -dump /tmp/diagref
//
// and, for each name, the R script
//
//	library(posterior)
//	d <- read.csv(file.path("/tmp/diagref", paste0(name, ".csv")))
//	x <- matrix(d$value, ncol = max(d$chain))  # draws × chains
//	cat(name, sprintf("%.17g", c(rhat(x), ess_bulk(x), ess_tail(x),
//	    mcse_mean(x), quantile2(x, c(0.05, 0.5, 0.95)))))
//
// ("minimal" has so few draws that posterior caps its ESS at S·log₁₀ S and
// warns; Summarize applies the same bound). posterior's autocovariances
// come from R's FFT with other padding, so the values agree to rounding,
// not to the bit: the tolerance is a relative 1e-9.
func TestPosteriorReference(t *testing.T) {
	want := map[string][7]float64{ // rhat, ess_bulk, ess_tail, mcse_mean, q5, q50, q95
		"shifted": {1.0784715223827761, 56.085736850100155, 101.20663163889162, 0.12929295002626801,
			-1.3549345583069736, 0.25770121792974965, 1.6734743123856373},
		"skew": {1.0007551554784058, 127.08734605945216, 114.01151631477926, 0.11317749350000254,
			0.20000000000000001, 0.90000000000000002, 4.2800000000000011},
		"minimal": {1.0928992385485905, 33.125069801078538, 33.125069801078538, 0.13548110410705644,
			-1.0227925869675696, -0.25120056950370595, 1.2679734665873721},
	}
	for name, chains := range fixedArrays() {
		s, err := Summarize(chains)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := [7]float64{s.Rhat, s.ESSBulk, s.ESSTail, s.MCSE, s.Quantiles[0], s.Quantiles[1], s.Quantiles[2]}
		for i, w := range want[name] {
			if math.Abs(got[i]-w) > 1e-9*math.Abs(w) {
				t.Errorf("%s: value %d is %.17g, posterior's %.17g", name, i, got[i], w)
			}
		}
	}
}
