package main

import (
	"testing"

	"github.com/ptbatch/ptbatch/registry"
)

// TestFunnelExplorersAreGolden runs the 3-d funnel briefly with every
// explorer and checks that the JSON, timings aside, is the same with 1
// and 2 workers and under every kernel implementation this CPU offers,
// and equals testdata/funnel_EXPLORER.golden.json. The files are shared
// by the assembly and the purego builds (CI runs both), so they also
// check that the two agree for every explorer. Run with -update to
// rewrite them after an intended change of the numbers drawn.
func TestFunnelExplorersAreGolden(t *testing.T) {
	for _, name := range registry.ExplorerNames {
		t.Run(name, func(t *testing.T) {
			checkGolden(t, "funnel_"+name, []string{"--model", "funnel", "--dim", "3", "--scale", "2", "--explorer", name, "--chains", "6",
				"--iterations", "300", "--replicates", "9", "--knots", "2", "--seed", "4", "--keep-scans", "100"})
		})
	}
}
