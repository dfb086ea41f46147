package main

import (
	"math"

	"github.com/ptbatch/ptbatch/runout"
)

// fullFloat formats x with the fewest digits that read back as x.
func fullFloat(x float64) string { return runout.FullFloat(x) }

// meanCurve returns the mean over rows of ys at each x (NaN where a row
// is NaN).
func meanCurve(ys [][]float64, n int) []float64 {
	out := make([]float64, n)
	if len(ys) == 0 {
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	for _, y := range ys {
		for i := range out {
			out[i] += y[i] / float64(len(ys))
		}
	}
	return out
}
