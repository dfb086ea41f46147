package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
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
	if err := saveLambdaFigure(filepath.Join(dir, "lambda"), grid, loc, cum); err != nil {
		return fmt.Errorf("lambda figure: %w", err)
	}
	return nil
}

// saveLambdaFigure writes base.png/svg: the local barrier λ(t) above and
// the cumulative barrier Λ(t) below, each mean ± sd over the replicates
// in a panel of its own, so that a spike of λ(t) (λ of a few hundred at a
// knot is common) cannot flatten Λ(t).
func saveLambdaFigure(base string, grid []float64, loc, cum [][]float64) error {
	const h = 3 * vg.Inch // of one panel
	top := figure{
		title:  fmt.Sprintf("Local barrier λ(t) of the last scan's path: mean ± sd over %d replicates", len(cum)),
		xlabel: "t", ylabel: "λ(t)", noLegend: true,
		lines: []series{bandSeries("local barrier λ(t)", grid, loc)},
	}
	bottom := figure{
		title:  "Cumulative barrier Λ(t) = ∫₀ᵗ λ: mean ± sd",
		xlabel: "t", ylabel: "Λ(t)", noLegend: true,
		lines: []series{bandSeries("cumulative barrier Λ(t)", grid, cum)},
	}
	var plots [][]*plot.Plot
	for _, f := range []figure{top, bottom} {
		p, err := f.plot(h)
		if err != nil {
			return err
		}
		plots = append(plots, []*plot.Plot{p})
	}
	return savePanels(base, plots, 7*vg.Inch, 2*h)
}

// bandSeries returns the mean over rows of ys at each x, with a band of
// one standard deviation either side (none for a single row).
func bandSeries(name string, xs []float64, ys [][]float64) series {
	s := series{name: name, xs: xs, ys: make([]float64, len(xs))}
	if len(ys) > 1 {
		s.lo, s.hi = make([]float64, len(xs)), make([]float64, len(xs))
	}
	col := make([]float64, len(ys))
	for i := range xs {
		for b, y := range ys {
			col[b] = y[i]
		}
		mean, sd := meanSD(col)
		s.ys[i] = mean
		if s.lo != nil {
			s.lo[i], s.hi[i] = mean-sd, mean+sd
		}
	}
	return s
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
