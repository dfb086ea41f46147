package sweep

import (
	"fmt"
	"math"
	"slices"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/runout"
)

// MaxCells bounds a sweep's grid: every cell is a run of its own.
const MaxCells = 100000

// MaxChains is the most chains a cell may have: replica numbers are
// 32-bit.
const MaxChains = math.MaxInt32

// SizeError refuses a grid of more than MaxCells cells: List names the
// longest of its lists ("dims", "chains", "knots" or "seeds", the seeds
// on a tie) and Len is its length.
type SizeError struct {
	List string
	Len  int
}

// Error says how large the grid is.
func (e *SizeError) Error() string {
	return fmt.Sprintf("sweep: the grid has more than %d cells (%d %s)", MaxCells, e.Len, e.List)
}

// ChainsError refuses the Chains of dimension Dim, more than MaxChains;
// Auto reports that they are AutoChains(Dim) (Spec.Chains nil).
type ChainsError struct {
	Dim    int
	Chains float64
	Auto   bool
}

// Error names the chains.
func (e *ChainsError) Error() string {
	return fmt.Sprintf("sweep: %.0f chains in dimension %d, more than %d", e.Chains, e.Dim, MaxChains)
}

// KnotsError refuses Knots spline segments with the Chains of dimension
// Dim: more than Chains − 1, so that some segment holds no chain of the
// starting uniform schedule (Auto as in ChainsError).
type KnotsError struct {
	Knots, Chains, Dim int
	Auto               bool
}

// Error names the knots and the chains.
func (e *KnotsError) Error() string {
	return fmt.Sprintf("sweep: %d segments with %d chains (dimension %d): at most chains − 1", e.Knots, e.Chains, e.Dim)
}

// ModelError refuses a cell of dimension Dim whose model cannot be made.
type ModelError struct {
	Dim int
	Err error
}

// Error is the model's error.
func (e *ModelError) Error() string { return e.Err.Error() }

// Unwrap returns the model's error.
func (e *ModelError) Unwrap() error { return e.Err }

// CheckSize returns a *SizeError when the grid has more than MaxCells
// cells.
func (s *Spec) CheckSize() error {
	lists := map[string]int{"dims": len(s.GridDims()), "chains": len(s.Chains), "knots": len(s.GridKnots()), "seeds": len(s.Seeds)}
	n, err := runout.MulBytes(int64(lists["dims"]), int64(max(lists["chains"], 1)), int64(lists["knots"]), int64(lists["seeds"]))
	if err == nil && n <= MaxCells {
		return nil
	}
	name := "seeds"
	for _, l := range []string{"dims", "chains", "knots"} {
		if lists[l] > lists[name] {
			name = l
		}
	}
	return &SizeError{name, lists[name]}
}

// CheckDim checks the cells of dimension d: their chains (a
// *ChainsError), and their knots, whose first *KnotsError it returns
// apart, for a caller that reports it only after the memory check.
func (s *Spec) CheckDim(d int) (knots *KnotsError, err error) {
	if ch := AutoChains(d); s.Chains == nil && ch > MaxChains {
		return nil, &ChainsError{Dim: d, Chains: ch, Auto: true}
	}
	for _, ch := range s.ChainsOf(d) {
		if ch > MaxChains {
			return nil, &ChainsError{Dim: d, Chains: float64(ch)}
		}
		for _, k := range s.GridKnots() {
			if k > ch-1 && knots == nil {
				knots = &KnotsError{Knots: k, Chains: ch, Dim: d, Auto: s.Chains == nil}
			}
		}
	}
	return knots, nil
}

// Configs returns the cells' engine configurations with workers (not
// validated: Memory first), or a *ModelError for a cell whose model
// cannot be made.
func (s *Spec) Configs(cells []Cell, workers int) ([]batch.Config, error) {
	var cfgs []batch.Config
	for _, c := range cells {
		cfg, err := s.Config(c, workers)
		if err != nil {
			return nil, &ModelError{c.Dim, err}
		}
		cfgs = append(cfgs, cfg)
	}
	return cfgs, nil
}

// Memory returns the estimated memory of a sweep of the configurations
// cfgs: its largest cell's run (batch.EstimateMemory) and one cell's CSV
// rows (13 fields of at most 24 + 16 bytes per replicate and the header,
// appended as each cell ends), or batch.ErrMemoryOverflow.
func (s *Spec) Memory(cfgs []batch.Config) (int64, error) {
	var need int64
	for _, cfg := range cfgs {
		n, err := batch.EstimateMemory(cfg)
		if err != nil {
			return 0, err
		}
		need = max(need, n)
	}
	rows, err := runout.MulBytes(int64(s.Replicates)+1, 13*(24+16))
	if err != nil {
		return 0, err
	}
	return runout.AddBytes(need, rows)
}

// Largest returns the largest of the grid's dimensions, chains and knots
// (0 for an empty list), which scale a cell's memory.
func (s *Spec) Largest() (dim, chains, knots int) {
	m := func(xs []int) int { return slices.Max(append([]int{0}, xs...)) }
	return m(s.GridDims()), m(s.Chains), m(s.GridKnots())
}
