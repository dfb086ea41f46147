package paper

import (
	"errors"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
)

// TestMemory checks a reproduction's estimate: the largest of its jobs'
// batch.EstimateMemory (the methods of the Beta-binomial with 3
// replicates, which the runs' CSVs then use at least the paper's 10 of:
// the seven paper methods packed into one job, the sum of theirs, and
// ptbatch auto's run) with 1 worker, and the sum of both with 2, plus the
// rows kept until the experiment
// ends: 8 methods × 10 replicates × 500 scans × 9 fields of 16 + 16 bytes
// (scans.csv) and 8 × 10 × 100 grid points × 5 fields (lambda.csv); and
// that sizes beyond 64 bits are batch.ErrMemoryOverflow.
func TestMemory(t *testing.T) {
	s := Settings{Which: "betabinomial", Replicates: 3, Scale: 1, Seed: 1}
	todo, highdim, _ := s.Todo()
	for _, workers := range []int{1, 2} {
		ns := make([]int64, 2) // the packed paper methods, ptbatch auto
		for _, meth := range Methods() {
			m, err := todo[0].NewModel(1)
			if err != nil {
				t.Fatal(err)
			}
			n, err := batch.EstimateMemory(meth.Config(todo[0], m, 3, 45000, 1, workers))
			if err != nil {
				t.Fatal(err)
			}
			if meth.Auto {
				ns[1] = n
			} else {
				ns[0] += n
			}
		}
		slices.Sort(ns)
		runs := ns[len(ns)-1]
		if workers == 2 {
			runs += ns[len(ns)-2]
		}
		want := runs + 8*10*500*9*32 + 8*10*100*5*32
		if got, err := s.Memory(todo, highdim, workers); err != nil || got != want {
			t.Errorf("%d workers: Memory = %d, %v; want %d", workers, got, err, want)
		}
	}
	s.Replicates = 1 << 61
	if _, err := s.Memory(todo, highdim, 2); !errors.Is(err, batch.ErrMemoryOverflow) {
		t.Errorf("2⁶¹ replicates: %v, want batch.ErrMemoryOverflow", err)
	}
}

// TestMemoryAcrossExperiments checks that the estimate of a reproduction
// of every experiment and highdim counts the two largest jobs of the whole
// plan with 2 workers (its scheduler starts the next experiment's runs
// while one ends), whichever experiments they are, plus the rows: an
// experiment's seven paper methods, packed (3 replicates), are one job.
func TestMemoryAcrossExperiments(t *testing.T) {
	s := Settings{Which: "all", Replicates: 3, Scale: 1, Seed: 1, HighDims: []int{1, 64}}
	todo, highdim, _ := s.Todo()
	var ns []int64
	for _, e := range todo {
		m, err := e.NewModel(1)
		if err != nil {
			t.Fatal(err)
		}
		var packed int64
		for _, meth := range Methods() {
			n, err := batch.EstimateMemory(meth.Config(e, m, 3, s.Scaled(e.Iterations, e.Scans), 1, 2))
			if err != nil {
				t.Fatal(err)
			}
			if meth.Auto {
				ns = append(ns, n)
			} else {
				packed += n
			}
		}
		ns = append(ns, packed)
	}
	for _, d := range s.HighDims {
		g, _ := HighDimModel(d)
		for _, k := range HighDimKnots() {
			n, err := batch.EstimateMemory(s.HighDimConfig(g, d, k, 2))
			if err != nil {
				t.Fatal(err)
			}
			ns = append(ns, n)
		}
	}
	slices.Sort(ns)
	want := ns[len(ns)-1] + ns[len(ns)-2] + 8*10*500*9*32 + 8*10*100*5*32
	if got, err := s.Memory(todo, highdim, 2); err != nil || got != want {
		t.Errorf("Memory = %d, %v; want %d", got, err, want)
	}
}
