package paper

import (
	"fmt"
	"runtime"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/runout"
)

// slot is one run of the plan between begin and end: its number k, the
// end of this process's units of it (hi), and the replicates this process
// computes (cfg); or, when done, the result to report without computing
// (a merge's, or nil for another shard's run).
type slot struct {
	k, hi int
	label string
	cfg   batch.Config
	done  bool
	res   *batch.Result
}

// planned is a run of the plan prepared before the reproduction starts
// (prepare): its label, its statistics (nil for highdim's), its slot
// (begin), its configuration in the plan (cfg), and the number of its
// job in the scheduler, or −1 when the slot is done without computing (a
// merge's, or another shard's run).
type planned struct {
	label string
	cfg   batch.Config
	st    *stats
	p     slot
	job   int
}

// plan takes the slots of the runs labels of configurations cfgs (begin,
// in plan order) and adds a job for each that this process computes: on
// share workers each (0: on the configuration's own, holding every slot
// of the pool), with own as job's. sts, when not nil, are the runs'
// statistics.
func (r *reproduction) plan(labels []string, cfgs []batch.Config, sts []*stats, share int, own bool) ([]planned, error) {
	out := make([]planned, len(labels))
	for i, label := range labels {
		var st *stats
		if sts != nil {
			st = sts[i]
		}
		p, err := r.begin(label, cfgs[i], st)
		if err != nil {
			return nil, err
		}
		out[i] = planned{label: label, cfg: cfgs[i], st: st, p: p, job: -1}
		if !p.done {
			out[i].job = len(r.jobs)
			mem, _ := batch.EstimateMemory(p.cfg) // an invalid configuration fails as it runs
			r.jobs = append(r.jobs, &job{p: p, share: share, own: own, progress: r.progress(label), memory: mem,
				done: make(chan struct{}), save: func(res *batch.Result) error { return r.save(p, res, st) }})
		}
	}
	return out, nil
}

// result waits for the planned run pr and records it (end): its result
// for the report (nil for another shard's or in a shard), or its error;
// an *InterruptedError when the reproduction ended before it started or
// the run was interrupted.
func (r *reproduction) result(pr planned) (*batch.Result, error) {
	var res *batch.Result
	var err error
	if pr.job < 0 {
		res = pr.p.res
	} else if j := r.sched.take(pr.job); j.skipped {
		return nil, &InterruptedError{pr.label}
	} else {
		res, err = r.end(j)
	}
	if err == nil && res != nil && res.Interrupted {
		return nil, &InterruptedError{pr.label}
	}
	return res, err
}

// progress returns the progress callback of the run label, or nil.
func (r *reproduction) progress(label string) func(batch.Progress) {
	if r.o.Progress == nil {
		return nil
	}
	return r.o.Progress(label)
}

// begin takes the next slot of the plan for label and says what to
// compute; in a merge it joins the shards' records of the run.
func (r *reproduction) begin(label string, cfg batch.Config, st *stats) (slot, error) {
	k := r.next
	r.next++
	if k >= len(r.runs) || r.runs[k].Label != label || r.runs[k].Replicates != cfg.Replicates {
		return slot{}, fmt.Errorf("paper: run %d is %q with %d replicates, not in the plan of its shards (Settings.Plan)", k, label, cfg.Replicates)
	}
	run := r.runs[k]
	if r.shards != nil {
		rec, err := JoinRun(run, k, r.shards)
		if err != nil {
			return slot{}, err
		}
		if err := sameRun(rec, cfg, label, st != nil); err != nil {
			return slot{}, err
		}
		r.seconds[label] = rec.Result.Elapsed.Seconds()
		if err := rundir.WriteRecord(r.file(RunFile(k)), rec); err != nil {
			return slot{}, err
		}
		if st != nil {
			st.rec = rec
		}
		res := rec.Result
		res.Config = cfg
		return slot{done: true, res: &res}, nil
	}
	first, end := 0, Units(r.runs)
	if j := r.o.Job; j != nil {
		first, end = j.Manifest.First, j.Manifest.End
	}
	lo, hi := run.Within(first, end)
	if lo == hi {
		return slot{done: true}, nil // not this shard's
	}
	cfg.FirstReplicate, cfg.Replicates = lo, hi-lo
	return slot{k: k, hi: run.First + hi, label: label, cfg: cfg}, nil
}

