package benchmarks

import "fmt"

// LogisticWorkloadOf returns DefaultLogisticWorkload with the chains,
// replicates, iterations, repeats and seed of w that given reports as
// chosen (by their WorkloadError field names, as `ptbatch bench` names
// its flags). The logistic workload has a fixed size and one worker, so a
// chosen dim, sigma, workers or max-memory is a *WorkloadError, and so is
// a chosen count below 1 (chains below 2).
func LogisticWorkloadOf(w Workload, given func(field string) bool) (LogisticWorkload, error) {
	lw := DefaultLogisticWorkload()
	for _, name := range []string{"dim", "sigma", "workers", "max-memory"} {
		if given(name) {
			return lw, &WorkloadError{name, fmt.Sprintf("does not apply to --model logistic (n = %d, d = %d, one worker)", lw.Rows, lw.Covariates)}
		}
	}
	for _, p := range []struct {
		name string
		dst  *int
		v    int
	}{{"chains", &lw.Chains, w.Chains}, {"replicates", &lw.Replicates, w.Replicates}, {"iterations", &lw.Iterations, w.Iterations}, {"repeats", &lw.Repeats, w.Repeats}} {
		if given(p.name) {
			if p.v < 1 || p.name == "chains" && p.v < 2 {
				return lw, &WorkloadError{p.name, "too small"}
			}
			*p.dst = p.v
		}
	}
	if given("seed") {
		lw.Seed = w.Seed
	}
	return lw, nil
}
