package runout

import (
	"bytes"
	"fmt"
	"os"
	"strconv"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/figure"
)

// IndexFigureIterations is the number of recorded iterations of the
// first replicate that index.png shows at most: the last ones recorded.
const IndexFigureIterations = 2000

// IndexWriter streams the index process to index.csv,
// `replicate,iteration,replica,chain` (one row per replicate, recorded
// iteration and followed replica; replicates numbered from the run's
// first, iterations counted over the whole run), written as each scan
// ends so that memory holds one scan's records, and keeps the first
// replicate's last IndexFigureIterations records for index.png. Close
// ends the file, and Sync commits the flushed rows to stable storage.
type IndexWriter struct {
	*streamFile
	Stat  *batch.IndexProcess // the statistic to add to the run
	first int
	trace IndexTrace
}

// IndexTrace is the first replicate's recorded index process: its
// recorded iterations and, for each, the chains of the followed replicas.
type IndexTrace struct {
	First    int // the number of the run's first replicate
	Replicas []int
	Iters    []int
	Chains   []int // len(Replicas) per iteration
}

// NewIndexWriter creates dir/index.csv with its header; the run's
// replicate b is numbered first+b.
func NewIndexWriter(dir string, spec IndexSpec, first int) (*IndexWriter, error) {
	f, err := createStream(dir, "index.csv", "replicate,iteration,replica,chain\n")
	if err != nil {
		return nil, err
	}
	r := &IndexWriter{streamFile: f, first: first, trace: IndexTrace{First: first, Replicas: spec.Replicas}}
	r.Stat = spec.process()
	r.Stat.Write, r.Stat.Flush = r.write, r.Flush
	return r, nil
}

// process returns the statistic that records s, without a writer.
func (s IndexSpec) process() *batch.IndexProcess {
	window := s.Window
	if s.From == 1 {
		window = 0 // the whole run
	}
	return &batch.IndexProcess{Replicas: s.Replicas, Thin: s.Thin, From: s.From, Window: window}
}

// write appends the rows of one record; it is batch.IndexProcess.Write.
func (r *IndexWriter) write(b, m int, chains []int) error {
	if r.err != nil {
		return r.err
	}
	for k, n := range chains {
		r.buf = strconv.AppendInt(r.buf[:0], int64(r.first+b), 10)
		r.buf = append(r.buf, ',')
		r.buf = strconv.AppendInt(r.buf, int64(m), 10)
		r.buf = append(r.buf, ',')
		r.buf = strconv.AppendInt(r.buf, int64(r.trace.Replicas[k]), 10)
		r.buf = append(r.buf, ',')
		r.buf = strconv.AppendInt(r.buf, int64(n), 10)
		r.buf = append(r.buf, '\n')
		if err := r.writeRow(); err != nil {
			return err
		}
	}
	if b == 0 {
		r.trace.keep(m, chains)
	}
	return nil
}

// keep appends the first replicate's record, dropping the oldest half
// when twice IndexFigureIterations are held.
func (t *IndexTrace) keep(m int, chains []int) {
	k := len(chains)
	if len(t.Iters) == 2*IndexFigureIterations {
		n := copy(t.Iters, t.Iters[IndexFigureIterations:])
		t.Iters = t.Iters[:n]
		n = copy(t.Chains, t.Chains[IndexFigureIterations*k:])
		t.Chains = t.Chains[:n]
	}
	t.Iters = append(t.Iters, m)
	t.Chains = append(t.Chains, chains...)
}

// Trace returns the first replicate's records kept for the figure.
func (r *IndexWriter) Trace() *IndexTrace { return &r.trace }

// ReadIndexTrace reads the first replicate's records (replicate 0's) from
// index.csv at path (len(replicas) rows per record), as a run keeps them;
// an unreadable file gives an empty trace.
func ReadIndexTrace(path string, replicas []int) *IndexTrace {
	t := &IndexTrace{Replicas: replicas}
	b, err := os.ReadFile(path)
	if err != nil {
		return t
	}
	k := len(replicas)
	var row int
	for _, line := range bytes.Split(b, []byte("\n"))[1:] {
		f := bytes.Split(line, []byte(","))
		if len(f) != 4 || string(f[0]) != "0" {
			continue
		}
		m, _ := strconv.Atoi(string(f[1]))
		n, _ := strconv.Atoi(string(f[3]))
		if row%max(k, 1) == 0 {
			t.Iters = append(t.Iters, m)
		}
		t.Chains = append(t.Chains, n)
		row++
	}
	return t
}

// Figure returns the plot of the trace: the chain of each followed
// replica against the iteration, over the last IndexFigureIterations
// recorded iterations, for a run of cfg.
func (t *IndexTrace) Figure(cfg *batch.Config) figure.Figure {
	iters, chains := t.Iters, t.Chains
	k := len(t.Replicas)
	if n := len(iters); n > IndexFigureIterations {
		iters, chains = iters[n-IndexFigureIterations:], chains[(n-IndexFigureIterations)*k:]
	}
	f := figure.Figure{
		Title:  fmt.Sprintf("Index process of replicate %d (%s, %d chains)", t.First, cfg.Algorithm, cfg.Chains),
		XLabel: "iteration", YLabel: "chain (0: reference)",
	}
	if k > 8 {
		f.NoLegend = true
	}
	for i, rep := range t.Replicas {
		s := figure.Series{Name: fmt.Sprintf("replica %d", rep), Xs: make([]float64, len(iters)), Ys: make([]float64, len(iters))}
		for j, m := range iters {
			s.Xs[j], s.Ys[j] = float64(m), float64(chains[j*k+i])
		}
		f.Lines = append(f.Lines, s)
	}
	return f
}

// First returns the number of the run's first replicate, from which
// index.csv numbers them.
func (r *IndexWriter) First() int { return r.first }
