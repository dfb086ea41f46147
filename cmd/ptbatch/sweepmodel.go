package main

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/registry"
	"github.com/ptbatch/ptbatch/study"
	"github.com/ptbatch/ptbatch/tune"
)

// addSweepModelFlags defines sweep's --model and --tuning.
func addSweepModelFlags(c *cmdFlags, f *sweepFlags) {
	c.String(&f.model, "model", "gaussian", "target model: gaussian (the high-dimensional Gaussian of --dims, --sigma, --mu0 and --mu1), or betabinomial, galaxy or mixture with ptbatch run's defaults (one dimension, its own; give --chains)")
	c.String(&f.tuning, "tuning", "paper", "paper (the paper's Algorithm 2: --scans equal scans, --lr) or auto (ptbatch run's automatic tuner; no --scans or --lr)")
}

// checkSweepModel refuses the flags that do not apply to --model and
// --tuning, and sets the automatic tuner's scans.
func checkSweepModel(c *cmdFlags, f *sweepFlags) error {
	if _, err := batch.ParseTuning(f.tuning); err != nil {
		return c.bad("tuning", "want paper or auto")
	}
	if f.tuning == "auto" {
		for _, name := range []string{"scans", "lr"} {
			if c.set(name) {
				return c.bad(name, "applies only to --tuning paper; the automatic tuner (--tuning auto) takes no learning rate and chooses its scans itself")
			}
		}
		f.scans = max(batch.AutoScans(f.iterations), 1)
	}
	if f.model == registry.Gaussian {
		return nil
	}
	if _, ok := modelFlags[f.model]; !ok {
		return c.bad("model", "want gaussian, betabinomial, galaxy or mixture")
	}
	for _, name := range []string{"dims", "sigma", "mu0", "mu1"} {
		if c.set(name) {
			return c.bad(name, "applies only to --model gaussian; --model %s has its own dimension and ptbatch run's defaults", f.model)
		}
	}
	if f.chains == "auto" {
		return usagef("invalid --model %s: --chains auto is the Gaussian's ⌈15√d⌉; give --chains", f.model)
	}
	return nil
}

// sweepRun is a cell as a run of the study machinery: the registry's
// model (the Gaussian pair of the cell's dimension, or --model with its
// defaults) and the cell's method.
func sweepRun(f *sweepFlags, cell sweepCell) study.Run {
	spec := study.ModelSpec{Name: f.model}
	if f.model == registry.Gaussian {
		spec.Values = registry.Values{"dim": float64(cell.dim), "mu0": f.mu0, "mu1": f.mu1, "sigma0": f.sigma, "sigma1": f.sigma}
	}
	sched := f.algorithm == "nrpt"
	meth := study.Method{Label: f.algorithm, Algorithm: f.algorithm, Tuning: f.tuning, Chains: cell.chains, Scans: f.scans,
		Knots: cell.knots, LearningRate: f.lr, TuneSchedule: &sched}
	return study.Run{Model: spec, Method: meth, Seed: cell.seed, Iterations: f.iterations, Replicates: f.replicates}
}

// sweepConfig returns a cell's engine configuration; sweepGrid validates
// it after the memory check.
func sweepConfig(f *sweepFlags, cell sweepCell) (batch.Config, error) {
	run := sweepRun(f, cell)
	m, err := run.NewModel()
	if err != nil {
		return batch.Config{}, err
	}
	cfg, err := run.ConfigUnchecked(m)
	cfg.Workers = f.workers
	return cfg, err
}

// sweepPlan is the sweep as a study plan: a run per cell, so that its
// units (cell × replicate, cell-major) are the plan's.
func sweepPlan(f *sweepFlags, cells []sweepCell) study.Plan {
	p := study.Plan{Name: "sweep"}
	for _, cell := range cells {
		p.Runs = append(p.Runs, sweepRun(f, cell))
	}
	return p
}

// sweepBound is the cell's linear-path bound on the round-trip rate, the
// Gaussian's closed form, and NaN for other models.
func sweepBound(f *sweepFlags, cell sweepCell) float64 {
	if f.model != registry.Gaussian {
		return math.NaN()
	}
	return linearBound(cell.dim, f.mu0, f.mu1, f.sigma)
}

// sweepProgress prints the progress of each cell on stderr.
func sweepProgress(stderr io.Writer, cells []sweepCell) func(study.Progress) {
	piece := -1
	var print func(batch.Progress)
	return func(p study.Progress) {
		if p.Piece != piece {
			cell := cells[p.Run]
			piece, print = p.Piece, progressPrinter(stderr, fmt.Sprintf("cell %d/%d (d=%d, K=%d)", p.Run+1, len(cells), cell.dim, cell.knots))
		}
		print(batch.Progress{Scan: p.Scan, Scans: p.Scans, Elapsed: p.Elapsed})
	}
}

// sweepCellDone writes a finished piece of a cell: its rows of cells.csv
// and its summary.csv row (out), and its line of the table.
func sweepCellDone(f *sweepFlags, cell sweepCell, pc study.Piece, res *batch.Result, out *sweepOut, tw io.Writer) error {
	bound := sweepBound(f, cell)
	var v cellValues
	var rows [][]string
	for r := 0; r < res.Config.Replicates; r++ {
		st := res.History[r][len(res.History[r])-1]
		tau := tune.RoundTripRate(st.NonAsymptoticBarrier)
		runRate := float64(res.RoundTrips[r]) / float64(res.Iterations)
		rows = append(rows, []string{itoa(cell.dim), itoa(cell.chains), itoa(cell.knots), strconv.FormatUint(cell.seed, 10), itoa(pc.First + r),
			exactText(res.RoundTripRates[r]), exactText(runRate), itoa(res.RoundTrips[r]), exactText(st.Barrier),
			exactText(st.NonAsymptoticBarrier), exactText(st.SKL), exactText(tau), exactText(bound)})
		v.rates = append(v.rates, res.RoundTripRates[r])
		v.runRates = append(v.runRates, runRate)
		v.barriers = append(v.barriers, st.Barrier)
		v.taus = append(v.taus, tau)
	}
	sum, rm, rci, qm, qci, bm := summaryRow(cell, v, bound)
	if out != nil {
		if err := out.add(rows, sum, pc.Run*f.replicates+pc.First+pc.Replicates); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%.4f ± %.4f\t%.4f ± %.4f\t%.2f\t%.4f\t%.1f\t\n", cell.dim, cell.chains, cell.knots, cell.seed, res.Config.Replicates,
		rm, rci, qm, qci, bm, bound, res.Elapsed.Seconds())
	return err
}
