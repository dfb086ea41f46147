package batch

import "github.com/ptbatch/ptbatch/layout"

// EffectiveWorkers returns the number of worker goroutines a run of c
// uses: Workers, or runtime.NumCPU() for 0, and at most one per block of
// layout.Lanes replicates, since a worker owns whole blocks.
func (c *Config) EffectiveWorkers() int {
	return c.workers(layout.Shape{Replicates: c.Replicates}.Blocks())
}
