package benchmarks

import (
	"errors"
	"slices"
	"testing"
)

// TestLogisticWorkloadOf checks that only the fields given change the
// default logistic workload, and that the fields it does not take, and
// counts too small, are refused naming the field.
func TestLogisticWorkloadOf(t *testing.T) {
	given := func(names ...string) func(string) bool {
		return func(n string) bool { return slices.Contains(names, n) }
	}
	w := Workload{Dim: 7, Chains: 9, Replicates: 3, Iterations: 2, Repeats: 1, Seed: 42, Workers: 4} // arbitrary, unlike the defaults
	lw, err := LogisticWorkloadOf(w, given())
	if err != nil || lw != DefaultLogisticWorkload() {
		t.Fatalf("nothing given: got %+v, %v; want the default", lw, err)
	}
	lw, err = LogisticWorkloadOf(w, given("chains", "seed"))
	want := DefaultLogisticWorkload()
	want.Chains, want.Seed = w.Chains, w.Seed
	if err != nil || lw != want {
		t.Errorf("chains and seed given: got %+v, %v; want %+v", lw, err, want)
	}
	for _, c := range []struct {
		w     Workload
		field string
	}{{w, "workers"}, {w, "dim"}, {Workload{Chains: 1}, "chains"}, {Workload{Repeats: 0}, "repeats"}} {
		_, err := LogisticWorkloadOf(c.w, given(c.field))
		var we *WorkloadError
		if !errors.As(err, &we) || we.Field != c.field {
			t.Errorf("%s given: got %v, want a *WorkloadError on it", c.field, err)
		}
	}
}
