package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestFunnelExplorersAreGolden runs the 3-d funnel briefly with every
// explorer and checks that the JSON, timings aside, is the same with 1
// and 2 workers and under every kernel implementation this CPU offers,
// and equals testdata/funnel_EXPLORER.golden.json. The files are shared
// by the assembly and the purego builds (CI runs both), so they also
// check that the two agree for every explorer. Run with -update to
// rewrite them after an intended change of the numbers drawn.
func TestFunnelExplorersAreGolden(t *testing.T) {
	for name := range explorers {
		t.Run(name, func(t *testing.T) {
			args := []string{"--model", "funnel", "--dim", "3", "--scale", "2", "--explorer", name, "--chains", "6",
				"--iterations", "300", "--replicates", "9", "--knots", "2", "--seed", "4", "--keep-scans", "100"}
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
			path := filepath.Join("testdata", "funnel_"+name+".golden.json")
			if *update {
				if err := os.WriteFile(path, first, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/ptbatch -run TestFunnelExplorersAreGolden -update to create it)", err)
			}
			if !bytes.Equal(first, want) {
				t.Errorf("JSON differs from %s; if the change is intended, rerun with -update", path)
			}
		})
	}
}
