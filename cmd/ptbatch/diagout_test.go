package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/diag"
	"github.com/ptbatch/ptbatch/runout"
)

// TestRunDiagnosticsMatchSamples checks the diagnostics of `ptbatch run
// --out --json` against diag.Summarize of the draws samples.csv holds
// (read back independently of the run's statistic, and thinned by
// batch.KeepDraws, as ptbatch merge does): the same R-hat, ESS, MCSE and quantiles to the bit, in the JSON
// and in diagnostics.csv, the JSON opening with the headline figures,
// and no warning on the Gaussian, whose exact sampler gives independent
// draws (--thin 2 checks that the statistic keeps what samples.csv keeps).
func TestRunDiagnosticsMatchSamples(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := runCLI("run", "--json", "--quiet", "--dim", "2", "--sigma0", "0.3", "--sigma1", "0.2", "--chains", "8",
		"--iterations", "9000", "--scans", "4", "--replicates", "4", "--thin", "2", "--out", dir)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.HasPrefix(out, "{\n  \"tail_round_trip_rate\": ") {
		t.Errorf("JSON does not open with tail_round_trip_rate: %.80q", out)
	}
	obj := decodeJSON(t, out)
	draws, err := runout.ReadSampleDraws(filepath.Join(dir, "samples.csv"), 10)
	if err != nil {
		t.Fatal(err)
	}
	// 2,250 states per replicate (the last 4,500 iterations, every 2nd),
	// more than 2·diagMaxDraws: the statistic keeps every 2nd of them.
	if len(draws) != 2 || len(draws[0]) != 4 || len(draws[0][0]) != 9000/2/2 {
		t.Fatalf("samples.csv: %d observables, want 2 of 4 replicates × 2250 states", len(draws))
	}
	for k := range draws {
		for b, x := range draws[k] {
			if draws[k][b] = batch.KeepDraws(x, runout.DiagMaxDraws); len(draws[k][b]) != 1125 {
				t.Fatalf("KeepDraws kept %d of 2250, want every 2nd", len(draws[k][b]))
			}
		}
	}
	rows := readCSV(t, filepath.Join(dir, "diagnostics.csv"))
	for k := range draws {
		s, err := diag.Summarize(draws[k])
		if err != nil {
			t.Fatal(err)
		}
		want := []float64{s.Rhat, s.ESSBulk, s.ESSTail, s.MCSE}
		for i, field := range []string{"rhat", "ess_bulk", "ess_tail", "mcse"} {
			if got := floats(t, obj[field])[k]; got != want[i] {
				t.Errorf("%s[%d] = %v, diag.Summarize of samples.csv gives %v", field, k, got, want[i])
			}
		}
		if q := floats(t, obj["quantiles"].([]any)[k]); q[0] != s.Quantiles[0] || q[1] != s.Quantiles[1] || q[2] != s.Quantiles[2] {
			t.Errorf("quantiles[%d] = %v, want %v", k, q, s.Quantiles)
		}
		if rows[k+1][1] != runout.FullFloat(s.Rhat) || rows[k+1][4] != runout.FullFloat(s.ESSBulk) {
			t.Errorf("diagnostics.csv row %v, want R-hat %v and bulk-ESS %v", rows[k+1], s.Rhat, s.ESSBulk)
		}
	}
	if w := obj["warnings"].([]any); len(w) != 0 {
		t.Errorf("warnings %v on exact draws, want none", w)
	}
	for _, name := range []string{"samples.png", "samples.svg"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestRunWarnsWhenUnmixed checks the warnings on a run that cannot have
// mixed: the galaxy mixture with 40 iterations, whose replicates sit in
// different modes (R-hat far above 1.01, as the golden file records).
// The run exits 0; each warning is one line on stderr and in the JSON.
func TestRunWarnsWhenUnmixed(t *testing.T) {
	out, errs, code := runCLI("run", "--json", "--quiet", "--model", "galaxy", "--chains", "6", "--iterations", "40", "--scans", "2",
		"--replicates", "9", "--seed", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	warnings := decodeJSON(t, out)["warnings"].([]any)
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if len(warnings) == 0 || len(lines) != len(warnings) {
		t.Fatalf("%d warnings in the JSON, %d lines on stderr:\n%s", len(warnings), len(lines), errs)
	}
	for i, w := range warnings {
		if lines[i] != "ptbatch: warning: "+w.(string) {
			t.Errorf("stderr line %q, JSON warning %q", lines[i], w)
		}
	}
	for _, want := range []string{"R-hat of mu0", "bulk-ESS of mu0", "standard error of the mean of mu0"} {
		if !strings.Contains(errs, want) {
			t.Errorf("no warning about %q:\n%s", want, errs)
		}
	}
}

// TestTableLeadsWithHeadlines checks that the table opens with the tail
// round-trip rate and log Z, each ± its standard error, and shows the
// diagnostics.
func TestTableLeadsWithHeadlines(t *testing.T) {
	out, errs, code := runCLI("run", "--quiet", "--sigma0", "0.3", "--sigma1", "0.2", "--chains", "8", "--iterations", "400",
		"--scans", "4", "--replicates", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(out, "\n")
	// Line 0 is the configuration; the headlines are lines 1 and 2, in
	// that order.
	if !strings.HasPrefix(lines[0], "model gaussian") || !strings.HasPrefix(lines[1], "round-trip rate (last 10% of iterations)") ||
		!strings.HasPrefix(lines[2], "log Z") || !strings.Contains(lines[1], " ± ") || !strings.Contains(lines[2], " ± ") {
		t.Errorf("table does not lead with the headlines:\n%s", out)
	}
	if !strings.Contains(out, "diagnostics of x0 (3 replicates as chains)") {
		t.Errorf("table lacks the diagnostics of x0:\n%s", out)
	}
	js, errs, code := runCLI("run", "--json", "--quiet", "--sigma0", "0.3", "--sigma1", "0.2", "--chains", "8", "--iterations", "400",
		"--scans", "4", "--replicates", "3")
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errs)
	}
	jl := strings.Split(js, "\n")
	for i, k := range runout.SummaryLead {
		if !strings.HasPrefix(jl[i+1], "  \""+k+"\": ") {
			t.Errorf("JSON line %d is %q, want field %q (the headlines, then the warnings, lead in that order)", i+1, jl[i+1], k)
		}
	}
}

// TestRunWarnsWhenTuningUnsettled checks the warning of a tuned quantity
// that has not settled, on a run whose barrier is still moving: the
// Beta-binomial with the paper's tuning for 3 scans of 100 iterations,
// whose barrier estimate grows by about 0.57 ± 0.01 (10 %) between the
// last two scans (measured: `ptbatch run --model betabinomial --tuning
// paper --scans 3 --iterations 300 --chains 8`), far over the 3 se and
// 5 % of tuningWarnings. The run exits 0 with the warning in the JSON
// and on stderr; 10 scans of 500 iterations settle it and do not warn.
func TestRunWarnsWhenTuningUnsettled(t *testing.T) {
	args := []string{"run", "--json", "--quiet", "--model", "betabinomial", "--tuning", "paper", "--chains", "8"}
	out, errs, code := runCLI(append(args, "--scans", "3", "--iterations", "300")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	const want = "the barrier Λ has not settled"
	if !strings.Contains(errs, "ptbatch: warning: "+want) || !strings.Contains(out, want) {
		t.Errorf("no warning %q; stderr:\n%s", want, errs)
	}
	if _, errs, _ = runCLI(append(args, "--scans", "10", "--iterations", "5000")...); strings.Contains(errs, want) {
		t.Errorf("10 scans of 500 iterations: %s", errs)
	}
}

// TestOneReplicateDiagnostics checks that a run of one replicate says why
// it has no diagnostics instead of reporting NaN (JSON null with the
// reason).
func TestOneReplicateDiagnostics(t *testing.T) {
	obj, _ := runJSON(t, "--sigma0", "0.3", "--sigma1", "0.3", "--chains", "4", "--iterations", "100", "--scans", "2", "--replicates", "1")
	if r := obj["rhat"].([]any); len(r) != 1 || r[0] != nil {
		t.Errorf("rhat %v, want [null]", r)
	}
	if e := obj["diagnostics_errors"].([]any); len(e) != 1 || !strings.Contains(e[0].(string), "at least 2") {
		t.Errorf("diagnostics_errors %v, want the reason", e)
	}
}

// decodeJSON decodes out as a JSON object.
func decodeJSON(t *testing.T, out string) map[string]any {
	t.Helper()
	obj := map[string]any{}
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatal(err)
	}
	return obj
}
