package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/ptbatch/ptbatch/benchmarks"
	"github.com/ptbatch/ptbatch/kernel"
)

// runBench is `ptbatch bench`: the engine, the scalar reference engine and
// the roofline microkernel on one workload, in one process.
func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	w := benchmarks.DefaultWorkload()
	var jsonOut bool
	impl := kernel.Impl()
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.IntVar(&w.Dim, "dim", w.Dim, "Gaussian dimension d")
	fs.IntVar(&w.Chains, "chains", w.Chains, "number of chains (the paper's ⌈15√d⌉ = 240 at d = 256)")
	fs.IntVar(&w.Replicates, "replicates", w.Replicates, "independent replicates (SIMD lanes)")
	fs.IntVar(&w.Iterations, "iterations", w.Iterations, "iterations per timed run")
	fs.Float64Var(&w.Sigma, "sigma", w.Sigma, "standard deviation of reference and target")
	fs.IntVar(&w.Workers, "workers", w.Workers, "engine and roofline worker goroutines (the scalar engine uses one)")
	fs.IntVar(&w.Repeats, "repeats", w.Repeats, "timed runs of each of the three, interleaved; medians are reported")
	fs.Uint64Var(&w.Seed, "seed", w.Seed, "random seed")
	fs.BoolVar(&jsonOut, "json", false, "print one JSON object")
	fs.StringVar(&impl, "impl", impl, "kernel implementation: "+strings.Join(kernel.Impls(), ", ")+" (default: the fastest this CPU has)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprintln(stdout, "Usage: ptbatch bench [flags]\n\nTimes (a) the engine, (b) a plain scalar engine (math/rand/v2, one replicate at a time)\nand (c) a roofline microkernel (normals + energy FMA stream only) on the same Gaussian workload.\n\nFlags:")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return errHelp
		}
		return usagef("%v", err)
	}
	switch {
	case fs.NArg() > 0:
		return usagef("unexpected argument %q", fs.Arg(0))
	case w.Dim < 1:
		return usagef("invalid --dim %d: need at least 1", w.Dim)
	case w.Chains < 2:
		return usagef("invalid --chains %d: need at least 2", w.Chains)
	case w.Replicates < 1:
		return usagef("invalid --replicates %d: need at least 1", w.Replicates)
	case w.Iterations < 1:
		return usagef("invalid --iterations %d: need at least 1", w.Iterations)
	case !(w.Sigma > 0) || math.IsInf(w.Sigma, 0):
		return usagef("invalid --sigma %v: must be positive and finite", w.Sigma)
	case w.Workers < 1:
		return usagef("invalid --workers %d: need at least 1", w.Workers)
	case w.Repeats < 1:
		return usagef("invalid --repeats %d: need at least 1", w.Repeats)
	}
	restore, err := kernel.SetImpl(impl)
	if err != nil {
		return usagef("invalid --impl %q: want one of %s", impl, strings.Join(kernel.Impls(), ", "))
	}
	defer restore()
	rep, err := benchmarks.Run(ctx, w)
	if err != nil {
		return err
	}
	if jsonOut {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{
			"workload":                       w,
			"cpu":                            rep.CPU,
			"go_version":                     rep.GoVersion,
			"kernel_impl":                    rep.KernelImpl,
			"gomaxprocs":                     runtime.GOMAXPROCS(0),
			"workers":                        w.Workers,
			"engine_ns_per_element":          rep.EngineNs,
			"engine_ns_per_element_per_core": rep.EngineNsPerCore(),
			"one_worker_ns_per_element":      rep.OneWorkerNs,
			"worker_speedup":                 rep.WorkerSpeedup(),
			"tuning_fraction":                rep.TuningFraction,
			"scalar_ns_per_element":          rep.ScalarNs,
			"roofline_ns_per_element":        rep.RooflineNs,
			"speedup_vs_scalar":              rep.SpeedupVsScalar(),
			"fraction_of_roofline":           rep.FractionOfRoofline(),
			"chain_steps_per_second":         rep.ChainStepsPerSecond(),
			"engine_samples_ns":              rep.EngineSamples,
			"scalar_samples_ns":              rep.ScalarSamples,
			"roofline_samples_ns":            rep.RooflineSamples,
		})
	}
	fmt.Fprintf(stdout, "cpu: %s, %s, kernels %s, %d workers\n", rep.CPU, rep.GoVersion, rep.KernelImpl, w.Workers)
	fmt.Fprintf(stdout, "workload: gaussian d=%d, %d chains, %d replicates, σ=%g, %d iterations, median of %d\n\n",
		w.Dim, w.Chains, w.Replicates, w.Sigma, w.Iterations, w.Repeats)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tns/element\tchain-steps/s\tratio\t")
	cs := func(ns float64) float64 { return 1e9 / (ns * float64(w.Dim)) }
	fmt.Fprintf(tw, "engine\t%.3f\t%.3g\t1\t\n", rep.EngineNs, cs(rep.EngineNs))
	fmt.Fprintf(tw, "scalar engine\t%.3f\t%.3g\tengine is %.1f× faster\t\n", rep.ScalarNs, cs(rep.ScalarNs), rep.SpeedupVsScalar())
	fmt.Fprintf(tw, "roofline\t%.3f\t%.3g\tengine at %.0f%% of roofline\t\n", rep.RooflineNs, cs(rep.RooflineNs), 100*rep.FractionOfRoofline())
	if w.Workers > 1 {
		fmt.Fprintf(tw, "engine, 1 worker\t%.3f\t%.3g\t%d workers are %.2f× faster\t\n", rep.OneWorkerNs, cs(rep.OneWorkerNs), w.Workers, rep.WorkerSpeedup())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nengine per core: %.3f ns/element; tuning (schedule + K=4 path step) %.2f%% of a %d-iteration scan\n",
		rep.EngineNsPerCore(), 100*rep.TuningFraction, rep.TunedScanIterations)
	return nil
}