// save records a computed run as soon as it ends, in the scheduler's
// goroutine of the run: its record in runs/ and its seconds, so that a
// run that ends is kept even when the reproduction stops at an earlier
// one. An interrupted run is not recorded.
func (r *reproduction) save(p slot, res *batch.Result, st *stats) error {
	if res == nil || res.Interrupted {
		return nil
	}
	rec := runout.NewRecord(res, nil)
	if st != nil {
		st.record(rec)
	}
	if err := rundir.WriteRecord(r.file(RunFile(p.k)), rec); err != nil {
		return err
	}
	r.mu.Lock()
	r.seconds[p.label] = res.Elapsed.Seconds()
	r.mu.Unlock()
	return nil
}

// end ends a computed run in plan order: the manifest's progress, which
// counts the units done in plan order. It returns the result for the
// report (nil in a shard), or the run's error or its record's (save), or
// an interrupted result unrecorded.
func (r *reproduction) end(j *job) (*batch.Result, error) {
	switch {
	case j.err != nil:
		return j.res, j.err
	case j.saveErr != nil:
		return nil, j.saveErr
	case j.res.Interrupted:
		return j.res, nil
	}
	if job := r.o.Job; job != nil {
		if err := job.Progress(j.p.hi); err != nil {
			return nil, err
		}
	}
	if r.o.Shard {
		return nil, nil
	}
	return j.res, nil
}

// sameRun refuses, with an error that matches ErrJoin, a record joined
// from the shards that is not the run cfg of the plan (another seed,
// chains, iterations, algorithm, path or tuning), or that lacks the
// barrier profile an experiment's run records (profile).
func sameRun(rec *runout.Record, cfg batch.Config, label string, profile bool) error {
	c := rec.Result.Config
	switch {
	case c.Seed != cfg.Seed || c.Chains != cfg.Chains || c.Iterations != cfg.Iterations || c.Algorithm != cfg.Algorithm ||
		c.Knots != cfg.Knots || c.Tuning != cfg.Tuning:
		return &joinError{fmt.Sprintf("run %q: the shards computed another run (seed %d, %d chains, %d iterations, K = %d) than the plan's (seed %d, %d chains, %d iterations, K = %d)",
			label, c.Seed, c.Chains, c.Iterations, c.Knots, cfg.Seed, cfg.Chains, cfg.Iterations, cfg.Knots)}
	case profile && rec.Profile == nil:
		return &joinError{fmt.Sprintf("run %q: the shards' record has no barrier profile", label)}
	}
	return nil
}

// workers returns the number of workers of the reproduction: Options.Workers,
// or all CPUs for 0.
func (r *reproduction) workers() int {
	if r.o.Workers == 0 {
		return runtime.NumCPU()
	}
	return r.o.Workers
}

// methodsAtOnce returns how many methods of an experiment with reps
// replicates run at the same time on workers workers: one, on every
// worker, when each run's blocks keep the workers equally busy (as many
// blocks on each, none with padding lanes); otherwise workers (at most
// the methods), each on one worker, so that no worker waits for another
// and a block's padding lanes (models.BlockSpec.Padding), which the
// mixtures skip, cost only what is left of the block. The results are
// the same either way.
func methodsAtOnce(reps, workers int) int {
	blocks := (reps + layout.Lanes - 1) / layout.Lanes
	if workers <= 1 || (reps%layout.Lanes == 0 && blocks%workers == 0) {
		return 1
	}
	return min(workers, len(Methods()))
}
