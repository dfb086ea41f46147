package paper

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/runloop"
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

// run runs label's replicates of this process (all without shards) with
// runloop.Run and writes their record into runs/, or in a merge joins the
// shards' records of it. It returns nil when the report is not made here
// (a shard).
func (r *reproduction) run(ctx context.Context, label string, cfg batch.Config, st *stats) (*batch.Result, error) {
	p, err := r.begin(label, cfg, st)
	if err != nil || p.done {
		return p.res, err
	}
	res, err := runloop.Run(ctx, p.cfg, runloop.Options{Progress: r.progress(label)})
	return r.end(p, res, err, st)
}

// progress returns the progress callback of the run label, or nil.
func (r *reproduction) progress(label string) func(batch.Progress) {
	if r.o.Progress == nil {
		return nil
	}
	return r.o.Progress(label)
}

// runAll is run for several labels, one after the other (stopping at an
// error or an interrupted run), or with concurrent all at once, each on
// workers/len(labels) workers (at least one), their results recorded in
// the order given, so that runs/ and the report are those of one after
// the other. sts, when not nil, are the runs' statistics (run's st).
// With ownWorkers a concurrent run's record keeps its configuration's
// Workers, as one after the other would, rather than its share.
// It returns the results up to the first that failed or was interrupted.
func (r *reproduction) runAll(ctx context.Context, labels []string, cfgs []batch.Config, sts []*stats, concurrent, ownWorkers bool, workers int) ([]*batch.Result, error) {
	st := func(i int) *stats {
		if sts == nil {
			return nil
		}
		return sts[i]
	}
	if !concurrent {
		var out []*batch.Result
		for i := range labels {
			res, err := r.run(ctx, labels[i], cfgs[i], st(i))
			out = append(out, res)
			if err != nil || (res != nil && res.Interrupted) {
				return out, err
			}
		}
		return out, nil
	}
	slots := make([]slot, len(labels))
	for i := range labels {
		p, err := r.begin(labels[i], cfgs[i], st(i))
		if err != nil {
			return nil, err
		}
		slots[i] = p
	}
	results, errs := r.runConcurrently(ctx, slots, max(1, workers/len(labels)), ownWorkers)
	out := make([]*batch.Result, len(labels))
	for i, p := range slots {
		if p.done {
			out[i] = p.res
			continue
		}
		res, err := r.end(p, results[i], errs[i], st(i))
		if err != nil || (res != nil && res.Interrupted) {
			return append(out[:i], res), err
		}
		out[i] = res
	}
	return out, nil
}

// runConcurrently runs the slots not done at the same time, each on share
// workers, and returns their results and errors; with own, a result's
// Config.Workers is the slot's own again (the results do not depend on
// it).
func (r *reproduction) runConcurrently(ctx context.Context, slots []slot, share int, own bool) ([]*batch.Result, []error) {
	results := make([]*batch.Result, len(slots))
	errs := make([]error, len(slots))
	var wg sync.WaitGroup
	for i := range slots {
		if slots[i].done {
			continue
		}
		cfg := slots[i].cfg
		cfg.Workers = share
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = runloop.Run(ctx, cfg, runloop.Options{Progress: r.progress(slots[i].label)})
			if own && results[i] != nil {
				results[i].Config.Workers = slots[i].cfg.Workers
			}
		}()
	}
	wg.Wait()
	return results, errs
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

// end records a computed run: its record in runs/, its seconds and the
// manifest's progress. It returns the result for the report (nil in a
// shard), or the run's error, or an interrupted result unrecorded.
func (r *reproduction) end(p slot, res *batch.Result, err error, st *stats) (*batch.Result, error) {
	if err != nil || res.Interrupted {
		return res, err
	}
	rec := runout.NewRecord(res, nil)
	if st != nil {
		st.record(rec)
	}
	if err := rundir.WriteRecord(r.file(RunFile(p.k)), rec); err != nil {
		return nil, err
	}
	r.seconds[p.label] = res.Elapsed.Seconds()
	if j := r.o.Job; j != nil {
		if err := j.Progress(p.hi); err != nil {
			return nil, err
		}
	}
	if r.o.Shard {
		return nil, nil
	}
	return res, nil
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
