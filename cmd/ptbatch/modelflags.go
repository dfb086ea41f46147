package main

import (
	"fmt"

	"github.com/ptbatch/ptbatch/models"
)

// modelSettings lists the model's effective settings for the JSON config;
// m is the model built from f.
func modelSettings(f *runFlags, m models.Model) map[string]any {
	switch f.model {
	case "gaussian":
		return map[string]any{"dim": f.dim, "mu0": f.mu0, "mu1": f.mu1, "sigma0": f.sigma0, "sigma1": f.sigma1}
	case "galaxy":
		return map[string]any{"data": "galaxy velocities (Roeder 1990), thousands of km/s", "components": 6}
	case "mixture":
		return map[string]any{"data": "1000 points from 0.3 N(100, 10²) + 0.7 N(200, 10²), simulated from the seed", "components": 2}
	case "betabinomial":
		out := map[string]any{"prior_a": f.priorA, "prior_b": f.priorB}
		if bb, ok := m.(*models.BetaBinomial); ok {
			// The data's totals, given or simulated: all the posterior sees.
			out["successes"], out["total_trials"] = bb.Successes, bb.Successes+bb.Failures
		}
		if !f.set["successes"] {
			out["draws"], out["trials"], out["success_prob"] = f.draws, f.trials, f.successProb
		}
		return out
	}
	return nil
}

// buildBetaBinomial builds the Beta-binomial model: prior Beta(--prior-a,
// --prior-b) and data either given as totals (--successes S of
// --total-trials R) or simulated from --seed as --draws observations of
// Binomial(--trials, --success-prob).
func (f *runFlags) buildBetaBinomial() (models.Model, error) {
	switch {
	case !(f.priorA > 0):
		return nil, usagef("invalid --prior-a %v: must be positive", f.priorA)
	case !(f.priorB > 0):
		return nil, usagef("invalid --prior-b %v: must be positive", f.priorB)
	}
	var s, fail int64
	if f.set["successes"] || f.set["total-trials"] {
		switch {
		case !f.set["successes"] || !f.set["total-trials"]:
			return nil, usagef("--successes and --total-trials must be given together")
		case f.successes < 0:
			return nil, usagef("invalid --successes %d: must not be negative", f.successes)
		case f.total < f.successes:
			return nil, usagef("invalid --total-trials %d: must be at least --successes (%d)", f.total, f.successes)
		}
		s, fail = f.successes, f.total-f.successes
	} else {
		switch {
		case f.draws < 1:
			return nil, usagef("invalid --draws %d: must be at least 1", f.draws)
		case f.trials < 1:
			return nil, usagef("invalid --trials %d: must be at least 1", f.trials)
		case !(f.successProb >= 0 && f.successProb <= 1):
			return nil, usagef("invalid --success-prob %v: must be in [0, 1]", f.successProb)
		}
		var err error
		if s, fail, err = models.SimulateBinomialData(f.seed, f.draws, f.trials, f.successProb); err != nil {
			return nil, usagef("betabinomial data: %v", err)
		}
	}
	m, err := models.NewBetaBinomial(f.priorA, f.priorB, s, fail)
	if err != nil {
		return nil, usagef("betabinomial: %v", err)
	}
	return m, nil
}

// newPaperBetaBinomial is the paper's Beta-binomial with the data given
// directly as S = 140,000 successes in R = 200,000 trials, so that the
// posterior is exactly Beta(140180, 60840).
func newPaperBetaBinomial() (models.Model, error) {
	m, err := models.NewBetaBinomial(180, 840, 140000, 60000)
	if err != nil {
		return nil, fmt.Errorf("betabinomial: %v", err)
	}
	return m, nil
}

func newGalaxy() (models.Model, error) { return models.NewGalaxy(), nil }

func newMixture(seed uint64) (models.Model, error) { return models.NewMixture(seed), nil }
