package runout

import (
	"math"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// LambdaPoints is the number of grid points of lambda.csv per replicate
// (the barrier profile's batch.BarrierProfile.Points).
const LambdaPoints = 100

// Outputs says which outputs a run builds from its statistics, for
// OutputMemory.
type Outputs struct {
	JSON  bool       // the JSON summary: every observable's ESS and target moments
	Dir   bool       // the output directory: scans.csv and lambda.csv
	Thin  int        // the diagnostics keep every Thin-th state (at least 1)
	Index *IndexSpec // the recorded index process; nil: not recorded
}

// OutputMemory estimates the bytes of the output a run of cfg builds
// from its statistics (batch.EstimateMemory counts the statistics
// themselves): with JSON the target moments' numbers and their text;
// with Dir scans.csv's rows and lambda.csv's; the ESS's values in the
// JSON; the copies the diagnostics make of one observable's kept states;
// with Index the figure's records. It returns batch.ErrMemoryOverflow
// when the size does not fit in an int64.
func OutputMemory(cfg batch.Config, o Outputs) (int64, error) {
	reps, obs := int64(cfg.Replicates), int64(models.NumObservables(cfg.Model))
	essObs := int64(1)
	if o.JSON {
		essObs = obs
	}
	perScan, keep := int64(cfg.Iterations/cfg.Scans), int64(cfg.KeepScansInEffect())
	kept := perScan * keep
	if keep > 0 && kept/keep != perScan {
		return 0, batch.ErrMemoryOverflow
	}
	draws := min(kept/int64(o.Thin)+1, 2*DiagMaxDraws)
	terms := [][]int64{
		{2, reps, essObs, 24 + 26}, // the ESS's values in the JSON
		{8, reps, draws, 8},        // the diagnostics' copies of one observable's
	}
	if o.JSON {
		terms = append(terms, []int64{reps, obs, 2 * (24 + 8 + 26)}) // target_means and target_vars
	}
	if o.Dir {
		terms = append(terms,
			[]int64{reps, int64(cfg.Scans), 7 * (16 + 24)}, // scans.csv
			[]int64{reps, LambdaPoints, 4, 16 + 24})        // lambda.csv's rows
	}
	if o.Index != nil {
		terms = append(terms, []int64{2, IndexFigureIterations, int64(len(o.Index.Replicas)), 8})
	}
	var total int64
	for _, t := range terms {
		n, err := MulBytes(t...)
		if err != nil {
			return 0, err
		}
		if total, err = AddBytes(total, n); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// AddBytes returns a+b, or batch.ErrMemoryOverflow when a or b is
// negative or the sum does not fit in an int64.
func AddBytes(a, b int64) (int64, error) {
	if a < 0 || b < 0 || a > math.MaxInt64-b {
		return 0, batch.ErrMemoryOverflow
	}
	return a + b, nil
}

// MulBytes returns the product of the factors, or
// batch.ErrMemoryOverflow when one is negative or the product does not
// fit in an int64.
func MulBytes(factors ...int64) (int64, error) {
	p := int64(1)
	for _, f := range factors {
		if f < 0 {
			return 0, batch.ErrMemoryOverflow
		}
		if f != 0 && p > math.MaxInt64/f {
			return 0, batch.ErrMemoryOverflow
		}
		p *= f
	}
	return p, nil
}
