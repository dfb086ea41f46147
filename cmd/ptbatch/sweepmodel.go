package main

import (
	"slices"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/internal/modelflag"
	"github.com/ptbatch/ptbatch/registry"
)

// addSweepModelFlags defines sweep's --model and --tuning.
func addSweepModelFlags(c *cmdFlags, f *sweepFlags) {
	c.String(&f.model, "model", "gaussian", "target model: gaussian (the high-dimensional Gaussian of --dims, --sigma, --mu0 and --mu1), or betabinomial, galaxy or mixture with ptbatch run's defaults (one dimension, its own; give --chains)"+modelflag.AlsoHelp(modelflag.SweepModels(), "", " with their registry defaults"))
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
			if c.IsSet(name) {
				return c.bad(name, "applies only to --tuning paper; the automatic tuner (--tuning auto) takes no learning rate and chooses its scans itself")
			}
		}
		f.scans = max(batch.AutoScans(f.iterations), 1)
	}
	if f.model == registry.Gaussian {
		return nil
	}
	if !slices.Contains(modelflag.SweepModels(), f.model) {
		return c.bad("model", "want %s", modelflag.OrList(modelflag.SweepModels()))
	}
	for _, name := range []string{"dims", "sigma", "mu0", "mu1"} {
		if c.IsSet(name) {
			return c.bad(name, "applies only to --model gaussian; --model %s has its own dimension and ptbatch run's defaults", f.model)
		}
	}
	if f.chains == "auto" {
		return usagef("invalid --model %s: --chains auto is the Gaussian's ⌈15√d⌉; give --chains", f.model)
	}
	return nil
}
