package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/ptbatch/ptbatch/batch"
)

// runOne is `ptbatch run`.
func runOne(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseRunFlags(args, stdout)
	if err != nil {
		return err
	}
	cfg, err := f.config()
	if err != nil {
		return err
	}
	if err := f.chooseChains(ctx, &cfg, stderr); err != nil { // --chains auto (auto.go)
		return err
	}
	job, err := startRun(f, &cfg, stderr) // --shard, and the lock and manifest of --out (shard.go)
	if err != nil {
		return err
	}
	defer job.close()
	ck, err := startCheckpoints(f, stderr) // --checkpoint and --resume (checkpoint.go)
	if err != nil {
		return err
	}
	for _, w := range f.warnings {
		fmt.Fprintf(stderr, "ptbatch: %s\n", w)
	}
	var prog func(batch.Progress)
	if !f.quiet {
		prog = progressPrinter(stderr, "run")
	}
	moments := new(batch.TargetMoments)
	if f.jsonOut || f.out != "" {
		cfg.Statistics = append(cfg.Statistics, moments)
	}
	var samples *sampleWriter
	if f.out != "" {
		if samples, err = newSampleWriter(f.out, cfg.Model.Observables()); err != nil {
			return err
		}
		defer samples.close()
		samples.first = cfg.FirstReplicate
		cfg.Statistics = append(cfg.Statistics, &batch.Samples{Thin: f.thin, Write: samples.write, Flush: samples.flush})
	}
	stats, err := newRunStats(f, &cfg)
	if err != nil {
		return err
	}
	defer stats.close()
	res, err := ck.run(ctx, cfg, prog, samples, stats)
	if err != nil {
		return err
	}
	warnInvalidProposals(stderr, cfg) // explorer.go
	if samples != nil {
		if err := samples.close(); err != nil {
			return err
		}
	}
	if f.out != "" {
		if err := writeCSVs(f.out, f, res); err != nil {
			return err
		}
		if err := stats.writeFiles(f.out, res); err != nil {
			return err
		}
		if err := job.finishRun(res, moments, stats, func(w io.Writer) error { return writeJSON(w, f, res, moments, stats) }); err != nil {
			return err
		}
	}
	if err := stats.printWarnings(stderr, f, res); err != nil { // diagout.go
		return err
	}
	if f.jsonOut {
		err = writeJSON(stdout, f, res, moments, stats)
	} else {
		writeTable(stdout, f, res, stats)
	}
	if err == nil && res.Interrupted {
		err = interruptedf("interrupted after %d of %d scans; the output reports the scans completed", res.Scans, cfg.Scans)
	}
	return err
}

// progressPrinter returns a callback that prints the stage, the percentage
// done and the time left to w, at most once a second and only once the run
// has taken two seconds.
func progressPrinter(w io.Writer, stage string) func(batch.Progress) {
	var last time.Duration
	return func(p batch.Progress) {
		if p.Elapsed < 2*time.Second || (p.Elapsed-last < time.Second && p.Scan < p.Scans) {
			return
		}
		last = p.Elapsed
		frac := float64(p.Scan) / float64(p.Scans)
		left := time.Duration(float64(p.Elapsed) * (1 - frac) / frac)
		fmt.Fprintf(w, "%s: scan %d/%d (%.0f%%), %s elapsed, ~%s left\n",
			stage, p.Scan, p.Scans, 100*frac, p.Elapsed.Round(100*time.Millisecond), left.Round(time.Second))
	}
}
