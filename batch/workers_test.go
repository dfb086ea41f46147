package batch

import (
	"runtime"
	"testing"

	"github.com/ptbatch/ptbatch/layout"
)

// TestEffectiveWorkers: Workers, or every CPU for 0, and never more
// workers than blocks of layout.Lanes replicates (one replicate is one
// block; 2·Lanes+1 replicates are three).
func TestEffectiveWorkers(t *testing.T) {
	for _, c := range []struct{ workers, replicates, want int }{
		{3, 100 * layout.Lanes, 3},
		{8, 1, 1},
		{8, 2*layout.Lanes + 1, 3},
		{0, 1000 * layout.Lanes, runtime.NumCPU()},
		{0, 1, 1},
	} {
		cfg := Config{Workers: c.workers, Replicates: c.replicates}
		if got := cfg.EffectiveWorkers(); got != c.want {
			t.Errorf("%d workers, %d replicates: EffectiveWorkers = %d, want %d", c.workers, c.replicates, got, c.want)
		}
	}
}
