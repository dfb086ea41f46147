package main

import "github.com/ptbatch/ptbatch/runout"

// fullFloat formats x with the fewest digits that read back as x.
func fullFloat(x float64) string { return runout.FullFloat(x) }
