package paper

import (
	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/runout"
)

// Memory returns the estimated memory of a reproduction of the
// experiments todo (and of highdim) with workers workers: its largest
// run's (batch.EstimateMemory of MemoryConfigs; the runs are one after
// the other), plus the rows an experiment keeps until it ends, as
// strings of about 16 bytes with 16 of header each: scans.csv's nine
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
	var need int64
	for _, cfg := range cfgs {
		n, err := batch.EstimateMemory(cfg)
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
