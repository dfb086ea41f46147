package main

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/paper"
	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/runloop"
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
}

const reproduceIntro = "Usage: ptbatch reproduce " + paper.Names + " --out DIR [flags]\n\nRuns the paper's experiments with its settings for every method (Reversible+Linear,\nNRPT+Linear, NRPT+Spline with K = 2, 3, 4, 5, 10) and writes CSVs and PNG/SVG figures."

// runReproduce is `ptbatch reproduce`: the paper's experiments
// (paper.Reproduce), run or sharded, with their report on stdout and in
// results.md.
func runReproduce(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, c, err := parseReproduce(args, stdout)
	if err != nil {
		return err
	}
	todo, highdim, err := o.Todo()
	if err != nil {
		return usagef("unknown experiment %q: want %s", o.Which, paper.Names)
	}
	need, err := o.Memory(todo, highdim, o.workers)
	if err := checkMemory(c, o.maxMemory, need, err, []sizeFlag{{"replicates", float64(o.Replicates), 10}}); err != nil {
		return err
	}
	if err := checkOut(c, "out", o.out); err != nil {
		return err
	}
	j, shard, err := startReproduce(c, o, paper.Units(o.Plan(todo, highdim)), stderr)
	if err != nil {
		return err
	}
	defer j.Close()
	po := paper.Options{Workers: o.workers, Job: j, Shard: shard}
	if !o.quiet {
		w := runloop.SyncWriter(stderr) // concurrent runs print at once
		po.Progress = func(label string) func(batch.Progress) { return runloop.ProgressPrinter(w, label) }
	}
	report, err := paper.Reproduce(ctx, o.Settings, o.out, po)
	return reproduced(report, err, o.out, stdout)
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

// startReproduce chooses the shard of units, takes --out and writes its
// manifest; it reports whether this process computes a shard.
func startReproduce(c *cmdFlags, o *reproduceOptions, units int, stderr io.Writer) (*rundir.Job, bool, error) {
	sh, err := resolveShard(c, &o.shard)
	if err != nil {
		return nil, false, err
	}
	if err := sh.check(units, paper.Unit+" units"); err != nil {
		return nil, false, err
	}
	m, err := newManifest("reproduce", o.Values(), c, []string{o.Which}, sh, paper.Unit, units)
	if err != nil {
		return nil, false, err
	}
	j, err := startJob(c, o.out, m, 0, true, stderr)
	if err != nil {
		return nil, false, err
	}
	lo, hi := sh.share(units)
	sh.note(stderr, lo, hi, units, paper.Unit+" units") // after the refusals: one line each
	return j, sh != nil, nil
}

// mergeReproduce writes the merged output of reproduce's shards from
// their data (paper.Merge): the reproduction's settings as the manifests
// record and fingerprint them (paper.FromConfig; never their arguments),
// its runs joined from the shards' runs/ instead of computed.
func mergeReproduce(ctx context.Context, out string, shards []rundir.Shard, _ *rundir.Manifest) error {
	s, err := paper.FromConfig(shards[0].Manifest.Config)
	if err != nil {
		return usagef("rebuilding the reproduction from %s: %v", filepath.Join(shards[0].Dir, rundir.ManifestName), err)
	}
	s.HighDims = highDimDims
	report, err := paper.Merge(ctx, s, out, shards, paper.Options{})
	return reproduced(report, err, out, io.Discard)
}

// reproduced prints the report and turns the library's errors into the
// command's: an interruption (exit 130) that names out, a merge's refusal
// of its shards (exit 2).
func reproduced(report string, err error, out string, stdout io.Writer) error {
	var ie *paper.InterruptedError
	switch {
	case errors.As(err, &ie):
		err = interruptedf("interrupted during %s; the files of the experiments finished are in %s", ie.During, out)
	case errors.Is(err, paper.ErrJoin):
		return usagef("%v", err)
	case err != nil:
		return shardUsage(err)
	}
	if _, werr := io.WriteString(stdout, report); werr != nil {
		return werr
	}
	return err
}
