package registry

import (
	"fmt"

	"github.com/ptbatch/ptbatch/models"
)

// The built-in models' names.
const (
	Gaussian     = "gaussian"
	BetaBinomial = "betabinomial"
	Galaxy       = "galaxy"
	Mixture      = "mixture"
)

// maxExactCount is the largest count kept exact in float64 totals: 2^52.
const maxExactCount = 1 << 52

func init() {
	Register(Model{Name: Gaussian, Help: "Gaussian pair: reference N(μ0·1, σ0² I), target N(μ1·1, σ1² I)",
		Params: gaussianParams, New: newGaussian})
	Register(Model{Name: BetaBinomial, Help: "Beta-binomial: prior Beta(a, b), binomial data simulated from the seed or given as totals",
		Params: betaBinomialParams, New: newBetaBinomial})
	Register(Model{Name: Galaxy, Help: "6-component mixture on the galaxy velocities (Roeder 1990)",
		New: func(Values, uint64) (models.Model, error) { return models.NewGalaxy(), nil }})
	Register(Model{Name: Mixture, Help: "2-component mixture on 1000 points simulated from the seed",
		New: func(_ Values, seed uint64) (models.Model, error) { return models.NewMixture(seed), nil }})
}

var gaussianParams = []Param{
	{"dim", Int, 1, 1, 1 << 62, "dimension d"}, // the memory checks refuse what a machine cannot hold
	{"mu0", Float, -1, -models.MaxGaussianMean, models.MaxGaussianMean, "reference mean (every coordinate)"},
	{"mu1", Float, 1, -models.MaxGaussianMean, models.MaxGaussianMean, "target mean (every coordinate)"},
	{"sigma0", Float, 0.01, models.MinGaussianSigma, models.MaxGaussianSigma, "reference standard deviation"},
	{"sigma1", Float, 0.01, models.MinGaussianSigma, models.MaxGaussianSigma, "target standard deviation"},
}

// newGaussian builds the Gaussian pair; the ranges are checked, so the
// only refusal left is an energy scale beyond float64
// (models.GaussianEnergyScale).
func newGaussian(v Values, _ uint64) (models.Model, error) {
	m, err := models.NewGaussian(int(v["dim"]), v["mu0"], v["mu1"], v["sigma0"], v["sigma1"])
	if err != nil {
		return nil, &ParamError{Model: Gaussian, Why: err.Error()}
	}
	return m, nil
}

var betaBinomialParams = []Param{
	{"prior-a", Float, 180, models.MinBetaShape, models.MaxBetaShape, "prior shape a"},
	{"prior-b", Float, 840, models.MinBetaShape, models.MaxBetaShape, "prior shape b"},
	{"draws", Int, 2000, 1, models.MaxSimulatedTrials, "number of Binomial observations simulated from the seed"},
	{"trials", Int, 100, 1, models.MaxSimulatedTrials, "trials per observation (draws × trials at most 1e9)"},
	{"success-prob", Float, 0.7, 0, 1, "success probability of the simulated data"},
	{"successes", Int, -1, -1, maxExactCount, "total successes S given directly, with total-trials (-1: simulate)"},
	{"total-trials", Int, -1, -1, 2 * maxExactCount, "total trials R for successes (-1: simulate)"},
}

// newBetaBinomial builds the Beta-binomial: prior Beta(prior-a, prior-b)
// and data either given as totals (successes S of total-trials R) or
// simulated from the seed as draws observations of Binomial(trials,
// success-prob).
func newBetaBinomial(v Values, seed uint64) (models.Model, error) {
	bad := func(p, why string) error { return &ParamError{BetaBinomial, p, v[p], why} }
	s, total := v["successes"], v["total-trials"]
	var succ, fail int64
	switch {
	case s < 0 && total >= 0:
		return nil, bad("total-trials", "needs successes too")
	case s >= 0 && total < 0:
		return nil, bad("successes", "needs total-trials too")
	case s >= 0 && total < s:
		return nil, bad("total-trials", "must be at least successes")
	case s >= 0 && total-s > maxExactCount:
		return nil, bad("total-trials", "the failures R − S must be at most 2^52, so that the totals stay exact in float64")
	case s >= 0:
		succ, fail = int64(s), int64(total-s)
	case v["draws"]*v["trials"] > models.MaxSimulatedTrials:
		return nil, bad("draws", fmt.Sprintf("draws × trials simulates more than %d Bernoulli trials", models.MaxSimulatedTrials))
	default:
		var err error
		if succ, fail, err = models.SimulateBinomialData(seed, int(v["draws"]), int(v["trials"]), v["success-prob"]); err != nil {
			return nil, &ParamError{Model: BetaBinomial, Why: err.Error()}
		}
	}
	m, err := models.NewBetaBinomial(v["prior-a"], v["prior-b"], succ, fail)
	if err != nil {
		return nil, &ParamError{Model: BetaBinomial, Why: err.Error()}
	}
	return m, nil
}
