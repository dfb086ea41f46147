package paper

import (
	"context"
	"math"
	"sync"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/runloop"
)

// job is a run of the plan that this process computes, as the scheduler
// runs it: its slot (begin) on share workers, holding share of the
// pool's slots (0: on the configuration's own workers, holding every
// slot); with own, its result's Config.Workers is the slot's own again
// (the results do not depend on it). save records its result as soon as
// it ends (reproduction.save).
type job struct {
	p        slot
	share    int
	own      bool
	progress func(batch.Progress)
	memory   int64 // batch.EstimateMemory of the run
	save     func(*batch.Result) error
	done     chan struct{} // closed when res, err and saveErr are set
	res      *batch.Result
	err      error
	saveErr  error
	skipped  bool // not started: the context ended first
}

// scheduler runs the jobs of a whole reproduction, in plan order, through
// one pool of workers slots: a job starts as soon as its share of the
// slots is free and the estimated memory of the jobs started and not yet
// taken (take), its own included, is at most budget (or none is), so that
// runs of the next experiments fill the workers that the last runs of an
// experiment leave idle, while the reproduction takes the results and
// writes each experiment's files in plan order.
type scheduler struct {
	jobs    []*job
	free    int   // free slots of the pool
	budget  int64 // memory of the jobs started and not yet taken, at most
	live    int64 // memory of the jobs started and not yet taken
	started int   // jobs[:started] are started
	taken   int   // jobs[:taken] are taken
	mu      sync.Mutex
	wake    *sync.Cond
	wg      sync.WaitGroup
	cancel  context.CancelFunc
	unwake  func() bool
}

// startScheduler starts running jobs on a pool of workers slots, with
// the memory budget of the workers largest jobs (as Settings.Memory
// counts), until ctx ends or stop.
func startScheduler(ctx context.Context, jobs []*job, workers int) *scheduler {
	ctx, cancel := context.WithCancel(ctx)
	mem := make([]int64, len(jobs))
	for i, j := range jobs {
		mem[i] = j.memory
	}
	budget, err := sumLargest(mem, workers)
	if err != nil {
		budget = math.MaxInt64 // sizes Settings.Memory refuses
	}
	s := &scheduler{jobs: jobs, free: workers, budget: budget, cancel: cancel}
	s.wake = sync.NewCond(&s.mu)
	s.unwake = context.AfterFunc(ctx, s.broadcast)
	s.wg.Add(1)
	go s.dispatch(ctx, workers)
	return s
}

// broadcast wakes the dispatcher.
func (s *scheduler) broadcast() {
	s.mu.Lock()
	s.wake.Broadcast()
	s.mu.Unlock()
}

// dispatch starts the jobs in order, each when its slots are free and it
// fits in the budget; once ctx ends it starts none and marks the rest
// skipped.
func (s *scheduler) dispatch(ctx context.Context, workers int) {
	defer s.wg.Done()
	for i, j := range s.jobs {
		need := workers
		if j.share > 0 {
			need = min(j.share, workers)
		}
		s.mu.Lock()
		for ctx.Err() == nil && (s.free < need || (s.started > s.taken && s.live+j.memory > s.budget)) {
			s.wake.Wait()
		}
		if ctx.Err() != nil {
			s.mu.Unlock()
			for _, rest := range s.jobs[i:] {
				rest.skipped = true
				close(rest.done)
			}
			return
		}
		s.free -= need
		s.live += j.memory
		s.started++
		s.mu.Unlock()
		s.wg.Add(1)
		go s.run(ctx, j, need)
	}
}

// run runs j on its share of workers and frees its need slots.
func (s *scheduler) run(ctx context.Context, j *job, need int) {
	defer s.wg.Done()
	cfg := j.p.cfg
	if j.share > 0 {
		cfg.Workers = j.share
	}
	j.res, j.err = runloop.Run(ctx, cfg, runloop.Options{Progress: j.progress})
	if j.own && j.res != nil {
		j.res.Config.Workers = j.p.cfg.Workers
	}
	if j.err == nil {
		j.saveErr = j.save(j.res)
	}
	s.mu.Lock()
	s.free += need
	s.wake.Broadcast()
	s.mu.Unlock()
	close(j.done)
}

// take waits for job i, the next after those taken, to end and returns
// it; its memory no longer counts against the budget.
func (s *scheduler) take(i int) *job {
	j := s.jobs[i]
	<-j.done
	s.mu.Lock()
	s.taken = i + 1
	s.live -= j.memory
	s.wake.Broadcast()
	s.mu.Unlock()
	return j
}

// stop ends the runs still under way (interrupted) and waits for every
// goroutine of the scheduler.
func (s *scheduler) stop() {
	s.cancel()
	s.wg.Wait()
	s.unwake()
}
