package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/benchmarks"
	"github.com/ptbatch/ptbatch/kernel"
)

// runBench is `ptbatch bench`: the engine, the scalar reference engine and
// the roofline microkernel on one workload, in one process.
func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	w := benchmarks.DefaultWorkload()
	var jsonOut bool
	var maxMemory int64
	impl := ""
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
	c.Bool(&jsonOut, "json", false, "print one JSON object")
	c.String(&impl, "impl", "", "kernel implementation: "+strings.Join(kernel.Impls(), ", ")+" (default: the fastest this CPU has, "+kernel.Impl()+")")
	c.Size(&maxMemory, "max-memory", "refuse workloads whose estimated memory exceeds this size, such as 512MiB or 4GiB (default: the available memory)")
	intro := "Usage: ptbatch bench [flags]\n\nTimes (a) the engine, (b) a plain scalar engine (one replicate at a time, math/rand/v2;\nfor models other than the Gaussian, NRPT around the model's scalar reference) and\n(c) a roofline (the Gaussian: normals + energy FMA stream only; the other models: their\nblock moves alone, without swaps or bookkeeping) on the same workload."
	if err := c.parse(args, stdout, intro); err != nil {
		return err
	}
	if err := c.checkFinite(); err != nil {
		return err
	}
	if w.Model == benchmarks.Logistic {
		return runLogisticBench(ctx, c, w, impl, jsonOut, stdout)
	}
	def, err := benchmarks.DefaultWorkloadFor(w.Model)
	if err != nil {
		return c.bad("model", "want one of %s", strings.Join(benchmarks.ModelNames(), ", "))
	}
	if w.Model != benchmarks.Gaussian {
		for _, name := range []string{"dim", "sigma"} {
			if c.set(name) {
				return c.bad(name, "applies only to --model gaussian")
			}
		}
		w.Dim, w.Sigma = def.Dim, def.Sigma
		if !c.set("chains") {
			w.Chains = def.Chains
		}
		if !c.set("iterations") {
			w.Iterations = def.Iterations
		}
	}
	switch {
	case w.Chains < 2:
		return c.bad("chains", "need at least 2")
	case w.Chains > maxChains:
		return c.bad("chains", "at most %d chains (replica numbers are 32-bit)", maxChains)
	case w.Replicates < 1:
		return c.bad("replicates", "need at least 1")
	case w.Iterations < 1:
		return c.bad("iterations", "need at least 1")
	case w.Workers < 0:
		return c.bad("workers", "need 0 (all CPUs) or more")
	case w.Repeats < 1:
		return c.bad("repeats", "need at least 1")
	}
	if w.Model == benchmarks.Gaussian {
		if err := checkGaussian(c, gaussFlags{dim: "dim", sigma0: "sigma", sigma1: "sigma"}, c.show("dim"), w.Dim, -1, 1, w.Sigma, w.Sigma); err != nil {
			return err
		}
	}
	if impl == "" {
		impl = kernel.Impl()
	} else if !slices.Contains(kernel.Impls(), impl) {
		return c.bad("impl", "want one of %s", strings.Join(kernel.Impls(), ", "))
	}
	w.Workers = effectiveWorkers(w.Workers, w.Replicates)
	if err := checkBenchMemory(c, w, maxMemory); err != nil {
		return err
	}
	restore, err := kernel.SetImpl(impl)
	if err != nil {
		return c.bad("impl", "want one of %s", strings.Join(kernel.Impls(), ", "))
	}
	defer restore()
	rep, err := benchmarks.Run(ctx, w)
	if err != nil {
		return err
	}
	if rep.Interrupted && len(rep.EngineSamples) == 0 {
		return interruptedf("interrupted before the first repeat ended; nothing to report")
	}
	if err := writeBench(stdout, w, rep, jsonOut); err != nil {
		return err
	}
	if rep.Interrupted {
		return interruptedf("interrupted after %d of %d repeats; the report is over the repeats completed", len(rep.EngineSamples), w.Repeats)
	}
	return nil
}

// checkBenchMemory refuses a workload whose largest run (the engine, or
// the tuned run), the roofline's buffers and the samples of every repeat
// do not fit in the memory limit.
func checkBenchMemory(c *cmdFlags, w benchmarks.Workload, maxMemory int64) error {
	cfg, _, tuned, err := w.Configs()
	if err != nil {
		return usagef("bench: %v", err)
	}
	need, err := batch.EstimateMemory(cfg)
	if err == nil {
		var t, extra int64
		if t, err = batch.EstimateMemory(tuned); err == nil {
			need = max(need, t)
			// The roofline's normals per worker, and the scalar engine's
			// state and arrays.
			if extra, err = mulBytes(int64(w.Workers)+1, int64(w.Dim), 8*8); err == nil {
				if need, err = addBytes(need, extra); err == nil {
					if extra, err = mulBytes(int64(w.Repeats), 6*8); err == nil {
						need, err = addBytes(need, extra)
					}
				}
			}
		}
	}
	return checkMemory(c, maxMemory, need, err, []sizeFlag{
		{"dim", float64(w.Dim), 256}, {"chains", float64(w.Chains), 240}, {"replicates", float64(w.Replicates), 64},
		{"repeats", float64(w.Repeats), 5},
	})
}

// writeBench prints the report as JSON or as a table.
func writeBench(stdout io.Writer, w benchmarks.Workload, rep *benchmarks.Report, jsonOut bool) error {
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
			"repeats_completed":              len(rep.EngineSamples),
			"interrupted":                    rep.Interrupted,
		})
	}
	fmt.Fprintf(stdout, "cpu: %s, %s, kernels %s, %d workers\n", rep.CPU, rep.GoVersion, rep.KernelImpl, w.Workers)
	done := fmt.Sprint(len(rep.EngineSamples))
	if rep.Interrupted {
		done = fmt.Sprintf("%d of %d repeats (interrupted)", len(rep.EngineSamples), w.Repeats)
	}
	what := fmt.Sprintf("gaussian d=%d, σ=%g", w.Dim, w.Sigma)
	if w.Model != benchmarks.Gaussian {
		what = w.Model + " (an element is one replicate × chain step)"
	}
	fmt.Fprintf(stdout, "workload: %s, %d chains, %d replicates, %d iterations, median of %s\n\n",
		what, w.Chains, w.Replicates, w.Iterations, done)
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
