package main

import (
	"fmt"

	"github.com/ptbatch/ptbatch/models"
)

// modelSettings lists the model's effective settings for the JSON config.
func modelSettings(f *runFlags) map[string]any {
	switch f.model {
	case "gaussian":
		return map[string]any{"dim": f.dim, "mu0": f.mu0, "mu1": f.mu1, "sigma0": f.sigma0, "sigma1": f.sigma1}
	case "galaxy":
		return map[string]any{"data": "galaxy velocities (Roeder 1990), thousands of km/s", "components": 6}
	case "mixture":
		return map[string]any{"data": "1000 points from 0.3 N(100, 10²) + 0.7 N(200, 10²), simulated from the seed", "components": 2}
	case "betabinomial":
		return map[string]any{"prior_a": f.priorA, "prior_b": f.priorB, "draws": f.draws, "trials": f.trials,
			"success_prob": f.successProb, "successes": f.successes, "total_trials": f.total}
	}
	return nil
}

func (f *runFlags) buildBetaBinomial() (models.Model, error) {
	return nil, usagef("betabinomial: not available yet")
}

// newPaperBetaBinomial is the paper's Beta-binomial with the data given
// directly as S = 140,000 successes in R = 200,000 trials, so that the
// posterior is exactly Beta(140180, 60840).
func newPaperBetaBinomial() (models.Model, error) {
	return nil, fmt.Errorf("betabinomial: not available yet")
}

func newGalaxy() (models.Model, error) { return models.NewGalaxy(), nil }

func newMixture(seed uint64) (models.Model, error) { return models.NewMixture(seed), nil }
