package paper

import (
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

// prepareHighDim plans the paper's Figure 5 (HighDimConfig of every
// dimension of Settings.Dims and HighDimKnots): the linear and the spline
// run of each d. A run of 5 replicates is one block of layout.Lanes,
// which one worker computes: with more workers than blocks, each run
// holds its share of the pool (results and files are the same as one
// after the other on every worker).
func (r *reproduction) prepareHighDim() ([][]planned, error) {
	workers, ks := r.workers(), HighDimKnots()
	share := 0
	if (r.s.Reps(HighDimReplicates)+layout.Lanes-1)/layout.Lanes < workers {
		share = max(1, workers/len(ks))
	}
	var dims [][]planned
	for _, d := range r.s.Dims() {
		g, err := HighDimModel(d)
		if err != nil {
			return nil, err
		}
		labels, cfgs := make([]string, len(ks)), make([]batch.Config, len(ks))
		for i, k := range ks {
			labels[i] = HighDimLabel(d, k)
			cfgs[i] = r.s.HighDimConfig(g, d, k, r.o.Workers)
		}
		runs, err := r.plan(labels, cfgs, nil, share, false)
		if err != nil {
			return nil, err
		}
		dims = append(dims, runs)
	}
	return dims, nil
}

// highDim takes (or joins) highdim's runs, planned in dims (one slice
// per dimension of Settings.Dims), and writes rates.csv, the figure and
// its part of the report.
func (r *reproduction) highDim(dims [][]planned, report io.Writer) error {
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
	for i, d := range r.s.Dims() {
		if err := r.dim(x, d, dims[i]); err != nil {
			return err
		}
	}
	if r.o.Shard {
		return nil // a shard's runs are in runs/; Merge makes the report
	}
	return x.write(dir)
}

// dim takes (or joins) the linear and the spline run of dimension d,
// planned in runs, and adds their rates to x.
func (r *reproduction) dim(x *highDimOut, d int, runs []planned) error {
	ks := HighDimKnots()
	cell := map[int][2]float64{}
	for i, pr := range runs {
		k := ks[i]
		res, err := r.result(pr)
		if err != nil {
			return err
		} else if res == nil {
			continue // another shard's, or a shard's
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
