package main

import (
	"math"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
)

// TestAutoTuningFlagsRefused checks the refusals of --tuning and --chains
// auto: one line on stderr naming the flag, status 2, no stdout.
func TestAutoTuningFlagsRefused(t *testing.T) {
	out := t.TempDir()
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", "--tuning", "fast"}, []string{`--tuning "fast"`, "auto or paper"}},
		{[]string{"run", "--tuning", "auto", "--lr", "0.3"}, []string{"--lr 0.3", "--tuning paper"}},
		{[]string{"run", "--tuning", "auto", "--scans", "10"}, []string{"--scans 10", "--tuning paper"}},
		{[]string{"run", "--tuning", "auto", "--gradient", "full"}, []string{`--gradient "full"`, "block form"}},
		{[]string{"run", "--iterations", "1"}, []string{"--iterations 1", "at least 2"}},
		{[]string{"run", "--keep-scans", "1000", "--json"}, []string{"--keep-scans 1000", "fewer than all 1000 scans"}},
		{[]string{"run", "--tuning", "auto", "--path", "linear", "--tune-schedule=false"}, []string{"--tuning", "something to tune"}},
		{[]string{"run", "--chains", "many"}, []string{`--chains many`, "auto"}},
		{[]string{"run", "--chains", "auto", "--tuning", "paper"}, []string{"--chains auto", "--tuning auto"}},
		{[]string{"run", "--chains", "auto", "--algorithm", "reversible", "--tuning", "auto"}, []string{"--chains auto", "nrpt"}},
		{[]string{"run", "--chains", "auto", "--shard", "1/2", "--out", out}, []string{"--chains auto", "shard"}},
	} {
		stdout, errs, code := runCLI(c.args...)
		if code != 2 || stdout != "" || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2, nothing and one line", c.args, code, stdout, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%v: stderr %q lacks %q", c.args, errs, w)
			}
		}
	}
}

// TestAutoTuningJSON checks the defaults and the JSON of the automatic
// tuner: with only the model's flags, --iterations and --replicates it runs
// --tuning auto on a K = 4 spline (the default for nrpt) in
// batch.AutoScans(--iterations) scans with no learning rate, and reports
// each replicate's rounds and iterations of tuning (within the first half)
// and tail_round_trip_rate with its standard error; --scans or --lr alone
// select the paper's tuning, and reversible PT defaults to it.
func TestAutoTuningJSON(t *testing.T) {
	got, _ := runJSON(t, "--sigma0", "0.2", "--sigma1", "0.2", "--chains", "12", "--iterations", "3000", "--replicates", "5")
	cfg := got["config"].(map[string]any)
	if cfg["tuning"] != "auto" || cfg["path"] != "spline" || cfg["knots"] != 4.0 || cfg["scans"] != float64(batch.AutoScans(3000)) {
		t.Errorf("config %v: want tuning auto, path spline, knots 4, scans %d", cfg, batch.AutoScans(3000))
	}
	if _, ok := cfg["lr"]; ok {
		t.Errorf("config reports a learning rate with --tuning auto: %v", cfg["lr"])
	}
	rounds, iters := got["tuning_rounds"].([]any), got["tuning_iterations"].([]any)
	if len(rounds) != 5 || len(iters) != 5 {
		t.Fatalf("tuning_rounds %v, tuning_iterations %v: want 5 each", rounds, iters)
	}
	for b := range rounds {
		if r, n := rounds[b].(float64), iters[b].(float64); r < 1 || n < 32 || n > 1500 {
			t.Errorf("replicate %d: %v rounds in %v iterations, want at least 1 round, within the first 1500 iterations", b, r, n)
		}
	}
	tail, se := got["tail_round_trip_rate"].(float64), got["tail_round_trip_rate_se"].(float64)
	if !(tail > 0 && se > 0 && se < tail) {
		t.Errorf("tail_round_trip_rate %v ± %v", tail, se)
	}

	for _, args := range [][]string{{"--scans", "6"}, {"--lr", "0.3", "--path", "spline"}, {"--algorithm", "reversible"}} {
		got, _ := runJSON(t, append([]string{"--sigma0", "0.2", "--sigma1", "0.2", "--chains", "6", "--iterations", "600", "--replicates", "2"}, args...)...)
		if cfg := got["config"].(map[string]any); cfg["tuning"] != "paper" {
			t.Errorf("%v: tuning %v, want paper", args, cfg["tuning"])
		}
		if _, ok := got["tuning_rounds"]; ok {
			t.Errorf("%v: tuning_rounds reported with the paper's tuning", args)
		}
	}
}

// TestTailRoundTripRate checks tail_round_trip_rate on a run of 4 scans,
// where the last tenth of the scans is the last scan: it equals
// round_trip_rate, the mean of the last scan's rates, and its standard
// error is their standard deviation over √replicates.
func TestTailRoundTripRate(t *testing.T) {
	got, _ := runJSON(t, "--sigma0", "0.3", "--sigma1", "0.3", "--chains", "8", "--iterations", "2000", "--scans", "4", "--replicates", "6")
	rates := got["round_trip_rates"].([]any)
	mean, ss := 0.0, 0.0
	for _, r := range rates {
		mean += r.(float64) / float64(len(rates))
	}
	for _, r := range rates {
		ss += (r.(float64) - mean) * (r.(float64) - mean)
	}
	se := math.Sqrt(ss/float64(len(rates)-1)) / math.Sqrt(float64(len(rates)))
	if tail := got["tail_round_trip_rate"].(float64); math.Abs(tail-mean) > 1e-12 {
		t.Errorf("tail_round_trip_rate %v, last scan's mean rate %v", tail, mean)
	}
	if g := got["tail_round_trip_rate_se"].(float64); math.Abs(g-se) > 1e-12 {
		t.Errorf("tail_round_trip_rate_se %v, want %v", g, se)
	}
}

// TestChainsAutoJSON checks --chains auto end to end on a small Gaussian:
// the run uses the chains the pilots chose (config.chains equals
// chains_auto.chains), the pilots' cost is the sum of their chains ×
// iterations × replicates, with iterations a tenth of --iterations (at
// least 2000) and at most 8 replicates, and the choice is
// tune.BestChains of the last pilot's barrier (batch.ChooseChains).
func TestChainsAutoJSON(t *testing.T) {
	got, _ := runJSON(t, "--chains", "auto", "--sigma0", "0.1", "--sigma1", "0.1", "--knots", "2", "--iterations", "30000", "--replicates", "3")
	ca, ok := got["chains_auto"].(map[string]any)
	if !ok {
		t.Fatalf("no chains_auto in %v", got)
	}
	if cfg := got["config"].(map[string]any); cfg["chains"] != ca["chains"] {
		t.Errorf("config.chains %v, chains_auto.chains %v", cfg["chains"], ca["chains"])
	}
	cost := 0.0
	for _, p := range ca["pilots"].([]any) {
		p := p.(map[string]any)
		if p["iterations"] != 3000.0 || p["replicates"] != 3.0 {
			t.Errorf("pilot %v: want 3000 iterations and 3 replicates", p)
		}
		cost += p["chains"].(float64) * p["iterations"].(float64) * p["replicates"].(float64)
	}
	if ca["pilot_chain_iterations"] != cost || !(ca["pilot_seconds"].(float64) > 0) {
		t.Errorf("pilot cost %v chain-iterations in %v s, want %v", ca["pilot_chain_iterations"], ca["pilot_seconds"], cost)
	}
	if n := ca["chains"].(float64); n < 3 {
		t.Errorf("chose %v chains", n)
	}
}
