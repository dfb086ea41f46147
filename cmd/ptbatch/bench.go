package main

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/benchmarks"
	"github.com/ptbatch/ptbatch/kernel"
)

// benchOptions are bench's flags that are not the workload's.
type benchOptions struct {
	jsonOut   bool
	maxMemory int64
	impl      string
	flags     *cmdFlags // the parsed flags, for --model logistic's own workload
	quiet     bool      // --quiet: no progress lines on stderr
}

const benchIntro = "Usage: ptbatch bench [flags]\n\nTimes (a) the engine, (b) a plain scalar engine (one replicate at a time, math/rand/v2;\nfor models other than the Gaussian, NRPT around the model's scalar reference) and\n(c) a roofline (the Gaussian: normals + energy FMA stream only; the other models: their\nblock moves alone, without swaps or bookkeeping) on the same workload."

// runBench is `ptbatch bench`: the engine, the scalar reference engine and
// the roofline microkernel on one workload, in one process
// (benchmarks.Run).
func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	w, o, err := parseBench(args, stdout)
	if err != nil {
		return err
	}
	if o.flags != nil {
		return runLogisticBench(ctx, o.flags, w, o.impl, o.jsonOut, stdout)
	}
	restore, err := kernel.SetImpl(o.impl)
	if err != nil {
		return usagef("invalid --impl %q: want one of %s", o.impl, strings.Join(kernel.Impls(), ", "))
	}
	defer restore()
	var progress func(done, of int) // none with --quiet
	if !o.quiet {
		progress = benchmarks.ProgressPrinter(stderr)
	}
	rep, err := benchmarks.RunWithProgress(ctx, w, progress)
	if err != nil {
		return err
	}
	if rep.Interrupted && len(rep.EngineSamples) == 0 {
		return interruptedf("interrupted before the first repeat ended; nothing to report")
	}
	if err := benchmarks.WriteReport(stdout, w, rep, o.jsonOut); err != nil {
		return err
	}
	if rep.Interrupted {
		return interruptedf("interrupted after %d of %d repeats; the report is over the repeats completed", len(rep.EngineSamples), w.Repeats)
	}
	return nil
}

// newBenchFlags declares bench's flags over w and o.
func newBenchFlags(w *benchmarks.Workload, o *benchOptions) *cmdFlags {
	c := newCmdFlags("bench")
	c.String(&w.Model, "model", w.Model, "model to time: "+strings.Join(benchmarks.ModelNames(), ", ")+"; the scalar engine runs the model's plain scalar reference")
	c.Int(&w.Dim, "dim", w.Dim, "--model gaussian: dimension d")
	c.Int(&w.Chains, "chains", w.Chains, "number of chains (gaussian: the paper's ⌈15√d⌉ = 240 at d = 256; betabinomial 50, galaxy and mixture 35 unless given)")
	c.Int(&w.Replicates, "replicates", w.Replicates, "independent replicates (SIMD lanes)")
	c.Int(&w.Iterations, "iterations", w.Iterations, "iterations per timed run (gaussian 50; betabinomial 200, galaxy 10, mixture 4 unless given)")
	c.Float64(&w.Sigma, "sigma", w.Sigma, "--model gaussian: standard deviation of reference and target, in [1e-100, 1e100]")
	c.Int(&w.Workers, "workers", w.Workers, "engine and roofline worker goroutines, at most one per block of 8 replicates; the scalar engine uses one (default 0: all CPUs)")
	c.Int(&w.Repeats, "repeats", w.Repeats, "timed runs of each of the three, interleaved; medians are reported")
	c.Uint64(&w.Seed, "seed", w.Seed, "random seed")
	c.Bool(&o.jsonOut, "json", false, "print one JSON object")
	c.Bool(&o.quiet, "quiet", false, "no progress lines on stderr")
	c.String(&o.impl, "impl", "", "kernel implementation: "+strings.Join(kernel.Impls(), ", ")+" (default: the fastest this CPU has, "+kernel.Impl()+")")
	c.Size(&o.maxMemory, "max-memory", "refuse workloads whose estimated memory exceeds this size, such as 512MiB or 4GiB (default: the available memory)")
	return c
}

// parseBench parses bench's flags into a workload with its model's
// defaults (benchmarks.Workload.WithModelDefaults), checked, its workers
// resolved and its memory within the limit.
func parseBench(args []string, stdout io.Writer) (benchmarks.Workload, benchOptions, error) {
	w, o := benchmarks.DefaultWorkload(), benchOptions{}
	c := newBenchFlags(&w, &o)
	if err := c.parse(args, stdout, benchIntro); err != nil {
		return w, o, err
	}
	if err := c.checkFinite(); err != nil {
		return w, o, err
	}
	if w.Model == benchmarks.Logistic {
		o.flags = c // runLogisticBench reads its own workload's flags
		return w, o, nil
	}
	if _, err := benchmarks.DefaultWorkloadFor(w.Model); err == nil && w.Model != benchmarks.Gaussian {
		for _, name := range []string{"dim", "sigma"} {
			if c.IsSet(name) {
				return w, o, c.bad(name, "applies only to --model gaussian")
			}
		}
	}
	w, err := w.WithModelDefaults(c.IsSet("chains"), c.IsSet("iterations"))
	if err == nil {
		err = w.Check()
	}
	var we *benchmarks.WorkloadError
	if errors.As(err, &we) {
		return w, o, c.bad(we.Field, "%s", we.Reason)
	}
	if w.Model == benchmarks.Gaussian {
		if err := checkGaussian(c, gaussFlags{dim: "dim", sigma0: "sigma", sigma1: "sigma"}, c.Show("dim"), w.Dim, -1, 1, w.Sigma, w.Sigma); err != nil {
			return w, o, err
		}
	}
	if o.impl == "" {
		o.impl = kernel.Impl()
	} else if !slices.Contains(kernel.Impls(), o.impl) {
		return w, o, c.bad("impl", "want one of %s", strings.Join(kernel.Impls(), ", "))
	}
	w.Workers = (&batch.Config{Workers: w.Workers, Replicates: w.Replicates}).EffectiveWorkers()
	return w, o, checkBenchMemory(c, w, o.maxMemory)
}

// checkBenchMemory refuses a workload whose estimate
// (benchmarks.Workload.Memory) exceeds the memory limit.
func checkBenchMemory(c *cmdFlags, w benchmarks.Workload, maxMemory int64) error {
	if _, _, _, err := w.Configs(); err != nil {
		return usagef("bench: %v", err)
	}
	need, err := w.Memory()
	d := benchmarks.DefaultWorkload()
	return checkMemory(c, maxMemory, need, err, []sizeFlag{
		{"dim", float64(w.Dim), float64(d.Dim)}, {"chains", float64(w.Chains), float64(d.Chains)},
		{"replicates", float64(w.Replicates), float64(d.Replicates)}, {"repeats", float64(w.Repeats), float64(d.Repeats)},
	})
}
