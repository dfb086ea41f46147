package paper

import (
	"context"
	"math"
	"sync"
	"time"

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
	// pack, when not empty, is the runs this job runs together, their
	// replicates packed into shared blocks (batch.RunPacked), itself
	// first; each of the others is a follower, started and ended by it.
	pack     []*job
	follower bool
}

// skip marks j, and the runs it would have run with it, not started.
func (j *job) skip() {
	for _, m := range j.members() {
		m.skipped = true
		close(m.done)
	}
}

// packMemory returns the estimated memory of the runs j runs.
func (j *job) packMemory() int64 {
	var mem int64
	for _, m := range j.members() {
		mem += m.memory
	}
	return mem
}

// members returns the runs j runs: its pack, or itself.
func (j *job) members() []*job {
	if len(j.pack) > 0 {
		return j.pack
	}
	return []*job{j}
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
		if !j.follower {
			mem[i] = j.packMemory()
		}
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
		if j.follower { // started (or skipped) with the job it follows
			s.mu.Lock()
			s.started++
			s.mu.Unlock()
			continue
		}
		need := workers
		if j.share > 0 {
			need = min(j.share, workers)
		}
		s.mu.Lock()
		mem := j.packMemory()
		for ctx.Err() == nil && (s.free < need || (s.started > s.taken && s.live+mem > s.budget)) {
			s.wake.Wait()
		}
		if ctx.Err() != nil {
			s.mu.Unlock()
			for _, rest := range s.jobs[i:] {
				if !rest.follower {
					rest.skip()
				}
			}
			return
		}
		s.free -= need
		s.live += mem
		s.started++
		s.mu.Unlock()
		s.wg.Add(1)
		go s.run(ctx, j, need)
	}
}

// run runs j on its share of workers and frees its need slots.
func (s *scheduler) run(ctx context.Context, j *job, need int) {
	defer s.wg.Done()
	if len(j.pack) > 0 {
		runPack(ctx, j)
	} else {
		cfg := j.p.cfg
		if j.share > 0 {
			cfg.Workers = j.share
		}
		j.res, j.err = runloop.Run(ctx, cfg, runloop.Options{Progress: j.progress})
	}
	for _, m := range j.members() {
		if m.own && m.res != nil {
			m.res.Config.Workers = m.p.cfg.Workers
		}
		if m.err == nil {
			m.saveErr = m.save(m.res)
		}
	}
	s.mu.Lock()
	s.free += need
	s.wake.Broadcast()
	s.mu.Unlock()
	for _, m := range j.members() {
		close(m.done)
	}
}

// runPack runs the runs of j's pack together (batch.RunPacked) on j's
// share of workers, and sets each one's result or error. Each result's
// Elapsed is its share of the pack's, by replicates.
func runPack(ctx context.Context, j *job) {
	cfgs := make([]batch.Config, len(j.pack))
	total := 0
	for k, m := range j.pack {
		cfgs[k] = m.p.cfg
		total += cfgs[k].Replicates
	}
	if j.share > 0 {
		cfgs[0].Workers = j.share
	}
	progress := func(p batch.Progress) {
		for _, m := range j.pack {
			if m.progress != nil {
				m.progress(p)
			}
		}
	}
	res, err := batch.RunPacked(ctx, cfgs, progress)
	for k, m := range j.pack {
		m.err = err
		if err != nil {
			continue
		}
		m.res = res[k]
		m.res.Elapsed = m.res.Elapsed * time.Duration(cfgs[k].Replicates) / time.Duration(total)
	}
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
