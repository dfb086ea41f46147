package paper

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/rundir"
)

// Options are the settings of Reproduce and Merge that do not change the
// results of a reproduction.
type Options struct {
	// Workers is batch.Config.Workers of every run (0: all CPUs).
	Workers int
	// Progress, when not nil, returns the progress callback of the run
	// named label (Run.Label), or nil for none. The callbacks of runs
	// that run at the same time (runs of one worker each, highdim's and
	// an experiment's methods when its runs leave workers idle or lanes
	// padding, of the same or of the next experiments) are called
	// concurrently.
	Progress func(label string) func(batch.Progress)
	// Job, when not nil, is the job (rundir.Job) of the directory that
	// Reproduce writes, which the caller holds and whose manifest has
	// Units(Plan) units: this process computes the runs' replicates of
	// its units [First, End), records each run's progress in it, and its
	// end (rundir.Job.Finish). Nil: every unit, and no manifest.
	Job *rundir.Job
	// Shard says that this process computes a shard of the plan: it writes
	// its runs' records (RunFile) and summary.json, and leaves the
	// experiments' files and the report to Merge of the shards.
	Shard bool
}

// ErrInterrupted is matched by the error of a reproduction that its
// context ended (an *InterruptedError).
var ErrInterrupted = errors.New("paper: interrupted")

// InterruptedError is the error of a reproduction that its context ended
// during the run or the closed-form comparison named During. The runs it
// finished are in runs/, the experiments it finished have their files,
// and summary.json, the manifest and the report so far are written.
type InterruptedError struct {
	During string // "gaussian NRPT+Linear", "highdim d=4 K=1", …
}

// Error returns "paper: interrupted during " and During.
func (e *InterruptedError) Error() string { return "paper: interrupted during " + e.During }

// Is reports whether target is ErrInterrupted.
func (e *InterruptedError) Is(target error) bool { return target == ErrInterrupted }

// Reproduce runs the reproduction s into the directory dir (created if
// needed): each run's record in runs/ (RunFile) as it ends, per
// experiment its CSVs (ScansHeader, SummaryHeader, LambdaHeader,
// KnotsHeader) and figures in dir/NAME, highdim's rates.csv and figure in
// dir/highdim, summary.json (the seconds of every run), and results.md,
// the report, which it also returns. With o.Shard it computes its runs
// and writes their records and summary.json only, and returns no report.
// When ctx ends the reproduction it writes what it finished and returns
// an *InterruptedError.
func Reproduce(ctx context.Context, s Settings, dir string, o Options) (string, error) {
	r, err := start(s, dir, o)
	if err != nil {
		return "", err
	}
	return r.reproduce(ctx)
}

// Merge writes into dir the reproduction s whose shards are shards (read
// and verified by rundir.ReadShards; every unit of the plan in one of
// them): each run's record joined from theirs (JoinRun) instead of
// computed, then every file of Reproduce, the same bytes as one process
// but for the seconds, which are the shards' (summary.json's
// elapsed_seconds is their sum). The manifest of dir is the caller's.
// An error of JoinRun is returned as it is; o.Job and o.Shard are not
// used.
func Merge(ctx context.Context, s Settings, dir string, shards []rundir.Shard, o Options) (string, error) {
	o.Job, o.Shard = nil, false
	r, err := start(s, dir, o)
	if err != nil {
		return "", err
	}
	r.shards = shards
	for _, sh := range shards {
		r.shardSeconds += sh.Manifest.ElapsedSeconds
	}
	return r.reproduce(ctx)
}

// reproduction is a reproduction under way: its plan, the runs done and
// their seconds, and in a merge the shards whose runs it joins.
type reproduction struct {
	s            Settings
	dir          string
	o            Options
	todo         []Experiment
	highdim      bool
	runs         []Run
	next         int                // the slot of the plan of the next run
	shards       []rundir.Shard     // in a merge, the shards whose runs it joins
	shardSeconds float64            // in a merge, the shards' seconds
	seconds      map[string]float64 // seconds per run label (summary.json)
	start        time.Time
	mu           sync.Mutex // guards seconds once the scheduler runs
	jobs         []*job     // the runs this process computes, in plan order
	noPack       bool       // no packed runs (pack), for the tests that compare
	sched        *scheduler // runs jobs
}

