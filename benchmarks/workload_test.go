package benchmarks

import (
	"errors"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
)

// TestWorkloadMemoryTerms checks Workload.Memory's terms one at a time on
// the default workload (d = 256): a repeat more adds its 6 float64
// samples (48 bytes), a worker more adds the roofline's 8 arrays of d
// float64s (256 · 64 bytes), and the whole is at least the engine's own
// estimate (batch.EstimateMemory of the timed configuration).
func TestWorkloadMemoryTerms(t *testing.T) {
	w := DefaultWorkload()
	w.Workers = 2
	base, err := w.Memory()
	if err != nil {
		t.Fatal(err)
	}
	more := w
	more.Repeats++
	if m, _ := more.Memory(); m-base != 48 {
		t.Errorf("a repeat more adds %d bytes, want 48", m-base)
	}
	more = w
	more.Workers++
	if m, _ := more.Memory(); m-base != 256*64 {
		t.Errorf("a worker more adds %d bytes, want %d", m-base, 256*64)
	}
	cfg, _, _, err := w.Configs()
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := batch.EstimateMemory(cfg); base < e {
		t.Errorf("Memory = %d, below the engine's estimate %d", base, e)
	}
	w.Repeats = 1 << 62 // 48 · 2⁶² bytes overflow an int64
	if _, err := w.Memory(); !errors.Is(err, batch.ErrMemoryOverflow) {
		t.Errorf("Memory of 2⁶² repeats: %v, want batch.ErrMemoryOverflow", err)
	}
}

// TestWorkloadDefaultsAndChecks checks WithModelDefaults (a model other
// than the Gaussian takes its Dim, Sigma, and its Chains and Iterations
// unless kept; an unknown model is refused) and Check's first refusal.
func TestWorkloadDefaultsAndChecks(t *testing.T) {
	w := DefaultWorkload()
	w.Model, w.Chains = BetaBinomial, 7
	got, err := w.WithModelDefaults(true, false)
	def, _ := DefaultWorkloadFor(BetaBinomial)
	if err != nil || got.Dim != def.Dim || got.Chains != 7 || got.Iterations != def.Iterations {
		t.Errorf("betabinomial with chains kept: %+v, %v; want Dim %d, 7 chains, %d iterations", got, err, def.Dim, def.Iterations)
	}
	w.Model = "nope"
	var we *WorkloadError
	if _, err := w.WithModelDefaults(false, false); !errors.As(err, &we) || we.Field != "model" {
		t.Errorf("unknown model: %v, want a *WorkloadError on model", err)
	}
	for _, c := range []struct {
		edit  func(*Workload)
		field string
	}{
		{func(w *Workload) { w.Chains = 1 }, "chains"},
		{func(w *Workload) { w.Replicates = 0 }, "replicates"},
		{func(w *Workload) { w.Iterations = 0 }, "iterations"},
		{func(w *Workload) { w.Workers = -1 }, "workers"},
		{func(w *Workload) { w.Repeats = 0 }, "repeats"},
	} {
		w := DefaultWorkload()
		c.edit(&w)
		if err := w.Check(); !errors.As(err, &we) || we.Field != c.field {
			t.Errorf("%s out of range: %v, want a *WorkloadError on it", c.field, err)
		}
	}
	if err := DefaultWorkload().Check(); err != nil {
		t.Errorf("the default workload: %v", err)
	}
}
