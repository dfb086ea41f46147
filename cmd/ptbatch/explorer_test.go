package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
)

// TestExplorerFlagRefusals checks that --explorer is refused, with one
// line naming it and exit status 2, for the models with exact or Gibbs
// moves, and that the funnel's bad values are refused the same way.
func TestExplorerFlagRefusals(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--explorer", "mala"}, "--explorer"},
		{[]string{"run", "--model", "galaxy", "--explorer", "rwm"}, "exact or Gibbs"},
		{[]string{"run", "--model", "betabinomial", "--explorer", "slice"}, "--model betabinomial"},
		{[]string{"run", "--model", "funnel", "--explorer", "nuts"}, "rwm, slice, mala, automala, hmc or autohmc"},
		{[]string{"run", "--model", "funnel", "--dim", "1"}, "--dim 1"},
		{[]string{"run", "--model", "funnel", "--scale", "0"}, "--scale 0"},
		{[]string{"run", "--model", "funnel", "--scale", "100"}, "--scale 100"},
		{[]string{"run", "--model", "gaussian", "--scale", "2"}, "--model funnel"},
		{[]string{"run", "--model", "funnel", "--mu0", "2"}, "--mu0"},
	}
	for _, c := range cases {
		out, errs, code := runCLI(c.args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2, one line containing %q", c.args, code, out, errs, c.want)
		}
	}
}

// TestFunnelRunsWithEveryExplorer runs the funnel briefly with every
// explorer and checks the observables' names and the settings the JSON
// reports.
func TestFunnelRunsWithEveryExplorer(t *testing.T) {
	for _, name := range registry.ExplorerNames {
		obj, _ := runJSON(t, "--model", "funnel", "--dim", "3", "--scale", "1.5", "--explorer", name,
			"--chains", "5", "--replicates", "2", "--iterations", "200")
		if got := fmt.Sprint(obj["observables"]); got != "[v x1 x2]" {
			t.Errorf("%s: observables %s, want [v x1 x2]", name, got)
		}
		cfg := fmt.Sprint(obj["config"])
		if !strings.Contains(cfg, "explorer:"+name) || !strings.Contains(cfg, "scale:1.5") {
			t.Errorf("%s: config %s does not report the explorer and the scale", name, cfg)
		}
	}
}

// TestInvalidProposalWarning checks the one stderr line of a run whose
// explorer met only NaN proposals: the reference draws integers and the
// target is NaN off them, so every random-walk proposal is invalid, at
// every chain but the reference and every scan; and that a healthy run
// prints nothing.
func TestInvalidProposalWarning(t *testing.T) {
	f := models.Funcs{
		Dim:          1,
		LogReference: func(x []float64) float64 { return -x[0] * x[0] / 2 },
		LogTarget: func(x []float64) float64 {
			if x[0] != math.Round(x[0]) {
				return math.NaN()
			}
			return -x[0] * x[0]
		},
		SampleReference: func(r models.Rand, x []float64) { x[0] = math.Round(r.Normal()) },
	}
	m, err := models.FromFuncs(f, models.RandomWalk{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := batch.Config{Model: m, Chains: 4, Replicates: 3, Iterations: 100, Scans: 2, Knots: 1, Seed: 1}
	if _, err := batch.Run(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	warnInvalidProposals(&buf, cfg)
	// 100 iterations × 3 non-reference chains × 3 replicates proposals,
	// all invalid; 2 scans × 3 chains × 3 replicates.
	want := "warning: 900 of 900 proposals had a NaN or -Inf log density; at 18 (replicate, chain, scan) all did, the first at replicate 0, chain 1, scan 1\n"
	if buf.String() != want {
		t.Errorf("warning %q, want %q", buf.String(), want)
	}
	buf.Reset()
	g, _ := models.NewFunnel(2, 1, models.RandomWalk{})
	cfg.Model = g
	if _, err := batch.Run(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	if warnInvalidProposals(&buf, cfg); buf.Len() != 0 {
		t.Errorf("a healthy run warned: %q", buf.String())
	}
}

// funnelStudy is a study file of the 3-d funnel with the explorer as a
// grid axis (two explorers), 2 replicates of 200 iterations, 5 chains.
const funnelStudy = `[study]
name = "funnel"
replicates = 2
iterations = 200
seeds = [1]
chains = 5

[[model]]
name = "funnel"
dim = 3
scale = 2
explorer = ["rwm", "automala"]

[[method]]
label = "paper"
tuning = "paper"
scans = 4
`

// TestFunnelStudy runs a study file of the funnel whose explorer is a
// grid axis: cells.csv has the explorer column and 2 replicates of each
// explorer; an explorer name that does not exist is refused with one line
// at its line of the file.
func TestFunnelStudy(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "funnel.toml")
	if err := os.WriteFile(file, []byte(funnelStudy), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if _, errs, code := runCLI("study", file, "--out", out, "--quiet"); code != 0 {
		t.Fatalf("study: exit %d: %s", code, errs)
	}
	cells, err := os.ReadFile(filepath.Join(out, "cells.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(cells)), "\n")
	if !strings.HasPrefix(lines[0], "run,model,method,explorer,") {
		t.Fatalf("cells.csv header %q has no explorer axis", lines[0])
	}
	count := map[string]int{}
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		if f[1] != "funnel" {
			t.Errorf("cell of model %q", f[1])
		}
		count[f[3]]++
	}
	if count["rwm"] != 2 || count["automala"] != 2 || len(count) != 2 {
		t.Errorf("replicates per explorer %v, want 2 of rwm and 2 of automala", count)
	}
	bad := strings.Replace(funnelStudy, `"automala"]`, `"nuts"]`, 1)
	if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if o, errs, code := runCLI("study", file, "--out", filepath.Join(dir, "bad"), "--quiet"); code != 2 || o != "" ||
		strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "funnel.toml:12") {
		t.Errorf("explorer nuts: exit %d, stderr %q; want 2 and one line at funnel.toml:12", code, errs)
	}
}
