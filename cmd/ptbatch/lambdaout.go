package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	fig "github.com/ptbatch/ptbatch/figure"
)

// writeLogZCSV writes logz.csv: per replicate (numbered from first) the
// forward and the reverse stepping-stone estimates of log(Z1/Z0) of the
// last scan, their average (the estimate) and the reverse minus the
// forward one.
func writeLogZCSV(path string, lz logZValues, first int) error {
	fwd, rev := lz.Forward(), lz.Reverse()
	est, diff := lz.Estimates(), lz.Differences()
	rows := [][]string{{"replicate", "forward", "reverse", "log_z", "reverse_minus_forward"}}
	for b := range est {
		rows = append(rows, []string{strconv.Itoa(first + b), fullFloat(fwd[b]), fullFloat(rev[b]), fullFloat(est[b]), fullFloat(diff[b])})
	}
	return writeCSV(path, rows)
}

// writeLambda writes lambda.csv, `replicate,t,local_barrier,cumulative_barrier`
// (the profile's grid points per replicate, numbered from first), and the
// figure lambda.png/svg.
func writeLambda(dir string, p profileValues, first int) error {
	grid, loc, cum := p.Grid(), p.Local(), p.Cumulative()
	rows := [][]string{{"replicate", "t", "local_barrier", "cumulative_barrier"}}
	for b := range cum {
		for i, t := range grid {
			rows = append(rows, []string{strconv.Itoa(first + b), fullFloat(t), fullFloat(loc[b][i]), fullFloat(cum[b][i])})
		}
	}
	if err := writeCSV(filepath.Join(dir, "lambda.csv"), rows); err != nil {
		return err
	}
	if err := fig.SaveBarrierProfile(filepath.Join(dir, "lambda"), grid, loc, cum); err != nil {
		return fmt.Errorf("lambda figure: %w", err)
	}
	return nil
}

// fullFloat formats x with the fewest digits that read back as x.
func fullFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

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
