package registry

import (
	"math"

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
	Register(Model{Name: Gaussian, Help: "reference N(μ0·1, σ0² I), target N(μ1·1, σ1² I)",
		Params: gaussianParams, New: newGaussian, Check: checkGaussian})
	Register(Model{Name: BetaBinomial, Help: "prior Beta(a, b), binomial data simulated from --seed or given as totals",
		Params: betaBinomialParams, New: newBetaBinomial, Check: checkBetaBinomial, Settings: betaBinomialSettings})
	Register(Model{Name: Galaxy, Help: "6-component mixture on the galaxy velocities (Roeder 1990)",
		New:      func(Values, uint64) (models.Model, error) { return models.NewGalaxy(), nil },
		Settings: fixedSettings("galaxy velocities (Roeder 1990), thousands of km/s", 6)})
	Register(Model{Name: Mixture, Help: "2-component mixture on 1000 points simulated from the seed",
		New:      func(_ Values, seed uint64) (models.Model, error) { return models.NewMixture(seed), nil },
		Settings: fixedSettings("1000 points from 0.3 N(100, 10²) + 0.7 N(200, 10²), simulated from the seed", 2)})
}

// fixedSettings returns the Settings of a mixture on fixed data: the
// data's description and the number of components.
func fixedSettings(data string, components int) func(Values, Values, Texts, models.Model) map[string]any {
	return func(Values, Values, Texts, models.Model) map[string]any {
		return map[string]any{"data": data, "components": components}
	}
}

var gaussianParams = []Param{
	{"dim", Int, 1, 1, 1 << 62, "dimension d"}, // the memory checks refuse what a machine cannot hold
	{"mu0", Float, -1, -models.MaxGaussianMean, models.MaxGaussianMean, "reference mean (every coordinate), in [-1e100, 1e100]"},
	{"mu1", Float, 1, -models.MaxGaussianMean, models.MaxGaussianMean, "target mean (every coordinate), in [-1e100, 1e100]"},
	{"sigma0", Float, 0.01, models.MinGaussianSigma, models.MaxGaussianSigma, "reference standard deviation, in [1e-100, 1e100]"},
	{"sigma1", Float, 0.01, models.MinGaussianSigma, models.MaxGaussianSigma, "target standard deviation, in [1e-100, 1e100]"},
}

// checkGaussian refuses a Gaussian pair outside the ranges of
// models.NewGaussian, and one whose energies would reach beyond float64
// (models.GaussianEnergyScale), blaming the smaller standard deviation
// (sigma0 on a tie): with both at 0.01 or more the energies stay below
// 1e230 for any dimension and means, so it is the one to change.
func checkGaussian(_, v Values) error {
	bad := func(p, why string) error { return paramErrorf(Gaussian, p, v, "%s", why) }
	if !(v["dim"] >= 1) {
		return bad("dim", "need at least 1")
	}
	for _, p := range []string{"mu0", "mu1"} {
		if !(math.Abs(v[p]) <= models.MaxGaussianMean) {
			return bad(p, "must be in [-1e100, 1e100], so that μ/σ² stays within float64")
		}
	}
	for _, p := range []string{"sigma0", "sigma1"} {
		if !(v[p] >= models.MinGaussianSigma && v[p] <= models.MaxGaussianSigma) {
			return bad(p, "must be in [1e-100, 1e100]: 1/σ² and μ/σ² must stay within float64 (1/σ² overflows below 1e-154 and underflows above 1e154)")
		}
	}
	if e := models.GaussianEnergyScale(int(min(v["dim"], 1<<62)), v["mu0"], v["mu1"], v["sigma0"], v["sigma1"]); e > 300 {
		small := "sigma0"
		if v["sigma1"] < v["sigma0"] {
			small = "sigma1"
		}
		return paramErrorf(Gaussian, small, v, "the energies d·((|μ1−μ0| + 10⁴·σ_max)/σ_min)²/2 would reach about 1e%.0f, beyond the 1e300 float64 can carry", e)
	}
	return nil
}

// newGaussian builds the Gaussian pair; the values are checked, so the
// constructor refuses nothing.
func newGaussian(v Values, _ uint64) (models.Model, error) {
	m, err := models.NewGaussian(int(v["dim"]), v["mu0"], v["mu1"], v["sigma0"], v["sigma1"])
	if err != nil {
		return nil, &ParamError{Model: Gaussian, Why: err.Error()}
	}
	return m, nil
}

