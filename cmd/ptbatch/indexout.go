package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/rundir"
)

// indexFigureIterations is the number of recorded iterations of replicate
// 0 that index.png shows at most: the last ones recorded.
const indexFigureIterations = 2000

// indexSpec is what --record index records: the iterations of the last
// window of the run (all for window 0), every thin-th of them, and the
// replicas followed.
type indexSpec struct {
	window, thin, from int
	replicas           []int
}

// checkRecord checks --record and the --index-* flags' values.
func (f *runFlags) checkRecord() error {
	c := f.flags
	switch {
	case f.record != "" && f.record != "index":
		return c.bad("record", "want index (the index process), the only record")
	case f.indexWindow < 0:
		return c.bad("index-window", "need 0 (every iteration) or more")
	case f.indexThin < 1:
		return c.bad("index-thin", "need at least 1")
	case f.indexReplicas < 0:
		return c.bad("index-replicas", "need 0 (all replicas) or more")
	case f.indexReplicas > f.chains && c.set("index-replicas"):
		return c.bad("index-replicas", "at most one per chain (--chains %s)", c.show("chains"))
	}
	return nil
}

// indexSpec returns the record of --record index for a run of cfg: the
// last --index-window iterations, every --index-thin-th, of
// --index-replicas replicas spread evenly over the chains they start at,
// round(i·(C-1)/(k-1)) for i = 0 … k-1 (replica 0 alone for k = 1, all
// for k = 0 or k = C; the default 4 is capped at C).
func (f *runFlags) indexSpec(cfg *batch.Config) indexSpec {
	s := indexSpec{window: f.indexWindow, thin: f.indexThin, from: 1}
	if s.window > 0 && s.window < cfg.Iterations {
		s.from = cfg.Iterations - s.window + 1
	}
	k, c := f.indexReplicas, cfg.Chains
	if k == 0 || k > c {
		k = c
	}
	s.replicas = make([]int, k)
	for i := range s.replicas {
		if k > 1 {
			// Exact in integers: round(i(C-1)/(k-1)).
			s.replicas[i] = (2*i*(c-1) + (k - 1)) / (2 * (k - 1))
		}
	}
	return s
}

// indexRecord streams the index process of `ptbatch run --record index`
// to index.csv, `replicate,iteration,replica,chain` (one row per replicate,
// recorded iteration and followed replica; replicates numbered from
// Config.FirstReplicate, iterations counted over the whole run), written as
// each scan ends so that memory holds one scan's records, and keeps the
// first replicate's last indexFigureIterations records for index.png.
type indexRecord struct {
	stat     *batch.IndexProcess
	spec     indexSpec
	fh       *rundir.File
	w        *bufio.Writer
	buf      []byte
	closed   bool
	err      error
	first    int   // the number of the run's replicate 0 in index.csv
	iters    []int // replicate 0's recorded iterations …
	chains   []int // … and for each, the chains of the followed replicas
	replicas []int
}

// newIndexRecord creates dir/index.csv with its header; the run's
// replicate b is numbered first+b.
func newIndexRecord(dir string, spec indexSpec, first int) (*indexRecord, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	fh, err := rundir.Create(filepath.Join(dir, "index.csv"))
	if err != nil {
		return nil, err
	}
	r := &indexRecord{spec: spec, fh: fh, w: bufio.NewWriterSize(fh, 1<<16), replicas: spec.replicas, first: first}
	r.w.WriteString("replicate,iteration,replica,chain\n")
	window := spec.window
	if spec.from == 1 {
		window = 0 // the whole run
	}
	r.stat = &batch.IndexProcess{Replicas: spec.replicas, Thin: spec.thin, From: spec.from, Window: window,
		Write: r.write, Flush: r.flush}
	return r, nil
}

// write appends the rows of one record; it is batch.IndexProcess.Write.
func (r *indexRecord) write(b, m int, chains []int) error {
	if r.err != nil {
		return r.err
	}
	for k, n := range chains {
		r.buf = strconv.AppendInt(r.buf[:0], int64(r.first+b), 10)
		r.buf = append(r.buf, ',')
		r.buf = strconv.AppendInt(r.buf, int64(m), 10)
		r.buf = append(r.buf, ',')
		r.buf = strconv.AppendInt(r.buf, int64(r.replicas[k]), 10)
		r.buf = append(r.buf, ',')
		r.buf = strconv.AppendInt(r.buf, int64(n), 10)
		r.buf = append(r.buf, '\n')
		if _, err := r.w.Write(r.buf); err != nil {
			r.err = fmt.Errorf("writing index.csv: %w", err)
			return r.err
		}
	}
	if b == 0 {
		r.keep(m, chains)
	}
	return nil
}

// keep appends replicate 0's record for the figure, dropping the oldest
// half when twice indexFigureIterations are held.
func (r *indexRecord) keep(m int, chains []int) {
	k := len(chains)
	if len(r.iters) == 2*indexFigureIterations {
		n := copy(r.iters, r.iters[indexFigureIterations:])
		r.iters = r.iters[:n]
		n = copy(r.chains, r.chains[indexFigureIterations*k:])
		r.chains = r.chains[:n]
	}
	r.iters = append(r.iters, m)
	r.chains = append(r.chains, chains...)
}

// flush writes the buffered rows; it is batch.IndexProcess.Flush.
func (r *indexRecord) flush() error {
	if r.err == nil {
		if err := r.w.Flush(); err != nil {
			r.err = fmt.Errorf("writing index.csv: %w", err)
		}
	}
	return r.err
}

// close flushes and closes index.csv; later calls do nothing.
func (r *indexRecord) close() error {
	if r.closed {
		return r.err
	}
	r.closed = true
	if err := r.w.Flush(); err != nil && r.err == nil {
		r.err = fmt.Errorf("writing index.csv: %w", err)
	}
	if err := r.fh.Close(); err != nil && r.err == nil {
		r.err = err
	}
	return r.err
}

// figure returns the plot of the first replicate's recorded index process: the
// chain of each followed replica against the iteration, over the last
// indexFigureIterations recorded iterations.
func (r *indexRecord) figure(res *batch.Result) figure {
	iters, chains := r.iters, r.chains
	k := len(r.replicas)
	if n := len(iters); n > indexFigureIterations {
		iters, chains = iters[n-indexFigureIterations:], chains[(n-indexFigureIterations)*k:]
	}
	f := figure{
		title:  fmt.Sprintf("Index process of replicate %d (%s, %d chains)", r.first, res.Config.Algorithm, res.Config.Chains),
		xlabel: "iteration", ylabel: "chain (0: reference)",
	}
	if k > 8 {
		f.noLegend = true
	}
	for i, rep := range r.replicas {
		s := series{name: fmt.Sprintf("replica %d", rep), xs: make([]float64, len(iters)), ys: make([]float64, len(iters))}
		for j, m := range iters {
			s.xs[j], s.ys[j] = float64(m), float64(chains[j*k+i])
		}
		f.lines = append(f.lines, s)
	}
	return f
}
