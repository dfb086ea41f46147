package sweep

import (
	"errors"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
)

// TestCheckSize checks the bound on the grid: 100 dims × 1000 seeds is
// MaxCells (accepted), one seed more is refused naming the seeds (the
// longest list), and 2 knots × 50001 dims names the dims.
func TestCheckSize(t *testing.T) {
	s := small()
	s.Chains, s.Knots = []int{4}, []int{1}
	s.Dims, s.Seeds = make([]int, 100), make([]uint64, 1000)
	if err := s.CheckSize(); err != nil {
		t.Errorf("100 × 1000 = MaxCells cells: %v, want nil", err)
	}
	s.Seeds = make([]uint64, 1001)
	var se *SizeError
	if err := s.CheckSize(); !errors.As(err, &se) || se.List != "seeds" || se.Len != 1001 {
		t.Errorf("100 × 1001 cells: %v, want a SizeError naming 1001 seeds", err)
	}
	s.Dims, s.Seeds, s.Knots = make([]int, 50001), []uint64{1}, []int{1, 2}
	if err := s.CheckSize(); !errors.As(err, &se) || se.List != "dims" || se.Len != 50001 {
		t.Errorf("50001 × 2 cells: %v, want a SizeError naming 50001 dims", err)
	}
}

// TestCheckDim checks the chains and knots of a dimension: K = 4 needs 5
// chains (4 are refused with a KnotsError, 5 pass), chains beyond
// MaxChains are a ChainsError, and the automatic ⌈15√d⌉ of d = 2⁶¹
// (15·2^30.5 ≈ 2.2e10 > MaxChains) is a ChainsError marked Auto.
func TestCheckDim(t *testing.T) {
	s := small()
	s.Knots = []int{1, 4}
	s.Chains = []int{4}
	ke, err := s.CheckDim(1)
	if err != nil || ke == nil || ke.Knots != 4 || ke.Chains != 4 || ke.Auto {
		t.Errorf("K = 4 with 4 chains: %+v, %v; want a KnotsError of 4 knots and 4 chains", ke, err)
	}
	s.Chains = []int{5}
	if ke, err := s.CheckDim(1); ke != nil || err != nil {
		t.Errorf("K = 4 with 5 chains: %+v, %v; want nil", ke, err)
	}
	var ce *ChainsError
	s.Chains = []int{MaxChains + 1}
	if _, err := s.CheckDim(1); !errors.As(err, &ce) || ce.Auto || ce.Chains != MaxChains+1 {
		t.Errorf("%d chains: %v, want a ChainsError", MaxChains+1, err)
	}
	s.Chains = nil
	if _, err := s.CheckDim(1 << 61); !errors.As(err, &ce) || !ce.Auto {
		t.Errorf("auto chains of d = 2^61: %v, want a ChainsError marked Auto", err)
	}
}

// TestConfigsAndMemory checks that Configs gives a configuration per cell
// (Spec.Config's), that Memory is the largest cell's batch.EstimateMemory
// plus one cell's rows ((3 + 1) replicates × 13 fields × 40 bytes), and
// that a model that cannot be made is a ModelError naming its dimension.
func TestConfigsAndMemory(t *testing.T) {
	s := small()
	cells := s.Cells()
	cfgs, err := s.Configs(cells, 1)
	if err != nil || len(cfgs) != len(cells) {
		t.Fatalf("Configs: %d, %v; want %d", len(cfgs), err, len(cells))
	}
	var want int64
	for _, cfg := range cfgs {
		n, err := batch.EstimateMemory(cfg)
		if err != nil {
			t.Fatal(err)
		}
		want = max(want, n)
	}
	want += 4 * 13 * 40
	if got, err := s.Memory(cfgs); err != nil || got != want {
		t.Errorf("Memory: %d, %v; want %d", got, err, want)
	}
	s.Sigma = -1 // no Gaussian has a negative standard deviation
	var me *ModelError
	if _, err := s.Configs(cells, 1); !errors.As(err, &me) || me.Dim != 1 {
		t.Errorf("σ = −1: %v, want a ModelError of dimension 1", err)
	}
}
