package paper

import (
	"runtime"
	"slices"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/runout"
)

// Memory returns the estimated memory of a reproduction of the
// experiments todo (and of highdim) with workers workers (0: all CPUs):
// that of the jobs it holds at once, at most the workers largest of the
// plan's (batch.EstimateMemory of MemoryConfigs; a job is a run, or an
// experiment's packed paper methods (pack: one job, or one per worker,
// which may run at once), counted as the sum of theirs:
// its scheduler starts a job while those started and not yet written, its
// own included, fit in the memory of the workers largest), plus the rows an experiment keeps
// until it ends, as strings of about 16 bytes with 16 of header each:
// scans.csv's nine fields per method, replicate and scan (500 scans at
// most), and lambda.csv's five per method, replicate and grid point
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
	ns := make([]int64, len(cfgs))
	for i, cfg := range cfgs {
		if ns[i], err = batch.EstimateMemory(cfg); err != nil {
			return 0, err
		}
	}
	units, err := s.memoryUnits(todo, ns)
	if err != nil {
		return 0, err
	}
	need, err := sumLargest(units, workers)
	if err != nil {
		return need, err
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

// memoryUnits returns the memory of each job of the plan from ns, the
// estimates of MemoryConfigs's runs: an experiment's paper methods, when
// they are packed (packs), as one, the sum of theirs (the bound of their
// packed jobs, which may run at once), and every other run alone.
func (s Settings) memoryUnits(todo []Experiment, ns []int64) ([]int64, error) {
	meths := Methods()
	var units []int64
	for i, e := range todo {
		var sum int64
		packed := 0
		for k, meth := range meths {
			n := ns[i*len(meths)+k]
			if meth.Auto || !packs(s.Reps(e.Replicates)) {
				units = append(units, n)
				continue
			}
			var err error
			if sum, err = runout.AddBytes(sum, n); err != nil {
				return nil, err
			}
			packed++
		}
		if packed > 0 {
			units = append(units, sum)
		}
	}
	return append(units, ns[len(todo)*len(meths):]...), nil
}

// sumLargest returns the sum of the g largest of ns, or an error that
// matches batch.ErrMemoryOverflow when it overflows.
func sumLargest(ns []int64, g int) (int64, error) {
	ns = slices.Clone(ns)
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
