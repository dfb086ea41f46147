package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/paper"
)

// reproduceMethods are the methods every experiment runs, and
// highDimDims the dimensions of highdim (package paper; a test runs
// fewer).
var (
	reproduceMethods = paper.Methods()
	highDimDims      = paper.HighDimDims()
)

// reproduceOptions are the flags of `ptbatch reproduce`: the
// reproduction's settings (package paper) and those that do not change
// its results.
type reproduceOptions struct {
	paper.Settings
	out       string
	workers   int
	quiet     bool
	maxMemory int64
	shard     shardFlags
	job       *reproJob // shards, runs/ and merges (reprojob.go)
}

const reproduceIntro = "Usage: ptbatch reproduce " + paper.Names + " --out DIR [flags]\n\nRuns the paper's experiments with its settings for every method (Reversible+Linear,\nNRPT+Linear, NRPT+Spline with K = 2, 3, 4, 5, 10) and writes CSVs and PNG/SVG figures."

// runReproduce is `ptbatch reproduce`: the paper's experiments (package
// paper), run or sharded, with their report on stdout and in results.md.
func runReproduce(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, c, err := parseReproduce(args, stdout)
	if err != nil {
		return err
	}
	todo, highdim, err := o.Todo()
	if err != nil {
		return usagef("unknown experiment %q: want %s", o.Which, paper.Names)
	}
	if err := o.checkMemory(c, todo, highdim); err != nil {
		return err
	}
	if err := checkOut(c, "out", o.out); err != nil {
		return err
	}
	if o.job, err = startReproduce(c, o, todo, highdim, stderr); err != nil {
		return err
	}
	return reproduce(ctx, o, todo, highdim, stdout, stderr)
}

// parseReproduce parses reproduce's flags and its experiment, given
// before or after the flags, and refuses bad values.
func parseReproduce(args []string, stdout io.Writer) (*reproduceOptions, *cmdFlags, error) {
	o := &reproduceOptions{Settings: paper.Settings{HighDims: highDimDims}}
	c := newCmdFlags("reproduce")
	c.String(&o.out, "out", "", "output directory for CSVs and figures (required)")
	c.Int(&o.Replicates, "replicates", 0, "replicates per method (default 0: the paper's 10, or 5 for highdim)")
	c.Float64(&o.Scale, "scale", 1, "fraction of the paper's iterations to run, in (0, 1] (scans are kept; each scan keeps at least one iteration)")
	c.Uint64(&o.Seed, "seed", 1, "random seed")
	c.Int(&o.workers, "workers", 0, "worker goroutines (default 0: all CPUs)")
	c.Bool(&o.quiet, "quiet", false, "no progress lines on stderr")
	c.Size(&o.maxMemory, "max-memory", "refuse experiments whose estimated memory exceeds this size, such as 512MiB or 4GiB (default: the available memory)")
	addShardFlags(c, &o.shard)
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		o.Which, args = args[0], args[1:]
	}
	err := c.fs.Parse(args)
	if o.Which == "" && c.err == nil && err == nil && c.fs.NArg() > 0 {
		// The experiment after the flags: parse the flags after it too.
		o.Which = c.fs.Arg(0)
		err = c.fs.Parse(c.fs.Args()[1:])
	}
	if err := c.finishParse(err, stdout, reproduceIntro); err != nil {
		return nil, nil, err
	}
	if err := c.checkFinite(); err != nil {
		return nil, nil, err
	}
	switch {
	case o.Which == "":
		return nil, nil, usagef("reproduce needs an experiment: %s", paper.Names)
	case o.out == "":
		return nil, nil, usagef("reproduce needs --out DIR")
	case o.Replicates < 0:
		return nil, nil, c.bad("replicates", "must be at least 1 (or 0 for the paper's)")
	case !(o.Scale > 0) || o.Scale > 1:
		return nil, nil, c.bad("scale", "want a number in (0, 1]")
	case o.workers < 0:
		return nil, nil, c.bad("workers", "need 0 (all CPUs) or more")
	}
	return o, c, nil
}

// mergeReproduce writes the merged output of reproduce's shards from
// their data: the reproduction's settings as the manifests record and
// fingerprint them (paper.Settings.Values; never their arguments), its runs joined from the
// shards' runs/ instead of computed (reproJob.begin), so every CSV,
// figure and results.md comes from the code that makes them in one
// process.
func mergeReproduce(ctx context.Context, shards []shardDir, out string, stderr io.Writer) error {
	s, err := paper.FromConfig(shards[0].m.Config)
	if err != nil {
		return usagef("rebuilding the reproduction from %s: %v", filepath.Join(shards[0].dir, manifestName), err)
	}
	todo, highdim, _ := s.Todo() // FromSettings checked it
	s.HighDims = highDimDims
	o := &reproduceOptions{Settings: s, out: out, quiet: true}
	if o.job, err = mergeReproJob(o, todo, highdim, shards); err != nil {
		return err
	}
	return reproduce(ctx, o, todo, highdim, io.Discard, stderr)
}

// reproduce runs (or, in a merge, joins) the experiments todo and
// highdim, and writes the report into results.md and stdout unless this
// process computes a shard. An interrupted reproduce keeps the runs it
// finished (runs/), the experiments it finished, and writes the report so
// far.
func reproduce(ctx context.Context, o *reproduceOptions, todo []paper.Experiment, highdim bool, stdout, stderr io.Writer) error {
	defer o.job.close()
	start := time.Now()
	var report strings.Builder
	var err error
	for _, e := range todo {
		if err = reproduceExperiment(ctx, e, o, stderr, &report); err != nil {
			break
		}
	}
	if highdim && err == nil {
		err = reproduceHighDim(ctx, o, stderr, &report)
	}
	var ie *interruptedError
	if err != nil && !errors.As(err, &ie) {
		return err
	}
	if ferr := o.job.finish(o, err != nil); ferr != nil {
		return ferr
	}
	if o.job.shardOnly() {
		return err // the report is made by ptbatch merge
	}
	fmt.Fprintf(&report, "\nTotal time: %.1f s.\n", time.Since(start).Seconds())
	if werr := writeBytesAtomic(filepath.Join(o.out, "results.md"), []byte(report.String())); werr != nil {
		return werr
	}
	if _, werr := io.WriteString(stdout, report.String()); werr != nil {
		return werr
	}
	return err
}

// checkMemory refuses the experiments when the largest of their runs does
// not fit in the memory limit (runs are one after the other).
func (o *reproduceOptions) checkMemory(c *cmdFlags, todo []paper.Experiment, highdim bool) error {
	cfgs, err := o.MemoryConfigs(todo, highdim, o.workers)
	if err != nil {
		return err
	}
	var need int64
	for _, cfg := range cfgs {
		var n int64
		n, err = batch.EstimateMemory(cfg)
		if need = max(need, n); err != nil {
			break
		}
	}
	if err == nil {
		// The CSVs of an experiment, kept until it ends: nine fields per
		// method, replicate and scan.
		var rows int64
		if rows, err = mulBytes(int64(len(reproduceMethods)), int64(max(o.Replicates, 10)), 500, 9*(16+16)); err == nil {
			need, err = addBytes(need, rows)
		}
		// lambda.csv: five fields per method, replicate and grid point.
		if err == nil {
			rows, err = mulBytes(int64(len(reproduceMethods)), int64(max(o.Replicates, 10)), lambdaPoints, 5*(16+16))
		}
		if err == nil {
			need, err = addBytes(need, rows)
		}
	}
	return checkMemory(c, o.maxMemory, need, err, []sizeFlag{{"replicates", float64(o.Replicates), 10}})
}
