package batch

import (
	"fmt"
	"sync"
)

// IndexProcess is a Statistic that records the index process: the chain at
// which a few replicas sit (replica r is the state that started at chain r,
// View.Replica), per replicate, after the communication step of the
// recorded iterations — the picture of non-reversible PT's sweeps from
// reference to target and back against reversible PT's diffusion. It hands
// the records to Write after every scan, replicate by replicate in order
// and, within a replicate, by iteration; memory holds one scan's records
// at most, and Window bounds the run's.
//
// Iteration m (1-based, over the whole run) is recorded when From ≤ m <
// From+Window and m is a multiple of Thin: at most
// ⌈min(Window, M)/Thin⌉·len(Replicas) chain indices per replicate are
// held for a scan of M iterations.
type IndexProcess struct {
	// Replicas are the replicas followed, each in [0, Chains); nil means
	// all of them (the whole index process). A replica out of range is
	// reported as an error at the end of the first scan.
	Replicas []int
	// Thin records iteration m when m is a multiple of Thin; 0 means 1.
	Thin int
	// From is the first iteration recorded (1-based, counted over the
	// whole run); 0 means 1.
	From int
	// Window is the number of iterations, from From on, that are
	// recorded (before thinning); 0 means every iteration to the end of
	// the run.
	Window int
	// Write receives each record: the run-relative replicate b, the
	// iteration m and chains[k], the chain of replica Replicas[k] (of
	// replica k when Replicas is nil), which Write must not keep. It is
	// called from Engine.Step; an error stops the run.
	Write func(replicate, iteration int, chains []int) error
	// Flush, if not nil, is called after each scan's records have been
	// written.
	Flush func() error

	mu        sync.Mutex
	observers []*indexObserver
	records   int // records written
}

// NewObserver returns the recorder of one block.
func (s *IndexProcess) NewObserver(info BlockInfo) Observer {
	o := &indexObserver{
		info:     info,
		replicas: s.Replicas,
		thin:     max(1, s.Thin),
		from:     max(1, s.From),
		until:    -1,
		pos:      make([]int, info.Chains),
	}
	if s.Window > 0 && o.from+s.Window > o.from {
		o.until = o.from + s.Window
	}
	if o.replicas == nil {
		o.replicas = make([]int, info.Chains)
		for r := range o.replicas {
			o.replicas[r] = r
		}
	}
	o.replicas = append([]int(nil), o.replicas...)
	for _, r := range o.replicas {
		if r < 0 || r >= info.Chains {
			o.err = fmt.Errorf("batch: IndexProcess replica %d out of range [0, %d)", r, info.Chains)
			o.replicas = nil
			break
		}
	}
	o.chains = make([]int, len(o.replicas))
	s.mu.Lock()
	s.observers = append(s.observers, o)
	s.mu.Unlock()
	return o
}

// CollectScan writes the scan's records, replicate by replicate.
func (s *IndexProcess) CollectScan(int) error {
	if s.Write == nil {
		return fmt.Errorf("batch: IndexProcess without Write")
	}
	sortByReplicate(s.observers, func(o *indexObserver) BlockInfo { return o.info })
	write := func(b, m int, chains []int) error {
		if err := s.Write(b, m, chains); err != nil {
			return err
		}
		s.records++
		return nil
	}
	for _, o := range s.observers {
		if o.err != nil {
			return o.err
		}
		if err := o.flush(write); err != nil {
			return err
		}
	}
	if s.Flush != nil {
		return s.Flush()
	}
	return nil
}

// Records returns the number of records given to Write so far (those it
// accepted), over the whole run: in a run restored from a checkpoint, the
// records written before the checkpoint included.
func (s *IndexProcess) Records() int { return s.records }

// indexObserver buffers one block's records of the current scan: per lane,
// the recorded iterations and, for each, the chains of the followed
// replicas.
type indexObserver struct {
	info              BlockInfo
	replicas          []int
	thin, from, until int // record m in [from, until) (until -1: no end)
	err               error
	pos               []int // scratch: the chain of every replica
	chains            []int // scratch for Write
	iters             [lanes][]int
	rows              [lanes][]int32
}

// Iterate records the chains of the followed replicas at a recorded
// iteration.
func (o *indexObserver) Iterate(v *View) {
	m := v.Iteration
	if m < o.from || (o.until >= 0 && m >= o.until) || m%o.thin != 0 || len(o.replicas) == 0 {
		return
	}
	for j := 0; j < o.info.Replicates; j++ {
		for n := range o.pos {
			o.pos[v.Replica(n, j)] = n
		}
		o.iters[j] = append(o.iters[j], m)
		for _, r := range o.replicas {
			o.rows[j] = append(o.rows[j], int32(o.pos[r]))
		}
	}
}

// EndScan does nothing: the records are collected after every block ends
// the scan.
func (o *indexObserver) EndScan(*View) {}

func (o *indexObserver) flush(write func(b, m int, chains []int) error) error {
	k := len(o.replicas)
	for j := 0; j < o.info.Replicates; j++ {
		for i, m := range o.iters[j] {
			for c, n := range o.rows[j][i*k : (i+1)*k] {
				o.chains[c] = int(n)
			}
			if err := write(o.info.FirstReplicate+j, m, o.chains); err != nil {
				return err
			}
		}
		o.iters[j], o.rows[j] = o.iters[j][:0], o.rows[j][:0]
	}
	return nil
}
