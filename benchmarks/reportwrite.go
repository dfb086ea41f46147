package benchmarks

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteReport prints the report r of workload w (its workers resolved) as
// `ptbatch bench` does: one JSON object (Report.JSON) when jsonOut, else a
// table of ns per element, chain steps per second and the ratios of the
// engine to the scalar engine, the roofline and one worker.
func WriteReport(out io.Writer, w Workload, r *Report, jsonOut bool) error {
	if jsonOut {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(r.JSON(w))
	}
	fmt.Fprintf(out, "cpu: %s, %s, kernels %s, %d workers\n", r.CPU, r.GoVersion, r.KernelImpl, w.Workers)
	done := fmt.Sprint(len(r.EngineSamples))
	if r.Interrupted {
		done = fmt.Sprintf("%d of %d repeats (interrupted)", len(r.EngineSamples), w.Repeats)
	}
	what := fmt.Sprintf("gaussian d=%d, σ=%g", w.Dim, w.Sigma)
	if w.Model != Gaussian {
		what = w.Model + " (an element is one replicate × chain step)"
	}
	fmt.Fprintf(out, "workload: %s, %d chains, %d replicates, %d iterations, median of %s\n\n",
		what, w.Chains, w.Replicates, w.Iterations, done)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tns/element\tchain-steps/s\tratio\t")
	cs := func(ns float64) float64 { return 1e9 / (ns * float64(w.Dim)) }
	fmt.Fprintf(tw, "engine\t%.3f\t%.3g\t1\t\n", r.EngineNs, cs(r.EngineNs))
	fmt.Fprintf(tw, "scalar engine\t%.3f\t%.3g\tengine is %.1f× faster\t\n", r.ScalarNs, cs(r.ScalarNs), r.SpeedupVsScalar())
	fmt.Fprintf(tw, "roofline\t%.3f\t%.3g\tengine at %.0f%% of roofline\t\n", r.RooflineNs, cs(r.RooflineNs), 100*r.FractionOfRoofline())
	if w.Workers > 1 {
		fmt.Fprintf(tw, "engine, 1 worker\t%.3f\t%.3g\t%d workers are %.2f× faster\t\n", r.OneWorkerNs, cs(r.OneWorkerNs), w.Workers, r.WorkerSpeedup())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "\nengine per core: %.3f ns/element; tuning (schedule + K=4 path step) %.2f%% of a %d-iteration scan\n",
		r.EngineNsPerCore(), 100*r.TuningFraction, r.TunedScanIterations)
	return nil
}

// ProgressPrinter returns the progress callback of RunWithProgress that
// `ptbatch bench` prints on w: a line when the timing starts and after
// each repeat.
func ProgressPrinter(w io.Writer) func(done, of int) {
	return func(done, of int) {
		if done == 0 {
			fmt.Fprintf(w, "bench: timing %d repeats\n", of)
			return
		}
		fmt.Fprintf(w, "bench: repeat %d of %d done\n", done, of)
	}
}
