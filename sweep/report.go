package sweep

import (
	"encoding/json"
	"io"
	"runtime"

	"github.com/ptbatch/ptbatch/registry"
)

// Report is a sweep's summary.json apart from its settings: the cells of
// the grid, those complete in the directory, whether the sweep was
// interrupted, and its timing.
type Report struct {
	// Cells and Completed count the grid's cells and those all of whose
	// replicates the directory holds.
	Cells, Completed int
	Interrupted      bool
	// Elapsed is the seconds spent on the directory's cells, summed over
	// resumed runs and, after a merge, over the shards.
	Elapsed float64
	// Workers and Out are the settings that do not change results,
	// recorded as given.
	Workers int
	Out     string
}

// WriteJSON writes summary.json: the Spec's settings (the lists as
// given), then r, and the Go version. The per-cell seconds are not in
// summary.csv: they would make a merged summary.csv differ from one
// process's (and the same sweep twice), and the CSVs are the results.
func (s *Spec) WriteJSON(w io.Writer, r Report) error {
	cfg := map[string]any{
		"dims": s.Given.Dims, "chains": s.Given.Chains, "seeds": s.Given.Seeds, "replicates": s.Replicates,
		"iterations": s.Iterations, "scans": s.Scans, "sigma": s.Sigma, "mu0": s.Mu0, "mu1": s.Mu1,
		"algorithm": s.Algorithm, "workers": r.Workers, "out": r.Out,
	}
	if s.Algorithm == "nrpt" {
		cfg["knots"], cfg["lr"] = s.Given.Knots, s.LearningRate
	}
	if s.Model != registry.Gaussian || s.Tuning != "paper" { // only when not the defaults, which the files predate
		cfg["model"], cfg["tuning"] = s.Model, s.Tuning
	}
	out := map[string]any{
		"config":          cfg,
		"cells":           r.Cells,
		"cells_completed": r.Completed,
		"interrupted":     r.Interrupted,
		"elapsed_seconds": r.Elapsed,
		"go_version":      runtime.Version(),
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// CellsWithin returns the number of cells all of whose replicates are
// among the units [first, done) of a sweep of replicates per cell.
func CellsWithin(first, done, replicates int) int {
	return max(0, done/replicates-(first+replicates-1)/replicates)
}
