package paper

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/figure"
	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/runout"
	"github.com/ptbatch/ptbatch/sweep"
)

// highDimOut is highdim under way: rates.csv, the figure's curves and the
// report's table, filled dimension by dimension.
type highDimOut struct {
	reps   int
	rows   [][]string // rates.csv; seconds: summary.json
	tw     *tabwriter.Writer
	lines  map[int]*figure.Series
	bx, by []float64
}

// highDim runs the paper's Figure 5 (HighDimConfig of every dimension of
// Settings.Dims and HighDimKnots) and writes rates.csv, the figure and
// its part of the report. A run of 5 replicates is one block of
// layout.Lanes, which one worker computes: with more workers than blocks,
// the linear and the spline run of each d run at the same time (results
// and files are the same as one after the other).
func (r *reproduction) highDim(ctx context.Context, report io.Writer) error {
	dir := r.file("highdim")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	x := &highDimOut{reps: r.s.Reps(HighDimReplicates), rows: [][]string{HighDimHeader},
		lines: map[int]*figure.Series{1: {Name: "NRPT+Linear"}, 4: {Name: "NRPT+Spline(K=4)"}}}
	iters := r.s.Scaled(HighDimIterations, HighDimScans)
	fmt.Fprintf(report, "\n## High-dimensional Gaussian N(-1, 0.1² I) → N(1, 0.1² I)\n\n⌈15√d⌉ chains, %d iterations in %d scans, %d replicates, lr 0.2, seed %d.\n\n", iters, HighDimScans, x.reps, r.s.Seed)
	x.tw = tabwriter.NewWriter(report, 0, 0, 1, ' ', 0)
	fmt.Fprintln(x.tw, "| d\t| chains\t| NRPT+Linear rate\t| NRPT+Spline(K=4) rate\t| linear-path bound\t|")
	fmt.Fprintln(x.tw, "|---\t|---\t|---\t|---\t|---\t|")
	workers := r.workers()
	concurrent := (x.reps+layout.Lanes-1)/layout.Lanes < workers
	for _, d := range r.s.Dims() {
		if err := r.dim(ctx, x, d, concurrent, workers); err != nil {
			return err
		}
	}
	if r.o.Shard {
		return nil // a shard's runs are in runs/; Merge makes the report
	}
	return x.write(dir)
}

// dim runs (or joins) the linear and the spline run of dimension d and
// adds their rates to x.
func (r *reproduction) dim(ctx context.Context, x *highDimOut, d int, concurrent bool, workers int) error {
	g, err := HighDimModel(d)
	if err != nil {
		return err
	}
	ks := HighDimKnots()
	labels := make([]string, len(ks))
	cfgs := make([]batch.Config, len(ks))
	for i, k := range ks {
		labels[i] = HighDimLabel(d, k)
		cfgs[i] = r.s.HighDimConfig(g, d, k, r.o.Workers)
	}
	results, err := r.runAll(ctx, labels, cfgs, nil, concurrent, false, workers)
	if err != nil {
		return err
	}
	cell := map[int][2]float64{}
	for i, res := range results {
		k := ks[i]
		if res == nil {
			continue // another shard's
		}
		if res.Interrupted {
			return &InterruptedError{labels[i]}
		}
		rows, rates := HighDimRows(x.lines[k].Name, d, x.reps, res)
		x.rows = append(x.rows, rows...)
		mean, sd := batch.MeanSD(rates)
		cell[k] = [2]float64{mean, sd}
		x.lines[k].Xs = append(x.lines[k].Xs, float64(d))
		x.lines[k].Ys = append(x.lines[k].Ys, mean)
	}
	bound := sweep.LinearBound(d, HighDimMu0, HighDimMu1, HighDimSigma)
	x.bx, x.by = append(x.bx, float64(d)), append(x.by, bound)
	fmt.Fprintf(x.tw, "| %d\t| %d\t| %.5f ± %.5f\t| %.5f ± %.5f\t| %.5f\t|\n", d, HighDimChains(d), cell[1][0], cell[1][1], cell[4][0], cell[4][1], bound)
	return nil
}

// write flushes the table and writes rates.csv and the figure into dir.
func (x *highDimOut) write(dir string) error {
	if err := x.tw.Flush(); err != nil {
		return err
	}
	fig := figure.Figure{Title: "High-dimensional Gaussian: round-trip rate against dimension", XLabel: "dimension d",
		YLabel: "round trips per iteration", LogX: true}
	x.lines[1].Points, x.lines[4].Points = true, true
	fig.Lines = []figure.Series{*x.lines[4], *x.lines[1], {Name: "linear-path bound 1/(2+2Λ)", Xs: x.bx, Ys: x.by, Dashed: true}}
	if err := runout.WriteCSV(filepath.Join(dir, "rates.csv"), x.rows); err != nil {
		return err
	}
	return fig.Save(filepath.Join(dir, "rate_vs_dimension"))
}