// start returns the reproduction of s into dir, with runs/ made.
func start(s Settings, dir string, o Options) (*reproduction, error) {
	todo, highdim, err := s.Todo()
	if err != nil {
		return nil, err
	}
	r := &reproduction{s: s, dir: dir, o: o, todo: todo, highdim: highdim, runs: s.Plan(todo, highdim),
		seconds: map[string]float64{}, start: time.Now()}
	if err := os.MkdirAll(r.file("runs"), 0o755); err != nil {
		return nil, err
	}
	return r, nil
}

// file returns the path of name in the directory.
func (r *reproduction) file(name string) string { return filepath.Join(r.dir, name) }

// reproduce runs (or, in a merge, joins) the experiments and writes the
// report into results.md unless this process computes a shard. Every run
// this process computes goes through one scheduler (startScheduler), so
// that an experiment's runs start while the one before it ends or writes
// its files; the files, records and report are written in plan order.
func (r *reproduction) reproduce(ctx context.Context) (string, error) {
	exps, dims, err := r.prepare()
	if err != nil {
		return "", err
	}
	r.sched = startScheduler(ctx, r.jobs, r.workers())
	var report strings.Builder
	for i, e := range r.todo {
		if err = r.experiment(ctx, e, exps[i], &report); err != nil {
			break
		}
	}
	if r.highdim && err == nil {
		err = r.highDim(dims, &report)
	}
	r.sched.stop()
	if err != nil && !errors.Is(err, ErrInterrupted) {
		return "", err
	}
	if ferr := r.finish(err != nil); ferr != nil {
		return "", ferr
	}
	if r.o.Shard {
		return "", err // the report is made by Merge
	}
	fmt.Fprintf(&report, "\nTotal time: %.1f s.\n", time.Since(r.start).Seconds())
	if werr := rundir.WriteBytes(r.file("results.md"), []byte(report.String())); werr != nil {
		return "", werr
	}
	return report.String(), err
}

// prepare plans every run of the reproduction in plan order (begin; in a
// merge this joins the shards' records): the experiments' (one
// experimentRuns each) and highdim's.
func (r *reproduction) prepare() ([]experimentRuns, [][]planned, error) {
	exps := make([]experimentRuns, len(r.todo))
	for i, e := range r.todo {
		var err error
		if exps[i], err = r.prepareExperiment(e); err != nil {
			return nil, nil, err
		}
	}
	if !r.highdim {
		return exps, nil, nil
	}
	dims, err := r.prepareHighDim()
	return exps, dims, err
}

// finish writes summary.json and, with a job, the manifest's end.
func (r *reproduction) finish(interrupted bool) error {
	out := map[string]any{
		"config": map[string]any{"experiment": r.s.Which, "replicates": r.s.Replicates, "scale": r.s.Scale, "seed": r.s.Seed,
			"workers": r.o.Workers, "out": r.dir},
		"runs":           len(r.runs),
		"runs_completed": len(r.seconds),
		"interrupted":    interrupted,
		"seconds":        r.seconds,
		"go_version":     runtime.Version(),
	}
	switch {
	case r.shards != nil:
		out["elapsed_seconds"] = r.shardSeconds
	case r.o.Job != nil:
		out["elapsed_seconds"] = r.o.Job.Elapsed()
	default:
		out["elapsed_seconds"] = time.Since(r.start).Seconds()
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	if err := rundir.WriteBytes(r.file("summary.json"), append(b, '\n')); err != nil {
		return err
	}
	if r.o.Job == nil {
		return nil
	}
	return r.o.Job.Finish(r.o.Job.Manifest.Done, interrupted)
}
