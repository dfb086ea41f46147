package benchmarks

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// reportForWrite is TestReportJSON's report, whose ratios are exact
// (engine 2 ns, scalar 6 ns, roofline 1 ns, one worker 8 ns, 4 workers),
// with a tuning fraction of a quarter over scans of 300 iterations.
func reportForWrite() (Workload, *Report) {
	w := DefaultWorkload()
	w.Workers = 4
	return w, &Report{Workload: w, CPU: "test", GoVersion: "go1", KernelImpl: "avx2", EngineNs: 2, ScalarNs: 6,
		RooflineNs: 1, OneWorkerNs: 8, EngineSamples: []float64{2, 2}, Interrupted: true,
		TuningFraction: 0.25, TunedScanIterations: 300}
}

// TestWriteReportTable checks each line of the table, its columns' padding
// collapsed: chain steps per second are 1e9 / (ns × d) with d = 256
// (engine 1e9/512 = 1.95e+06), the ratios are the report's, and the
// per-core cost is 2 ns × 4 workers.
func TestWriteReportTable(t *testing.T) {
	w, r := reportForWrite()
	var buf bytes.Buffer
	if err := WriteReport(&buf, w, r, false); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(buf.String(), "\n") {
		got = append(got, strings.Join(strings.Fields(line), " "))
	}
	want := []string{
		"cpu: test, go1, kernels avx2, 4 workers",
		"workload: gaussian d=256, σ=0.1, 240 chains, 64 replicates, 50 iterations, median of 2 of 5 repeats (interrupted)",
		"",
		"ns/element chain-steps/s ratio",
		"engine 2.000 1.95e+06 1",
		"scalar engine 6.000 6.51e+05 engine is 3.0× faster",
		"roofline 1.000 3.91e+06 engine at 50% of roofline",
		"engine, 1 worker 8.000 4.88e+05 4 workers are 4.00× faster",
		"",
		"engine per core: 8.000 ns/element; tuning (schedule + K=4 path step) 25.00% of a 300-iteration scan",
		"",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	w.Workers, r.Interrupted = 1, false
	buf.Reset()
	if err := WriteReport(&buf, w, r, false); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); strings.Contains(s, "1 worker\t") || strings.Contains(s, "engine, 1 worker") || !strings.Contains(s, "median of 2\n") {
		t.Errorf("one worker, not interrupted: want no one-worker row and \"median of 2\"; got\n%s", s)
	}
}

// TestWriteReportJSON checks that --json prints Report.JSON's 21 keys.
func TestWriteReportJSON(t *testing.T) {
	w, r := reportForWrite()
	var buf bytes.Buffer
	if err := WriteReport(&buf, w, r, true); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 21 || got["speedup_vs_scalar"] != 3.0 || got["repeats_completed"] != 2.0 {
		t.Errorf("JSON %v: want Report.JSON's 21 keys, speedup_vs_scalar 3, repeats_completed 2", got)
	}
}

// TestProgressPrinter calls the printer as RunWithProgress does for 2
// repeats: done = 0 as the timing starts, then 1 and 2.
func TestProgressPrinter(t *testing.T) {
	var buf bytes.Buffer
	p := ProgressPrinter(&buf)
	for done := range 3 {
		p(done, 2)
	}
	want := "bench: timing 2 repeats\nbench: repeat 1 of 2 done\nbench: repeat 2 of 2 done\n"
	if buf.String() != want {
		t.Errorf("progress %q, want %q", buf.String(), want)
	}
}
