package batch

import "sync"

// Samples is a Statistic that records the states of the target chain —
// samples of the target π_1 — during the kept scans (the run's last
// Config.KeepScans, or FromScan on), keeping the iterations that are
// multiples of Thin, and hands them to Write after every scan, replicate
// by replicate in order and, within a replicate, by iteration. Memory holds
// one scan's kept states at most: what Write is given is not kept.
type Samples struct {
	// FromScan is the first scan whose states are kept; 0 means the
	// first of the kept scans (Config.KeepScans).
	FromScan int
	// Thin keeps iteration m when m is a multiple of Thin; 0 means 1.
	Thin int
	// Write receives each kept state: the run-relative replicate b, the
	// iteration m (1-based, counted over the whole run) and the
	// observables x, which Write must not keep. It is called from
	// Engine.Step; an error stops the run.
	Write func(replicate, iteration int, x []float64) error
	// Flush, if not nil, is called after each scan's states have been
	// written (to flush a buffered file, say).
	Flush func() error

	mu        sync.Mutex
	observers []*sampleObserver
	rows      int // rows written
}

// NewObserver returns the recorder of one block.
func (s *Samples) NewObserver(info BlockInfo) Observer {
	o := &sampleObserver{info: info, from: s.FromScan, thin: max(1, s.Thin), x: make([]float64, info.Observables)}
	if o.from == 0 {
		o.from = info.FirstKeptScan()
	}
	s.mu.Lock()
	s.observers = append(s.observers, o)
	s.mu.Unlock()
	return o
}

// CollectScan writes the scan's kept states, replicate by replicate.
func (s *Samples) CollectScan(int) error {
	sortByReplicate(s.observers, func(o *sampleObserver) BlockInfo { return o.info })
	write := func(b, m int, x []float64) error {
		if err := s.Write(b, m, x); err != nil {
			return err
		}
		s.rows++
		return nil
	}
	for _, o := range s.observers {
		if err := o.flush(write); err != nil {
			return err
		}
	}
	if s.Flush != nil {
		return s.Flush()
	}
	return nil
}

// Rows returns the number of states given to Write so far (those it
// accepted), over the whole run: in a run restored from a checkpoint, the
// rows written before the checkpoint included, so that a writer can cut
// its output back to them before going on.
func (s *Samples) Rows() int { return s.rows }

// sampleObserver buffers one block's kept states of the current scan: per
// lane, rows of (iteration, x_0, …, x_{k-1}).
type sampleObserver struct {
	info       BlockInfo
	from, thin int
	x          []float64
	rows       [lanes][]float64
}

// Iterate keeps the target chain's states of the block's real replicates.
func (o *sampleObserver) Iterate(v *View) {
	if v.Scan < o.from || v.Iteration%o.thin != 0 {
		return
	}
	for j := 0; j < o.info.Replicates; j++ {
		v.ObserveTarget(o.x, j)
		o.rows[j] = append(o.rows[j], float64(v.Iteration))
		o.rows[j] = append(o.rows[j], o.x...)
	}
}

// EndScan does nothing: the states are collected after every block ends
// the scan.
func (o *sampleObserver) EndScan(*View) {}

func (o *sampleObserver) flush(write func(b, m int, x []float64) error) error {
	k := o.info.Observables + 1
	for j := 0; j < o.info.Replicates; j++ {
		rows := o.rows[j]
		for i := 0; i+k <= len(rows); i += k {
			if err := write(o.info.FirstReplicate+j, int(rows[i]), rows[i+1:i+k]); err != nil {
				return err
			}
		}
		o.rows[j] = rows[:0]
	}
	return nil
}
