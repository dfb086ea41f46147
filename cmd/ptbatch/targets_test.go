package main

import (
	"io"
	"math"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/runout"
)

// TestRunEveryTarget runs each target of the shelf (issue 25) briefly by
// name, with one of its flags given and the others left to the model's
// registry defaults, and checks that the JSON's config holds both (a
// shared flag such as --dim takes the model's default, not the Gaussian's
// 1) and that log Z is a finite number.
func TestRunEveryTarget(t *testing.T) {
	small := []string{"--chains", "5", "--replicates", "2", "--iterations", "100"}
	for _, c := range []struct {
		args []string
		want map[string]float64 // config fields: the flag given, and a default
	}{
		// Defaults from registry/target_*.go and registry/ising.go.
		{[]string{"--model", "toymvn", "--precision", "4"}, map[string]float64{"precision": 4, "dim": 10}},
		{[]string{"--model", "unid", "--n", "1000", "--y", "300"}, map[string]float64{"n": 1000, "y": 300}},
		{[]string{"--model", "cornermix", "--dim", "2"}, map[string]float64{"dim": 2, "mu": 2, "sd": 0.5}},
		{[]string{"--model", "banana", "--curvature", "0.05"}, map[string]float64{"curvature": 0.05, "dim": 2}},
		{[]string{"--model", "ising", "--size", "4", "--beta", "0.3"}, map[string]float64{"size": 4, "beta": 0.3, "field": 0}},
	} {
		obj, _ := runJSON(t, append(c.args, small...)...)
		cfg := obj["config"].(map[string]any)
		if cfg["model"] != c.args[1] {
			t.Errorf("%v: config model %v", c.args, cfg["model"])
		}
		for k, v := range c.want {
			if got, ok := cfg[k].(float64); !ok || got != v {
				t.Errorf("%v: config %s = %v, want %v", c.args, k, cfg[k], v)
			}
		}
		if z, ok := obj["log_z"].(float64); !ok || math.IsNaN(z) || math.IsInf(z, 0) {
			t.Errorf("%v: log_z %v", c.args, obj["log_z"])
		}
		checkOracles(t, c.args, obj)
	}
}

// TestTargetRefusals checks that the targets' flags are refused where
// they do not apply, with one line naming the flag and the models it
// applies to, and that a value the model refuses names its flag.
func TestTargetRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", "--model", "ising", "--dim", "3"}, []string{"--dim 3", "--model toymvn", "--model ising takes --size, --beta and --field"}},
		{[]string{"run", "--model", "gaussian", "--size", "8"}, []string{"--size 8", "applies only to --model ising"}},
		{[]string{"run", "--model", "toymvn", "--explorer", "rwm"}, []string{"--explorer", "exact or Gibbs"}},
		{[]string{"run", "--model", "unid", "--n", "10", "--y", "11"}, []string{"--y 11", "at most n"}},
		{[]string{"run", "--model", "nope"}, []string{`--model "nope"`, "toymvn", "unid", "cornermix", "banana", "ising"}},
		{[]string{"sweep", "--model", "logistic", "--chains", "4"}, []string{`--model "logistic"`, "unid"}},
	} {
		_, errs, code := runCLI(c.args...)
		if code != 2 || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want one line and exit 2", c.args, code, errs)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%v: %q lacks %q", c.args, errs, w)
			}
		}
	}
}

// TestSweepTarget runs one cell of sweep --model unid: the registry's
// targets run in a sweep with their defaults.
func TestSweepTarget(t *testing.T) {
	_, errs, code := runCLI("sweep", "--model", "unid", "--chains", "4", "--knots", "1", "--iterations", "100", "--replicates", "2", "--tuning", "auto", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// checkOracles checks the JSON's log_z_exact and barrier_exact against the
// model's own oracles (runout.ExactLogZ, runout.ExactBarrier), the model
// rebuilt from the flags: barrier_exact is there only for a model with a
// closed-form Λ (toymvn here).
func checkOracles(t *testing.T, args []string, obj map[string]any) {
	t.Helper()
	f, err := parseRunFlags(append([]string{"--quiet"}, args...), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.buildModel()
	if err != nil {
		t.Fatal(err)
	}
	if want, ok := runout.ExactLogZ(m); ok && obj["log_z_exact"] != want {
		t.Errorf("%v: log_z_exact %v, want %v", args, obj["log_z_exact"], want)
	}
	want, ok := runout.ExactBarrier(m)
	if got, has := obj["barrier_exact"]; has != ok || ok && got != want {
		t.Errorf("%v: barrier_exact %v (present %v), want %v (present %v)", args, got, has, want, ok)
	}
	if ok != (args[1] == "toymvn") {
		t.Errorf("%v: a closed-form barrier %v", args, ok)
	}
}
