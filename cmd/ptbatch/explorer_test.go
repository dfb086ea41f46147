package main

import (
	"fmt"
	"strings"
	"testing"
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
	for name := range explorers {
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
