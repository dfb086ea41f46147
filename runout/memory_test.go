package runout

import (
	"errors"
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// TestOutputMemoryTerms checks each output's share against its formula
// written out by hand (the byte sizes per number are OutputMemory's own
// assumptions: 24 bytes of text and 16 of slice per CSV field, 26 of JSON
// per number, 8 per float64), for a 3-dimensional Gaussian, 10
// replicates, 1000 iterations in 10 scans with the last 5 kept (sizes
// chosen small and distinct so that a swapped factor shows).
func TestOutputMemoryTerms(t *testing.T) {
	g, err := models.NewGaussian(3, -1, 1, 0.3, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	cfg := batch.DefaultConfig(g, 1000)
	cfg.Replicates, cfg.Scans, cfg.KeepScans = 10, 10, 5
	const reps, obs, scans = 10, 3, 10
	kept := int64(1000 / 10 * cfg.KeepScansInEffect())
	base := int64(2*reps*1*(24+26)) + 8*reps*(kept/4+1)*8 // ESS values, diagnostics' copies (Thin 4)
	cases := []struct {
		name string
		o    Outputs
		want int64
	}{
		{"table", Outputs{Thin: 4}, base},
		{"json", Outputs{JSON: true, Thin: 4}, base + 2*reps*(obs-1)*(24+26) + reps*obs*2*(24+8+26)},
		{"dir", Outputs{Dir: true, Thin: 4}, base + reps*scans*7*(16+24) + reps*LambdaPoints*4*(16+24)},
		{"index", Outputs{Thin: 4, Index: &IndexSpec{Replicas: []int{0, 1, 2}}}, base + 2*IndexFigureIterations*3*8},
	}
	for _, c := range cases {
		got, err := OutputMemory(cfg, c.o)
		if err != nil || got != c.want {
			t.Errorf("%s: OutputMemory = %d, %v; want %d", c.name, got, err, c.want)
		}
	}
	// The diagnostics keep at most 2·DiagMaxDraws draws per replicate.
	got, _ := OutputMemory(cfg, Outputs{Thin: 1})
	if want := int64(2*reps*(24+26)) + 8*reps*min(kept+1, 2*DiagMaxDraws)*8; got != want {
		t.Errorf("Thin 1: OutputMemory = %d, want %d", got, want)
	}
}

// TestBytesOverflow: sizes that do not fit in an int64 are
// batch.ErrMemoryOverflow, never a wrapped-around number.
func TestBytesOverflow(t *testing.T) {
	if _, err := MulBytes(math.MaxInt64/2+1, 2); !errors.Is(err, batch.ErrMemoryOverflow) {
		t.Errorf("MulBytes past MaxInt64: %v", err)
	}
	if _, err := MulBytes(-1, 2); !errors.Is(err, batch.ErrMemoryOverflow) {
		t.Errorf("MulBytes of a negative factor: %v", err)
	}
	if _, err := AddBytes(math.MaxInt64, 1); !errors.Is(err, batch.ErrMemoryOverflow) {
		t.Errorf("AddBytes past MaxInt64: %v", err)
	}
	if n, err := MulBytes(3, 0, math.MaxInt64); n != 0 || err != nil {
		t.Errorf("MulBytes with a zero factor = %d, %v; want 0", n, err)
	}
	if n, err := AddBytes(math.MaxInt64-1, 1); n != math.MaxInt64 || err != nil {
		t.Errorf("AddBytes to MaxInt64 = %d, %v", n, err)
	}
}
