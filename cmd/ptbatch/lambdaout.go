package main

import "github.com/ptbatch/ptbatch/runout"

// fullFloat formats x with the fewest digits that read back as x.
func fullFloat(x float64) string { return runout.FullFloat(x) }

// meanCurve is runout.MeanCurve.
func meanCurve(ys [][]float64, n int) []float64 { return runout.MeanCurve(ys, n) }
