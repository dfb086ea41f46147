package main

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/registry"
	"github.com/ptbatch/ptbatch/study"
)

// stabilizedArgs is a small run of the stabilised two-leg PT: 9 chains,
// 5 on leg 1 (the spline of K = 4 needs 5) and 4 on leg 2.
var stabilizedArgs = []string{"run", "--reference", "stabilized", "--sigma0", "0.3", "--sigma1", "0.3", "--chains", "9",
	"--iterations", "2000", "--replicates", "3", "--quiet"}

// TestStabilizedRefusals checks --reference stabilized's refusals (exit
// 2, one line): a model whose state is not unconstrained real (the
// Beta-binomial, whose moves are also exact draws: the engine refuses
// those in a run with two legs, batch.Config.VariationalLeg), too few
// chains for two legs, a spline with more knots than leg 1 has chains −
// 1, chains chosen by pilots, and a family with the fixed reference.
func TestStabilizedRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--model", "betabinomial"}, []string{"--reference stabilized", "unconstrained real"}},
		{[]string{"--model", "ising"}, []string{"--reference stabilized", "unconstrained real"}},
		{[]string{"--chains", "3", "--path", "linear"}, []string{"--chains 3", "at least 4 chains"}},
		{[]string{"--chains", "8"}, []string{"--chains 8", "leg 1's, which has 4", "--knots 4 needs 5 there, 9 chains or more"}},
		{[]string{"--chains", "auto"}, []string{"--chains auto", "does not apply to --reference stabilized"}},
		{[]string{"--variational", "sparse"}, []string{"--reference stabilized", "unknown variational family"}},
	} {
		refused(t, append([]string{"run", "--reference", "stabilized", "--iterations", "100"}, c.args...), c.want...)
	}
	refused(t, []string{"run", "--reference", "prior"}, `--reference "prior"`, "want fixed, variational or stabilized")
	refused(t, []string{"run", "--variational", "dense"}, `--variational "dense"`, "applies only to --reference variational and stabilized")
}

// TestStabilizedRunIsTheStudys checks that `ptbatch run --reference
// stabilized` is the study's method of the same settings (study.Method
// with Reference "stabilized", half the chains on leg 2): its --json
// gives the round trips and each leg's figures of batch.Run on that
// configuration, bit for bit; each replicate's round trips are its legs'
// sum; and the table has one row per leg.
func TestStabilizedRunIsTheStudys(t *testing.T) {
	var got struct {
		RoundTrips []int `json:"round_trips"`
		Legs       []struct {
			Chains     int       `json:"chains"`
			RoundTrips []int     `json:"round_trips"`
			Restarts   []int     `json:"restarts"`
			Barriers   []float64 `json:"barriers"`
			Rates      []float64 `json:"round_trip_rates"`
		} `json:"legs"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, withArgs(stabilizedArgs, "--json")...)), &got); err != nil {
		t.Fatal(err)
	}
	m, err := registry.New(registry.Gaussian, registry.Values{"sigma0": 0.3, "sigma1": 0.3}, 1)
	if err != nil {
		t.Fatal(err)
	}
	run := study.Run{Method: study.Method{Label: "stabilized", Reference: "stabilized", Chains: 9}, Seed: 1, Iterations: 2000, Replicates: 3}
	cfg, err := run.Config(m)
	if err != nil {
		t.Fatal(err)
	}
	res, err := batch.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.VariationalLeg != 4 || len(got.Legs) != 2 || got.Legs[0].Chains != 5 || got.Legs[1].Chains != 4 {
		t.Fatalf("VariationalLeg %d, legs %+v; want 4 chains on leg 2 and 5 on leg 1", cfg.VariationalLeg, got.Legs)
	}
	for b, want := range res.Legs {
		if got.RoundTrips[b] != res.RoundTrips[b] || got.RoundTrips[b] != got.Legs[0].RoundTrips[b]+got.Legs[1].RoundTrips[b] {
			t.Errorf("replicate %d: round trips %d (legs %d + %d), the study's %d", b, got.RoundTrips[b], got.Legs[0].RoundTrips[b], got.Legs[1].RoundTrips[b], res.RoundTrips[b])
		}
		for leg, w := range want {
			l := got.Legs[leg]
			if l.RoundTrips[b] != w.RoundTrips || l.Restarts[b] != w.Restarts || l.Barriers[b] != w.Barrier || l.Rates[b] != w.RoundTripRate {
				t.Errorf("replicate %d, leg %d: %d round trips, %d restarts, Λ %v, rate %v; the study's %+v", b, leg+1, l.RoundTrips[b], l.Restarts[b], l.Barriers[b], l.Rates[b], w)
			}
		}
	}
	table := mustRun(t, stabilizedArgs...)
	for i, row := range [][2]string{{"leg 1 (model's reference → target)", "  5 chains; barrier Λ "}, {"leg 2 (target → fitted Gaussian)", "  4 chains; barrier Λ "}} {
		lines := strings.Split(table, "\n")
		at := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, row[0]) && strings.Contains(l, row[1]) })
		if at < 0 || strings.Count(table, row[0]) != 1 || !strings.HasPrefix(lines[at-1-i], "restarts (all scans") {
			t.Errorf("the table lacks the row %q … %q after the restarts:\n%s", row[0], row[1], table)
		}
	}
}

// TestStabilizedCheckpointResume checks checkpoint and resume of a run
// with the stabilized reference through the command line, as
// TestFunnelCheckpointResume does the funnel's: stopped right after its
// first checkpoint (scan 2 of 6, while the Gaussian of leg 2 is still
// refitted at every scan, over the first 3), resumed on 2 workers, its
// JSON (each leg's figures included) equals an uninterrupted run's
// byte for byte, timings aside.
func TestStabilizedCheckpointResume(t *testing.T) {
	whole := checkResumeIsWhole(t, []string{"run", "--reference", "stabilized", "--sigma0", "0.3", "--sigma1", "0.3", "--chains", "8", "--path", "linear",
		"--replicates", "9", "--iterations", "600", "--scans", "6", "--tuning", "paper", "--json", "--quiet"})
	if !strings.Contains(whole, `"legs"`) {
		t.Fatalf("the run's JSON has no legs:\n%s", whole)
	}
}
