package benchmarks

import "runtime"

// JSON returns the report of workload w (its workers resolved) as the
// object `ptbatch bench --json` prints: the workload, the machine, the
// medians and their ratios (Report's methods), and every sample, so a
// program can keep a run's timings as data.
func (r *Report) JSON(w Workload) map[string]any {
	return map[string]any{
		"workload":                       w,
		"cpu":                            r.CPU,
		"go_version":                     r.GoVersion,
		"kernel_impl":                    r.KernelImpl,
		"gomaxprocs":                     runtime.GOMAXPROCS(0),
		"workers":                        w.Workers,
		"engine_ns_per_element":          r.EngineNs,
		"engine_ns_per_element_per_core": r.EngineNsPerCore(),
		"one_worker_ns_per_element":      r.OneWorkerNs,
		"worker_speedup":                 r.WorkerSpeedup(),
		"tuning_fraction":                r.TuningFraction,
		"scalar_ns_per_element":          r.ScalarNs,
		"roofline_ns_per_element":        r.RooflineNs,
		"speedup_vs_scalar":              r.SpeedupVsScalar(),
		"fraction_of_roofline":           r.FractionOfRoofline(),
		"chain_steps_per_second":         r.ChainStepsPerSecond(),
		"engine_samples_ns":              r.EngineSamples,
		"scalar_samples_ns":              r.ScalarSamples,
		"roofline_samples_ns":            r.RooflineSamples,
		"repeats_completed":              len(r.EngineSamples),
		"interrupted":                    r.Interrupted,
	}
}
