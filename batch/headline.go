package batch

import "math"

// MeanSE returns the mean of x and its standard error across the values,
// sd/√n (sd with divisor n−1, MeanSD): the error bar of a quantity
// measured once per independent replicate. The mean is NaN for no values,
// the standard error for fewer than two.
func MeanSE(x []float64) (mean, se float64) {
	mean, sd := MeanSD(x)
	if len(x) < 2 {
		return mean, math.NaN()
	}
	return mean, sd / math.Sqrt(float64(len(x)))
}

// MeanSD returns the mean of x and their sample standard deviation (with
// divisor n−1): NaN for no values, 0 for one.
func MeanSD(x []float64) (mean, sd float64) {
	n := float64(len(x))
	if len(x) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, v := range x {
		mean += v
	}
	mean /= n
	if len(x) < 2 {
		return mean, 0
	}
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / (n - 1))
}

// TailRoundTripRate returns the mean over replicates of
// TailRoundTripRates, round trips per iteration over the last tenth of the
// scans, and its standard error across replicates (MeanSE). It is the
// headline rate: the last scan's rate (Summary.RoundTripRate) counts the
// round trips of one scan, which under AutoTuning may be 20 to 45
// iterations. NaN before the first scan.
func (r *Result) TailRoundTripRate() (mean, se float64) {
	return MeanSE(r.TailRoundTripRates())
}

// Estimate returns the mean over replicates of Estimates, the
// stepping-stone estimate of log(Z_1/Z_0), and its standard error across
// replicates (MeanSE).
func (s *LogZ) Estimate() (mean, se float64) { return MeanSE(s.Estimates()) }
