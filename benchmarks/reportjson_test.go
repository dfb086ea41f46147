package benchmarks

import "testing"

// TestReportJSON checks the object of a report whose medians are chosen
// so that each ratio is exact: engine 2 ns, scalar 6 ns (3× faster),
// roofline 1 ns (half of it), one worker 8 ns (4 workers 4× faster, and
// 2 ns × 4 workers = 8 ns per core); 2 samples were completed.
func TestReportJSON(t *testing.T) {
	w := DefaultWorkload()
	w.Workers = 4
	r := &Report{Workload: w, CPU: "test", EngineNs: 2, ScalarNs: 6, RooflineNs: 1, OneWorkerNs: 8,
		EngineSamples: []float64{2, 2}, Interrupted: true}
	got := r.JSON(w)
	for key, want := range map[string]any{
		"cpu": "test", "workers": 4, "engine_ns_per_element": 2.0, "speedup_vs_scalar": 3.0,
		"fraction_of_roofline": 0.5, "worker_speedup": 4.0, "engine_ns_per_element_per_core": 8.0,
		"repeats_completed": 2, "interrupted": true,
	} {
		if got[key] != want {
			t.Errorf("%s = %v, want %v", key, got[key], want)
		}
	}
	if got["workload"] != w || len(got) != 21 {
		t.Errorf("workload %v, %d keys; want the workload given and the 21 keys of ptbatch bench --json", got["workload"], len(got))
	}
}
