package benchmarks

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteLogistic prints r as one JSON object (the fields of `ptbatch bench
// --json`'s report that apply, and speedup_vs_funcs) or as a table.
func WriteLogistic(out io.Writer, r *LogisticReport, jsonOut bool) error {
	w := r.Workload
	if jsonOut {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{
			"workload":                     w,
			"cpu":                          r.CPU,
			"go_version":                   r.GoVersion,
			"kernel_impl":                  r.KernelImpl,
			"workers":                      1,
			"engine_ns_per_element":        r.BatchNs,
			"funcs_ns_per_element":         r.FuncsNs,
			"scalar_ns_per_element":        r.ScalarNs,
			"speedup_vs_funcs":             r.SpeedupVsFuncs(),
			"speedup_vs_scalar":            r.SpeedupVsScalar(),
			"chain_steps_per_second":       1e9 / r.BatchNs,
			"engine_samples_ns":            r.BatchSamples,
			"funcs_samples_ns":             r.FuncsSamples,
			"scalar_samples_ns":            r.ScalarSamples,
			"eval_ns_per_state":            r.EvalNs,
			"dgemm_ns_per_state":           r.DgemmNs,
			"dgemm_gflops":                 r.DgemmGflops,
			"fraction_of_dgemm_throughput": r.FractionOfDgemm(),
			"repeats_completed":            len(r.BatchSamples),
		})
	}
	fmt.Fprintf(out, "cpu: %s, %s, kernels %s, 1 worker\n", r.CPU, r.GoVersion, r.KernelImpl)
	fmt.Fprintf(out, "workload: logistic n=%d, d=%d + intercept, %s, %d chains, %d replicates, %d iterations, median of %d (an element is one replicate × chain step)\n\n",
		w.Rows, w.Covariates, w.Explorer, w.Chains, w.Replicates, w.Iterations, len(r.BatchSamples))
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tns/element\tchain-steps/s\tratio\t")
	fmt.Fprintf(tw, "engine, batched model\t%.0f\t%.3g\t1\t\n", r.BatchNs, 1e9/r.BatchNs)
	fmt.Fprintf(tw, "engine, FromFuncs\t%.0f\t%.3g\tbatched is %.1f× faster\t\n", r.FuncsNs, 1e9/r.FuncsNs, r.SpeedupVsFuncs())
	fmt.Fprintf(tw, "scalar engine\t%.0f\t%.3g\tbatched is %.1f× faster\t\n", r.ScalarNs, 1e9/r.ScalarNs, r.SpeedupVsScalar())
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "\nbatched energies and gradients: %.0f ns per state (%d states a call); Dgemm alone on its two products (X·B, Xᵀ·R): %.0f ns (%.2f GFLOP/s), %.0f%% of the evaluation\n",
		r.EvalNs, w.EvalStates, r.DgemmNs, r.DgemmGflops, 100*r.FractionOfDgemm())
	return nil
}
