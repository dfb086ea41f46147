package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/paper"
	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/runout"
)

// reproduceUnits is the unit of reproduce's shards (paper.Unit).
const reproduceUnits = paper.Unit

// reproJob carries reproduce's runs through its shards and merges: it
// computes each run's share of replicates, keeps every finished run's
// result (runs/NNN.gob, written as it ends), and in a merge gives the
// report the runs joined from the shards instead of computing them.
type reproJob struct {
	*job
	sh           *shard
	runs         []paper.Run
	next         int
	shards       []shardDir         // in a merge, the shards whose runs it joins
	shardSeconds float64            // in a merge, the shards' seconds
	seconds      map[string]float64 // seconds per run label (summary.json)
}

// startReproduce chooses the shard, takes --out and writes its manifest.
func startReproduce(c *cmdFlags, o *reproduceOptions, todo []paper.Experiment, highdim bool, stderr io.Writer) (*reproJob, error) {
	r := &reproJob{runs: o.Plan(todo, highdim), seconds: map[string]float64{}}
	units := paper.Units(r.runs)
	sh, err := resolveShard(c, &o.shard)
	if err != nil {
		return nil, err
	}
	if err := sh.check(units, reproduceUnits+" units"); err != nil {
		return nil, err
	}
	r.sh = sh
	m, err := newManifestOf("reproduce", o.Values(), c, []string{o.Which}, r.sh, reproduceUnits, units)
	if err != nil {
		return nil, err
	}
	if r.job, err = startJob(c, o.out, m, 0, true, stderr); err != nil {
		return nil, err
	}
	lo, hi := r.sh.share(units)
	r.sh.note(stderr, lo, hi, units, reproduceUnits+" units") // after the refusals: one line each
	return r, r.makeRuns()
}

// mergeReproJob is the job of a merge into o.out, which ptbatch merge
// holds and whose manifest it writes: the runs come from the shards of
// shards.
func mergeReproJob(o *reproduceOptions, todo []paper.Experiment, highdim bool, shards []shardDir) (*reproJob, error) {
	r := &reproJob{runs: o.Plan(todo, highdim), shards: shards, seconds: map[string]float64{}}
	for _, s := range shards {
		r.shardSeconds += s.m.ElapsedSeconds
	}
	m := &manifest{}
	r.job = &job{Job: rundir.NewJob(nil, m, 0), dir: &outDir{path: o.out}, m: m}
	return r, r.makeRuns()
}

// makeRuns makes the directory runs/ of the runs' results; it releases
// the directory when it cannot.
func (r *reproJob) makeRuns() error {
	if err := os.MkdirAll(r.dir.file("runs"), 0o755); err != nil {
		r.close()
		return err
	}
	return nil
}

// shardOnly reports whether this process computes a shard: it writes the
// runs' results, and the report is left to ptbatch merge.
func (r *reproJob) shardOnly() bool { return r.sh != nil }

// run is batch.Run for reproduce's run label: it computes this shard's
// replicates of it (all of them without shards) and writes their result
// into runs/, or in a merge joins the shards' results. It returns nil
// when the report is not made here (a shard).
func (r *reproJob) run(ctx context.Context, label string, cfg batch.Config, st *reproduceStats, prog func(batch.Progress)) (*batch.Result, error) {
	p, err := r.begin(label, cfg, st)
	if err != nil || p.done {
		return p.res, err
	}
	res, err := batch.Run(ctx, p.cfg, prog)
	return r.end(p, res, err, st)
}

// runAll is run for several labels: one after the other, stopping at an
// error or an interrupted run, or with concurrent all at once, each on its
// share of the workers (workers/len(labels), at least one), the results
// recorded in the order given so that runs/ and the report are those of
// running them one after the other. Reproduce runs concurrently the runs
// too small to keep every worker busy (fewer blocks of layout.Lanes
// replicates than workers); the progress functions are then called
// concurrently. It returns the results up to the first that failed or
// was interrupted.
func (r *reproJob) runAll(ctx context.Context, labels []string, cfgs []batch.Config, progs []func(batch.Progress), concurrent bool, workers int) ([]*batch.Result, error) {
	if !concurrent {
		var out []*batch.Result
		for i := range labels {
			res, err := r.run(ctx, labels[i], cfgs[i], nil, progs[i])
			out = append(out, res)
			if err != nil || (res != nil && res.Interrupted) {
				return out, err
			}
		}
		return out, nil
	}
	plans := make([]reproPlan, len(labels))
	for i := range labels {
		p, err := r.begin(labels[i], cfgs[i], nil)
		if err != nil {
			return nil, err
		}
		plans[i] = p
	}
	share := max(1, workers/len(labels))
	results := make([]*batch.Result, len(labels))
	errs := make([]error, len(labels))
	var wg sync.WaitGroup
	for i := range plans {
		if plans[i].done {
			continue
		}
		plans[i].cfg.Workers = share
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = batch.Run(ctx, plans[i].cfg, progs[i])
		}()
	}
	wg.Wait()
	out := make([]*batch.Result, len(labels))
	for i, p := range plans {
		if p.done {
			out[i] = p.res
			continue
		}
		res, err := r.end(p, results[i], errs[i], nil)
		if err != nil || (res != nil && res.Interrupted) {
			return append(out[:i], res), err
		}
		out[i] = res
	}
	return out, nil
}

