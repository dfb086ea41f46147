package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func runCLI(args ...string) (stdout, stderr string, code int) {
	var out, errw bytes.Buffer
	err := run(context.Background(), args, &out, &errw)
	code = exitCode(err, &errw)
	return out.String(), errw.String(), code
}

// TestBadInputIsOneLineExitTwo checks that every kind of bad input gets one
// line on stderr naming the flag and the value, status 2, and no stdout.
func TestBadInputIsOneLineExitTwo(t *testing.T) {
	cases := []struct {
		args []string
		want string // must appear in the stderr line
	}{
		{[]string{"run", "--model", "nope"}, `--model "nope"`},
		{[]string{"run", "--no-such-flag"}, "no-such-flag"},
		{[]string{"run", "--chains", "1"}, "--chains 1"},
		{[]string{"run", "--dim", "0"}, "--dim"},
		{[]string{"run", "--sigma0", "0"}, "--sigma0"},
		{[]string{"run", "--sigma1", "-2"}, "--sigma1"},
		{[]string{"run", "--mu0", "NaN"}, "--mu0 NaN"},
		{[]string{"run", "--mu1", "Inf"}, "--mu1 Inf"},
		{[]string{"run", "--iterations", "5", "--scans", "10"}, "--iterations 5"},
		{[]string{"run", "--iterations", "1001", "--scans", "10"}, "--iterations 1001"},
		{[]string{"run", "--replicates", "0"}, "--replicates 0"},
		{[]string{"run", "--algorithm", "fast"}, `--algorithm "fast"`},
		{[]string{"run", "--path", "curvy"}, `--path "curvy"`},
		{[]string{"run", "--path", "spline", "--knots", "0"}, "--knots 0"},
		{[]string{"run", "--path", "spline", "--lr", "0"}, "--lr 0"},
		{[]string{"run", "--chains", "abc"}, "abc"},
		{[]string{"run", "extra"}, `"extra"`},
		{[]string{"frobnicate"}, `"frobnicate"`},
	}
	for _, c := range cases {
		out, errs, code := runCLI(c.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", c.args, code)
		}
		if out != "" {
			t.Errorf("%v: wrote to stdout: %q", c.args, out)
		}
		if strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: stderr %q, want one line containing %q", c.args, errs, c.want)
		}
	}
}

// TestRunJSONHasFields checks the JSON output's required fields.
func TestRunJSONHasFields(t *testing.T) {
	out, errs, code := runCLI("run", "--sigma0", "0.1", "--sigma1", "0.1", "--chains", "10",
		"--iterations", "400", "--scans", "4", "--replicates", "3", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	for _, k := range []string{"config", "round_trips", "round_trip_rate", "rejection", "barrier",
		"nonasymptotic_barrier", "tau_predicted", "schedule", "target_mean", "target_var",
		"elapsed_seconds", "chain_steps_per_second", "knots", "skl"} {
		if _, ok := got[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if n := len(got["round_trips"].([]any)); n != 3 {
		t.Errorf("round_trips has %d entries, want 3", n)
	}
	if n := len(got["rejection"].([]any)); n != 9 {
		t.Errorf("rejection has %d entries, want 9", n)
	}
	cfg := got["config"].(map[string]any)
	for _, k := range []string{"model", "chains", "algorithm", "path", "iterations", "scans", "replicates", "seed", "workers", "dim", "sigma0"} {
		if _, ok := cfg[k]; !ok {
			t.Errorf("config lacks %q", k)
		}
	}
}

// TestHelpListsEveryFlag checks that --help prints text for every flag.
func TestHelpListsEveryFlag(t *testing.T) {
	out, _, code := runCLI("run", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	fs := newRunFlagSet(&runFlags{})
	for _, name := range []string{"model", "chains", "algorithm", "path", "knots", "lr", "iterations", "scans",
		"replicates", "seed", "workers", "pin", "json", "dim", "mu0", "mu1", "sigma0", "sigma1",
		"prior-a", "prior-b", "draws", "trials", "success-prob", "keep-scans", "thin", "out"} {
		fl := fs.fs.Lookup(name)
		if fl == nil || fl.Usage == "" {
			t.Errorf("flag --%s missing or without help", name)
			continue
		}
		if !strings.Contains(out, "--"+name+" ") && !strings.Contains(out, "--"+name+"\n") {
			t.Errorf("help does not list --%s", name)
		}
	}
}
