package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"text/tabwriter"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/paper"
	"github.com/ptbatch/ptbatch/sweep"
)

// highDimOut is reproduce highdim under way: rates.csv, the figure's
// curves and the report's table, filled dimension by dimension.
type highDimOut struct {
	reps   int
	rows   [][]string // rates.csv; seconds: summary.json
	tw     *tabwriter.Writer
	lines  map[int]*series
	bx, by []float64
}

// reproduceHighDim runs the paper's Figure 5 (package paper's HighDim
// settings): the Gaussian pair N(-1, 0.1² I_d) → N(1, 0.1² I_d) for
// d = 1 … 256 with ⌈15√d⌉ chains, NRPT on the linear path and on the K=4
// spline, 50,000 iterations in 500 scans.
func reproduceHighDim(ctx context.Context, o *reproduceOptions, stderr io.Writer, report io.Writer) error {
	dir := filepath.Join(o.out, "highdim")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	x := &highDimOut{reps: o.Reps(paper.HighDimReplicates), rows: [][]string{paper.HighDimHeader},
		lines: map[int]*series{1: {name: "NRPT+Linear"}, 4: {name: "NRPT+Spline(K=4)"}}}
	iters := o.Scaled(paper.HighDimIterations, paper.HighDimScans)
	fmt.Fprintf(report, "\n## High-dimensional Gaussian N(-1, 0.1² I) → N(1, 0.1² I)\n\n⌈15√d⌉ chains, %d iterations in %d scans, %d replicates, lr 0.2, seed %d.\n\n", iters, paper.HighDimScans, x.reps, o.Seed)
	x.tw = tabwriter.NewWriter(report, 0, 0, 1, ' ', 0)
	fmt.Fprintln(x.tw, "| d\t| chains\t| NRPT+Linear rate\t| NRPT+Spline(K=4) rate\t| linear-path bound\t|")
	fmt.Fprintln(x.tw, "|---\t|---\t|---\t|---\t|---\t|")
	// A run of 5 replicates is one block of layout.Lanes, which one worker
	// computes: with more workers, the linear and the spline run of each d
	// run at the same time (results and files are the same as one after
	// the other).
	workers := o.workers
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	concurrent := (x.reps+layout.Lanes-1)/layout.Lanes < workers
	var progress io.Writer = stderr
	if concurrent {
		progress = &lockedWriter{w: stderr}
	}
	for _, d := range o.Dims() {
		if err := x.dim(ctx, o, d, concurrent, workers, progress); err != nil {
			return err
		}
	}
	if o.job.shardOnly() {
		return nil // a shard's runs are in runs/; ptbatch merge makes the report
	}
	return x.write(dir)
}

// dim runs (or joins) the linear and the spline run of dimension d and
// adds their rates.
func (x *highDimOut) dim(ctx context.Context, o *reproduceOptions, d int, concurrent bool, workers int, progress io.Writer) error {
	g, err := paper.HighDimModel(d)
	if err != nil {
		return err
	}
	ks := paper.HighDimKnots()
	labels := make([]string, len(ks))
	cfgs := make([]batch.Config, len(ks))
	progs := make([]func(batch.Progress), len(ks))
	for i, k := range ks {
		labels[i] = paper.HighDimLabel(d, k)
		cfgs[i] = o.HighDimConfig(g, d, k, o.workers)
		if !o.quiet {
			progs[i] = progressPrinter(progress, labels[i])
		}
	}
	results, err := o.job.runAll(ctx, labels, cfgs, progs, concurrent, workers)
	if err != nil {
		return err
	}
	cell := map[int][2]float64{}
	chains := paper.HighDimChains(d)
	for i, res := range results {
		k := ks[i]
		if res == nil {
			continue // another shard's
		}
		if res.Interrupted {
			return interruptedf("interrupted during highdim d=%d K=%d; the files of the experiments finished are in %s", d, k, o.out)
		}
		rows, rates := paper.HighDimRows(x.lines[k].name, d, x.reps, res)
		x.rows = append(x.rows, rows...)
		mean, sd := batch.MeanSD(rates)
		cell[k] = [2]float64{mean, sd}
		x.lines[k].xs = append(x.lines[k].xs, float64(d))
		x.lines[k].ys = append(x.lines[k].ys, mean)
	}
	bound := sweep.LinearBound(d, paper.HighDimMu0, paper.HighDimMu1, paper.HighDimSigma)
	x.bx, x.by = append(x.bx, float64(d)), append(x.by, bound)
	fmt.Fprintf(x.tw, "| %d\t| %d\t| %.5f ± %.5f\t| %.5f ± %.5f\t| %.5f\t|\n", d, chains, cell[1][0], cell[1][1], cell[4][0], cell[4][1], bound)
	return nil
}

// write flushes the table and writes rates.csv and the figure into dir.
func (x *highDimOut) write(dir string) error {
	if err := x.tw.Flush(); err != nil {
		return err
	}
	fig := figure{title: "High-dimensional Gaussian: round-trip rate against dimension", xlabel: "dimension d",
		ylabel: "round trips per iteration", logX: true}
	x.lines[1].points, x.lines[4].points = true, true
	fig.lines = []series{*x.lines[4], *x.lines[1], {name: "linear-path bound 1/(2+2Λ)", xs: x.bx, ys: x.by, dashed: true}}
	if err := writeCSV(filepath.Join(dir, "rates.csv"), x.rows); err != nil {
		return err
	}
	return fig.save(filepath.Join(dir, "rate_vs_dimension"))
}

// lockedWriter serialises the writes of concurrent progress lines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
