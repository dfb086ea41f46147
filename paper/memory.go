package paper

import (
	"runtime"
	"slices"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/runout"
)

// Memory returns the estimated memory of a reproduction of the
// experiments todo (and of highdim) with workers workers (0: all CPUs):
// that of the largest runs it makes at once (batch.EstimateMemory of
// MemoryConfigs; an experiment runs methodsAtOnce of its methods at the
// same time, and the sum of its largest as many counts), plus the rows an
// experiment keeps until it ends, as strings of about 16 bytes with 16 of
// header each: scans.csv's nine
// fields per method, replicate and scan (500 scans at most), and
// lambda.csv's five per method, replicate and grid point
// (runout.LambdaPoints), with at least the paper's 10 replicates. An
// error of a model is returned as it is, and so is an estimate's
// (batch.ErrMemoryOverflow when the sizes overflow).
func (s Settings) Memory(todo []Experiment, highdim bool, workers int) (int64, error) {
	cfgs, err := s.MemoryConfigs(todo, highdim, workers)
	if err != nil {
		return 0, err
	}
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	var need int64
	per := len(Methods())
	for lo := 0; lo < len(cfgs); lo += per {
		group := cfgs[lo:min(lo+per, len(cfgs))] // an experiment's methods, or highdim's run
		n, err := largestAtOnce(group, methodsAtOnce(group[0].Replicates, workers))
		if err != nil {
			return need, err
		}
		need = max(need, n)
	}
	methods, reps := int64(len(Methods())), int64(max(s.Replicates, 10))
	for _, rows := range [][]int64{{methods, reps, 500, 9 * (16 + 16)}, {methods, reps, runout.LambdaPoints, 5 * (16 + 16)}} {
		n, err := runout.MulBytes(rows...)
		if err == nil {
			need, err = runout.AddBytes(need, n)
		}
		if err != nil {
			return need, err
		}
	}
	return need, nil
}

// largestAtOnce returns the sum of the g largest estimates
// (batch.EstimateMemory) of cfgs.
func largestAtOnce(cfgs []batch.Config, g int) (int64, error) {
	ns := make([]int64, len(cfgs))
	for i, cfg := range cfgs {
		n, err := batch.EstimateMemory(cfg)
		if err != nil {
			return 0, err
		}
		ns[i] = n
	}
	slices.Sort(ns)
	var sum int64
	for _, n := range ns[max(len(ns)-g, 0):] {
		var err error
		if sum, err = runout.AddBytes(sum, n); err != nil {
			return sum, err
		}
	}
	return sum, nil
}
