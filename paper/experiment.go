package paper

import (
	"math"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
)

// Experiment is one of the paper's benchmark problems with its settings
// (a registry.Preset), and the exact Λ of its linear path when known.
type Experiment struct {
	registry.Preset
	// LinearLambda is the exact Λ of the linear path, or NaN when it is
	// only estimated (by NRPT+Linear's last scan).
	LinearLambda float64
}

// Experiments returns the paper's four experiments, in the order
// `ptbatch reproduce all` runs them, with the exact Λ of the Gaussian's
// linear path, z/√π with z = (μ1 − μ0)/σ = 200.
func Experiments() []Experiment {
	return []Experiment{
		preset(registry.Gaussian, 200/math.Sqrt(math.Pi)),
		preset(registry.BetaBinomial, math.NaN()),
		preset(registry.Galaxy, math.NaN()),
		preset(registry.Mixture, math.NaN()),
	}
}

// preset is the registry's preset name as an experiment.
func preset(name string, linearLambda float64) Experiment {
	return Experiment{registry.MustPreset(name), linearLambda}
}

// Method is one curve of the paper's Figure 3, or ptbatch's own default.
type Method struct {
	Name      string
	Algorithm batch.Algorithm
	Knots     int  // 1: the linear path
	Auto      bool // the automatic tuner (ptbatch run's default), not the paper's
}

// Methods returns the methods every experiment runs, in order.
func Methods() []Method {
	return []Method{
		{"Reversible+Linear", batch.Reversible, 1, false},
		{"NRPT+Linear", batch.NRPT, 1, false},
		{"NRPT+Spline(K=2)", batch.NRPT, 2, false},
		{"NRPT+Spline(K=3)", batch.NRPT, 3, false},
		{"NRPT+Spline(K=4)", batch.NRPT, 4, false},
		{"NRPT+Spline(K=5)", batch.NRPT, 5, false},
		{"NRPT+Spline(K=10)", batch.NRPT, 10, false},
		{"ptbatch auto (K=4)", batch.NRPT, 4, true},
	}
}

// Config returns the method's configuration of experiment e on model m
// with reps replicates and iters iterations: the paper's (its scans and
// learning rate, the schedule tuned for NRPT, the path for K ≥ 2), or for
// the automatic tuner batch.AutoScans(iters) scans and no learning rate.
func (meth Method) Config(e Experiment, m models.Model, reps, iters int, seed uint64, workers int) batch.Config {
	cfg := batch.Config{Model: m, Chains: e.Chains, Replicates: reps, Algorithm: meth.Algorithm, Iterations: iters,
		Scans: e.Scans, TuneSchedule: meth.Algorithm == batch.NRPT, Knots: meth.Knots, TunePath: meth.Knots >= 2,
		LearningRate: e.LearningRate, Seed: seed, Workers: workers}
	if meth.Auto {
		cfg.Tuning, cfg.Scans, cfg.LearningRate = batch.AutoTuning, batch.AutoScans(iters), 0
	}
	return cfg
}
