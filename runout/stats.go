package runout

import (
	"fmt"
	"math"

	"github.com/ptbatch/ptbatch/batch"
)

// SummarizeLogZ returns the mean over replicates of lz's estimates, its
// standard error across replicates (sd/√R; NaN for one replicate) and the
// mean of the reverse minus the forward estimates.
func SummarizeLogZ(lz batch.LogZRecord) (mean, se, diff float64) {
	mean, se = batch.MeanSE(lz.Estimates())
	diff, _ = batch.MeanSD(lz.Differences())
	return mean, se, diff
}

// FormatLogZ returns a log Z estimate as "mean ± se", both with the
// decimals down to the se's second significant digit, or the mean alone
// in 6 significant digits when there is no standard error (NaN or not
// positive: one replicate).
func FormatLogZ(mean, se float64) string {
	if math.IsNaN(se) || se <= 0 {
		return fmt.Sprintf("%.6g", mean)
	}
	dec := max(0, 1-int(math.Floor(math.Log10(se))))
	return fmt.Sprintf("%.*f ± %.*f", dec, mean, dec, se)
}

// RestartRate returns the mean over replicates of the restarts per
// iteration in the last scan, comparable with the round-trip rate.
func RestartRate(r batch.RestartsRecord) float64 {
	mean, _ := batch.MeanSD(r.ScanRates())
	return mean
}

// KeptRoundTrips returns, per replicate, the round trips during the kept
// scans: the number of independent excursions of the target chain's state
// to the reference and back, the ceiling of the ESS of a target whose
// local exploration mixes slowly.
func KeptRoundTrips(res *batch.Result) []int {
	out := make([]int, len(res.History))
	first := res.Scans - res.KeptScans // scans before the kept ones
	if res.KeptScans == 0 {
		return out
	}
	for b, hist := range res.History {
		out[b] = hist[res.Scans-1].RoundTrips
		if first > 0 {
			out[b] -= hist[first-1].RoundTrips
		}
	}
	return out
}

// ESSPerSecond returns, per observable, the sum over replicates of the
// ESS divided by the run's elapsed seconds (the whole run, burn-in
// included).
func ESSPerSecond(ess batch.ESSRecord, res *batch.Result) []float64 {
	values := ess.Values()
	if len(values) == 0 {
		return nil
	}
	out := make([]float64, len(values[0]))
	for _, v := range values {
		for k, x := range v {
			out[k] += x
		}
	}
	for k := range out {
		out[k] /= res.Elapsed.Seconds()
	}
	return out
}