// reproPlan is one run of reproduce between begin and end: its slot in
// the plan, the replicates this process computes (cfg), or, when done,
// the result to return without computing (a merge's, or nil for another
// shard's run).
type reproPlan struct {
	k, hi int
	label string
	cfg   batch.Config
	done  bool
	res   *batch.Result
}

// begin takes the next slot of the plan for label and says what to
// compute; in a merge it joins the shards' results of the run.
func (r *reproJob) begin(label string, cfg batch.Config, st *reproduceStats) (reproPlan, error) {
	k := r.next
	r.next++
	if k >= len(r.runs) || r.runs[k].Label != label || r.runs[k].Replicates != cfg.Replicates {
		return reproPlan{}, fmt.Errorf("reproduce: run %d is %q with %d replicates, not in the plan of its shards (paper.Settings.Plan)", k, label, cfg.Replicates)
	}
	run := r.runs[k]
	name := paper.RunFile(k)
	if r.shards != nil {
		shards := make([]rundir.Shard, len(r.shards))
		for i, s := range r.shards {
			shards[i] = rundir.Shard{Dir: s.dir, Manifest: s.m}
		}
		rec, err := paper.JoinRun(run, k, shards)
		switch {
		case errors.Is(err, paper.ErrJoin):
			return reproPlan{}, usagef("%v", err)
		case err != nil:
			return reproPlan{}, shardUsage(err)
		}
		r.seconds[label] = rec.Result.Elapsed.Seconds()
		if err := rundir.WriteRecord(r.dir.file(name), rec); err != nil {
			return reproPlan{}, err
		}
		if st != nil {
			st.rec = rec
		}
		res := rec.Result
		res.Config = cfg
		return reproPlan{done: true, res: &res}, nil
	}
	lo, hi := run.Within(r.m.First, r.m.End)
	if lo == hi {
		return reproPlan{done: true}, nil // not this shard's
	}
	cfg.FirstReplicate, cfg.Replicates = lo, hi-lo
	return reproPlan{k: k, hi: run.First + hi, label: label, cfg: cfg}, nil
}

// end records a computed run: its result in runs/, its seconds and the
// manifest's progress. It returns the result for the report (nil in a
// shard), or the run's error, or an interrupted result unrecorded.
func (r *reproJob) end(p reproPlan, res *batch.Result, err error, st *reproduceStats) (*batch.Result, error) {
	if err != nil || res.Interrupted {
		return res, err
	}
	rec := runout.NewRecord(res, nil)
	if st != nil {
		st.record(rec)
	}
	if err := rundir.WriteRecord(r.dir.file(paper.RunFile(p.k)), rec); err != nil {
		return nil, err
	}
	r.seconds[p.label] = res.Elapsed.Seconds()
	if err := r.progress(p.hi); err != nil {
		return nil, err
	}
	if r.shardOnly() {
		return nil, nil
	}
	return res, nil
}

// finishReproduce writes summary.json and the final manifest.
func (r *reproJob) finish(o *reproduceOptions, interrupted bool) error {
	out := map[string]any{
		"config": map[string]any{"experiment": o.Which, "replicates": o.Replicates, "scale": o.Scale, "seed": o.Seed,
			"workers": o.workers, "out": o.out},
		"runs":            len(r.runs),
		"runs_completed":  len(r.seconds),
		"interrupted":     interrupted,
		"seconds":         r.seconds,
		"elapsed_seconds": r.Elapsed(),
		"go_version":      runtime.Version(),
	}
	if r.shards != nil {
		out["elapsed_seconds"] = r.shardSeconds
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	if err := writeBytesAtomic(r.dir.file("summary.json"), append(b, '\n')); err != nil {
		return err
	}
	if r.shards != nil {
		return nil // merge writes the manifest
	}
	return r.job.Finish(r.m.Done, interrupted)
}

// runFile is paper.RunFile (a wrapper for outdir_reuse_test.go).
func runFile(k int) string { return paper.RunFile(k) }
