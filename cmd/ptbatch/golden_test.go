package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// timingFields vary from run to run; everything else in the JSON is a
// function of the flags and the seed.
var timingFields = []string{"elapsed_seconds", "chain_steps_per_second", "tuning_fraction", "go_version", "ess_per_second"}

// runJSONWithoutTimings runs `ptbatch run --json` and returns its output
// with the timing fields removed, re-encoded canonically.
func runJSONWithoutTimings(t *testing.T, args ...string) []byte {
	t.Helper()
	out, errs, code := runCLI(append([]string{"run", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	for _, k := range timingFields {
		if _, ok := obj[k]; !ok {
			t.Fatalf("%v: no field %q", args, k)
		}
		delete(obj, k)
	}
	cfg := obj["config"].(map[string]any)
	delete(cfg, "workers") // the one flag the comparison varies
	b, err := json.MarshalIndent(obj, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// goldenRuns are small runs that between them touch every kernel: the
// Gaussian with d = 3 (odd, so Box–Muller's last row is a half pair),
// tuned schedule and path, both algorithms, the Beta-binomial's rejection
// sampler and the galaxy mixture's moves; the NRPT runs with the paper's
// tuning (--tuning paper, their output since before the automatic tuner
// became the default), and one with the automatic tuner.
var goldenRuns = []struct {
	name string
	args []string
}{
	{"gaussian_nrpt_spline", []string{"--model", "gaussian", "--dim", "3", "--sigma0", "0.3", "--sigma1", "0.3",
		"--chains", "12", "--iterations", "400", "--scans", "4", "--replicates", "10", "--path", "spline", "--knots", "3", "--seed", "7", "--tuning", "paper"}},
	{"gaussian_reversible", []string{"--model", "gaussian", "--dim", "1", "--sigma0", "0.1", "--sigma1", "0.1",
		"--chains", "9", "--iterations", "300", "--scans", "3", "--replicates", "9", "--algorithm", "reversible", "--seed", "3"}},
	{"betabinomial_spline", []string{"--model", "betabinomial", "--chains", "10", "--iterations", "300", "--scans", "3",
		"--replicates", "9", "--path", "spline", "--knots", "2", "--seed", "5", "--tuning", "paper"}},
	{"galaxy_spline", []string{"--model", "galaxy", "--chains", "6", "--iterations", "40", "--scans", "2",
		"--replicates", "9", "--path", "spline", "--knots", "2", "--lr", "0.3", "--seed", "2", "--tuning", "paper"}},
	{"gaussian_auto", []string{"--model", "gaussian", "--dim", "2", "--sigma0", "0.3", "--sigma1", "0.2",
		"--chains", "10", "--iterations", "3000", "--replicates", "9", "--knots", "3", "--seed", "11"}},
}

// TestRunJSONIsGolden checks that the same seed gives the same JSON,
// timings aside, with 1 and 2 workers and under every kernel
// implementation this CPU offers, and that it equals the recorded golden
// file. The golden file is shared by the assembly and the purego builds
// (CI runs both), so it also checks that they agree, and a machine without
// AVX-512 must reproduce it too. Run with -update to rewrite it after an
// intended change of the numbers drawn.
func TestRunJSONIsGolden(t *testing.T) {
	for _, g := range goldenRuns {
		t.Run(g.name, func(t *testing.T) { checkGolden(t, g.name, g.args) })
	}
}

// checkGolden runs `ptbatch run args` with 1 and 2 workers under every
// kernel implementation this CPU offers, checks that the JSON, timings
// aside, is the same in all, and that it equals testdata/NAME.golden.json
// (which -update rewrites).
func checkGolden(t *testing.T, name string, args []string) {
	t.Helper()
	var first []byte
	for _, impl := range availableImpls() {
		restore := useImpl(t, impl)
		for _, workers := range []string{"1", "2"} {
			got := runJSONWithoutTimings(t, append(args, "--workers", workers)...)
			if first == nil {
				first = got
			} else if !bytes.Equal(got, first) {
				t.Errorf("impl %s, %s workers: JSON differs from the first run", impl, workers)
			}
		}
		restore()
	}
	path := filepath.Join("testdata", name+".golden.json")
	if *update {
		if err := os.WriteFile(path, first, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/ptbatch -run Golden -update to create it)", err)
	}
	if !bytes.Equal(first, want) {
		t.Errorf("JSON differs from %s; if the change is intended, rerun with -update", path)
	}
}
