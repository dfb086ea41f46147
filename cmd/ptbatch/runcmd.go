package main

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/internal/cliflag"
	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/runloop"
	"github.com/ptbatch/ptbatch/runout"
)

// runOne is `ptbatch run`.
func runOne(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, cfg, sh, err := prepareRun(ctx, args, stdout)
	if err != nil {
		return err
	}
	job, err := startRun(f, sh, stderr) // the lock of --out; the manifest once the engine is built
	if err != nil {
		return err
	}
	defer job.Close()
	ck, err := startCheckpoints(f, stderr) // --checkpoint and --resume (checkpoint.go)
	if err != nil {
		return err
	}
	var prog func(batch.Progress)
	if !f.quiet {
		prog = runloop.ProgressPrinter(stderr, "run")
	}
	stats, err := newRunStats(f, &cfg) // the target moments, samples.csv, and the statistics of issue 10
	if err != nil {
		return err
	}
	defer stats.Close()
	res, err := ck.finish(runloop.Run(ctx, cfg, ck.options(cfg, prog, stats.Samples, stats, runBegin(f, cfg, sh, job, stderr))))
	if err != nil {
		return err
	}
	warnInvalidProposals(stderr, cfg) // explorer.go
	if runDoneHook != nil {
		runDoneHook()
	}
	return finishOne(f, job, res, stats, stdout, stderr)
}

// runBegin returns what a run does once its engine is built or restored,
// so that a refusal is the only line: it prints --chains auto's choice,
// the warnings, the start line and the shard, then writes the manifest.
func runBegin(f *runFlags, cfg batch.Config, sh *shard, job *rundir.Job, stderr io.Writer) func() error {
	return func() error {
		io.WriteString(stderr, f.chosen)
		for _, w := range f.warnings {
			fmt.Fprintf(stderr, "ptbatch: %s\n", w)
		}
		if !f.quiet {
			startLine(stderr, f, cfg)
		}
		lo, hi := sh.share(f.replicates)
		sh.note(stderr, lo, hi, f.replicates, "replicates")
		return job.Begin()
	}
}

// runDoneHook, when set (by tests), is called once the run's engine has
// stopped and before its files are written: a test sends a signal there.
var runDoneHook func()

// prepareRun parses and checks everything about a run before anything is
// written (issue 26: a refusal writes nothing): the flags, the pilots of
// --chains auto, the shard (its units are replicates), the memory of the
// shard's own replicates (issue 19), the paths, the checkpoint of
// --resume and that --out can be written. It returns the configuration
// narrowed to the shard, and the shard (nil: the whole run).
func prepareRun(ctx context.Context, args []string, stdout io.Writer) (*runFlags, batch.Config, *shard, error) {
	f, err := parseRunFlags(args, stdout)
	if err != nil {
		return nil, batch.Config{}, nil, err
	}
	cfg, err := f.config()
	if err != nil {
		return nil, cfg, nil, err
	}
	sh, err := resolveShard(f.flags, &f.shard)
	if err != nil {
		return nil, cfg, nil, err
	}
	if sh != nil && f.out == "" {
		return nil, cfg, nil, usagef("invalid shard %d/%d (%s): a shard writes its replicates into --out DIR for ptbatch merge; give --out", sh.index, sh.count, sh.source)
	}
	if err := sh.check(f.replicates, "replicates"); err != nil {
		return nil, cfg, nil, err
	}
	// --chains auto (auto.go), on the whole run; its line is printed once
	// nothing is refused (runOne's begin).
	var chosen bytes.Buffer
	if err := f.chooseChains(ctx, &cfg, &chosen); err != nil {
		return nil, cfg, nil, err
	}
	lo, hi := sh.share(f.replicates)
	cfg.FirstReplicate, cfg.Replicates = lo, hi-lo
	what := "the run"
	if sh != nil {
		what = fmt.Sprintf("shard %d/%d (replicates %d to %d)", sh.index, sh.count, lo, hi-1)
	}
	need, err := f.checkMemory(cfg, what)
	if err != nil {
		return nil, cfg, nil, err
	}
	f.need = need
	if err := cfg.Validate(); err != nil {
		return nil, cfg, nil, configUsage(f.flags, err)
	}
	limit, _ := memoryLimit(f.maxMemory)
	if err := f.ck.readResume(f.flags, limit); err != nil {
		return nil, cfg, nil, err
	}
	if f.out != "" {
		if err := checkOut(f.flags, "out", f.out); err != nil {
			return nil, cfg, nil, err
		}
	}
	f.chosen = chosen.String()
	return f, cfg, sh, nil
}

// startRun takes the directory of --out; the job is nil without --out.
// Its manifest is written by begin, once the engine is built or
// restored, so that a refused --resume leaves the directory's manifest
// as it was.
func startRun(f *runFlags, sh *shard, stderr io.Writer) (*rundir.Job, error) {
	if f.out == "" {
		return nil, nil
	}
	m, err := newManifest("run", nil, f.flags, nil, sh, "replicate", f.replicates)
	if err != nil {
		return nil, err
	}
	return holdJob(f.flags, f.out, m, 0, f.ck.resume == "", stderr)
}

// finishOne writes the run's files and prints its table or JSON.
func finishOne(f *runFlags, job *rundir.Job, res *batch.Result, stats *runStats, stdout, stderr io.Writer) error {
	if f.out != "" {
		if err := runout.WriteTables(f.out, res); err != nil {
			return err
		}
		if err := stats.WriteFiles(f.out, res); err != nil {
			return err
		}
		var js bytes.Buffer // summary.json, the JSON --json prints, beside result.gob
		if err := writeJSON(&js, f, res, stats); err != nil {
			return err
		}
		if err := runout.FinishRun(job, stats.RecordMoments(res), js.Bytes()); err != nil {
			return err
		}
	}
	for _, msg := range stats.Diagnostics(res).Warnings {
		fmt.Fprintf(stderr, "ptbatch: warning: %s\n", msg)
	}
	var err error
	if f.jsonOut {
		err = writeJSON(stdout, f, res, stats)
	} else {
		writeTable(stdout, f, res, stats)
	}
	if err == nil && res.Interrupted {
		err = interruptedf("interrupted after %d of %d scans; the output reports the scans completed", res.Scans, res.Config.Scans)
	}
	return err
}

// startLine prints, as the run starts, its size and its estimated
// memory against the limit, so that every run says at once what it
// undertook (issue 26, cause 7: a run of 10¹³ iterations was silent for
// its first scan, which never ended).
func startLine(w io.Writer, f *runFlags, cfg batch.Config) {
	limit, _ := memoryLimit(f.maxMemory)
	fmt.Fprintf(w, "run: %d chains × %d replicates, %d iterations in %d scans of %d; an estimated %s of memory (limit %s)\n",
		cfg.Chains, cfg.Replicates, cfg.Iterations, cfg.Scans, cfg.Iterations/cfg.Scans, cliflag.FormatBytes(f.need), cliflag.FormatBytes(limit))
}