var betaBinomialParams = []Param{
	{"prior-a", Float, 180, models.MinBetaShape, models.MaxBetaShape, "prior shape a, in [1e-6, 1e15]"},
	{"prior-b", Float, 840, models.MinBetaShape, models.MaxBetaShape, "prior shape b, in [1e-6, 1e15]"},
	{"draws", Int, 2000, 1, models.MaxSimulatedTrials, "number of Binomial observations simulated from the seed"},
	{"trials", Int, 100, 1, models.MaxSimulatedTrials, "trials per observation (--draws × --trials at most 1e9)"},
	{"success-prob", Float, 0.7, 0, 1, "success probability of the simulated data"},
	{"successes", Int, -1, -1, maxExactCount, "give the data directly as total successes S (with --total-trials) instead of simulating; S=140000 of 200000 reproduces the paper's Beta(140180, 60840) (default: simulate)"},
	{"total-trials", Int, -1, -1, 2 * maxExactCount, "total trials R for --successes (default: simulate)"},
}

// checkBetaBinomial refuses the prior shapes outside the range of
// models.NewBetaBinomial, and data that are neither given whole (both
// successes S and total-trials R, with 0 ≤ S ≤ R and S, R − S at most
// 2^52) nor simulated from at least 1 draw of at least 1 trial, with at
// most models.MaxSimulatedTrials in all.
func checkBetaBinomial(given, v Values) error {
	bad := func(p, format string, args ...any) error { return paramErrorf(BetaBinomial, p, v, format, args...) }
	for _, p := range []string{"prior-a", "prior-b"} {
		if !(v[p] >= models.MinBetaShape && v[p] <= models.MaxBetaShape) {
			return bad(p, "must be in [1e-6, 1e15]: below, the annealed shapes (η0+η1)(a−1) + η1·S + 1 lose the prior; above, the data's integer precision")
		}
	}
	_, gs := given["successes"]
	_, gt := given["total-trials"]
	s, total := v["successes"], v["total-trials"]
	switch {
	case !gs && !gt:
		return checkSimulated(v)
	case !gs:
		return bad("total-trials", "needs {successes} too")
	case !gt:
		return bad("successes", "needs {total-trials} too")
	case s < 0:
		return bad("successes", "must not be negative")
	case s > maxExactCount:
		return bad("successes", "at most 2^52 = %d, so that the totals stay exact in float64", int64(maxExactCount))
	case total < s:
		return bad("total-trials", "must be at least {successes} ({=successes})")
	case total-s > maxExactCount:
		return bad("total-trials", "the failures R − S must be at most 2^52 = %d, so that the totals stay exact in float64", int64(maxExactCount))
	}
	return nil
}

// checkSimulated refuses simulated Beta-binomial data of no draws or
// trials, too many Bernoulli trials (blaming trials when it is further
// above its default 100 than draws above its 2000), or a success
// probability outside [0, 1].
func checkSimulated(v Values) error {
	bad := func(p, format string, args ...any) error { return paramErrorf(BetaBinomial, p, v, format, args...) }
	draws, trials := v["draws"], v["trials"]
	switch {
	case !(draws >= 1):
		return bad("draws", "must be at least 1")
	case !(trials >= 1):
		return bad("trials", "must be at least 1")
	case draws*trials > models.MaxSimulatedTrials:
		name := "draws"
		if math.Floor(trials/100) > math.Floor(draws/2000) {
			name = "trials"
		}
		return bad(name, "{draws} × {trials} = {=draws} × {=trials} simulates more than %d Bernoulli trials (about 3 s per 1e9)", models.MaxSimulatedTrials)
	case !(v["success-prob"] >= 0 && v["success-prob"] <= 1):
		return bad("success-prob", "must be in [0, 1]")
	}
	return nil
}

// newBetaBinomial builds the Beta-binomial (the values are checked):
// prior Beta(prior-a, prior-b) and data either given as totals
// (successes S of total-trials R) or simulated from the seed as draws
// observations of Binomial(trials, success-prob).
func newBetaBinomial(v Values, seed uint64) (models.Model, error) {
	succ, fail := int64(v["successes"]), int64(v["total-trials"]-v["successes"])
	if v["successes"] < 0 {
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

// betaBinomialSettings describes the Beta-binomial for a run's record:
// the prior, the data's totals (given or simulated: all the posterior
// sees) and, when simulated, how.
func betaBinomialSettings(given, v Values, _ Texts, m models.Model) map[string]any {
	out := map[string]any{"prior_a": v["prior-a"], "prior_b": v["prior-b"]}
	if bb, ok := m.(*models.BetaBinomial); ok {
		out["successes"], out["total_trials"] = bb.Successes, bb.Successes+bb.Failures
	}
	if _, ok := given["successes"]; !ok {
		out["draws"], out["trials"], out["success_prob"] = int64(v["draws"]), int64(v["trials"]), v["success-prob"]
	}
	return out
}
