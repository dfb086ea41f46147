package main

import "github.com/ptbatch/ptbatch/models"

// modelSettings lists the model's effective settings for the JSON config.
func modelSettings(f *runFlags) map[string]any {
	switch f.model {
	case "gaussian":
		return map[string]any{"dim": f.dim, "mu0": f.mu0, "mu1": f.mu1, "sigma0": f.sigma0, "sigma1": f.sigma1}
	case "betabinomial":
		return map[string]any{"prior_a": f.priorA, "prior_b": f.priorB, "draws": f.draws, "trials": f.trials,
			"success_prob": f.successProb, "successes": f.successes, "total_trials": f.total}
	}
	return nil
}

func (f *runFlags) buildBetaBinomial() (models.Model, error) {
	return nil, usagef("betabinomial: not available yet")
}
