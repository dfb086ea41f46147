package paper

import (
	"fmt"

	"github.com/ptbatch/ptbatch/batch"
)

// Unit is the unit of a reproduction's shards: run k (an experiment's
// method, or a highdim cell, in the order Plan lists them) has units
// First … First + Replicates − 1.
const Unit = "run × replicate"

// Run is one run of a reproduction: an experiment's method or a highdim
// (d, K) cell.
type Run struct {
	Label      string
	Replicates int
	First      int // units [First, First+Replicates) are its replicates
}

// Within returns the replicates [lo, hi) of the run, counted from the
// run's first, that the units [first, end) of a shard hold (a shard of
// Units(runs), rundir.Share); lo == hi when it holds none of them.
func (r Run) Within(first, end int) (lo, hi int) {
	lo, hi = max(r.First, first)-r.First, min(r.First+r.Replicates, end)-r.First
	if lo >= hi {
		return 0, 0
	}
	return lo, hi
}

// Plan lists the runs of the experiments todo (and of highdim) in the
// order a reproduction runs them.
func (s Settings) Plan(todo []Experiment, highdim bool) []Run {
	var runs []Run
	add := func(label string, reps int) {
		first := 0
		if n := len(runs); n > 0 {
			first = runs[n-1].First + runs[n-1].Replicates
		}
		runs = append(runs, Run{Label: label, Replicates: reps, First: first})
	}
	for _, e := range todo {
		for _, m := range Methods() {
			add(e.Name+" "+m.Name, s.Reps(e.Replicates))
		}
	}
	if highdim {
		for _, d := range s.Dims() {
			for _, k := range HighDimKnots() {
				add(HighDimLabel(d, k), s.Reps(HighDimReplicates))
			}
		}
	}
	return runs
}

// Units returns the number of units of the runs.
func Units(runs []Run) int {
	if len(runs) == 0 {
		return 0
	}
	last := runs[len(runs)-1]
	return last.First + last.Replicates
}

// MemoryConfigs returns the configurations of every run of the plan of
// the experiments todo (and of highdim), in plan order, on workers
// workers: those whose memory bounds a reproduction's (Settings.Memory).
func (s Settings) MemoryConfigs(todo []Experiment, highdim bool, workers int) ([]batch.Config, error) {
	var out []batch.Config
	for _, e := range todo {
		m, err := e.NewModel(s.Seed)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", e.Name, err)
		}
		for _, meth := range Methods() {
			out = append(out, meth.Config(e, m, s.Reps(e.Replicates), s.Scaled(e.Iterations, e.Scans), s.Seed, workers))
		}
	}
	if highdim {
		for _, d := range s.Dims() {
			g, err := HighDimModel(d)
			if err != nil {
				return nil, err
			}
			for _, k := range HighDimKnots() {
				out = append(out, s.HighDimConfig(g, d, k, workers))
			}
		}
	}
	return out, nil
}
