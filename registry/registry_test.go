package registry

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// TestBuiltinsMatchConstructors checks that every built-in model built
// through the registry is the model its constructor in package models
// gives with the same values: the defaults are `ptbatch run`'s flag
// defaults (gaussian d = 1, μ0 = −1, μ1 = 1, σ0 = σ1 = 0.01;
// betabinomial Beta(180, 840) with 2000 draws of Binomial(100, 0.7)
// simulated from the seed).
func TestBuiltinsMatchConstructors(t *testing.T) {
	const seed = 3 // arbitrary
	g, _ := models.NewGaussian(1, -1, 1, 0.01, 0.01)
	g4, _ := models.NewGaussian(4, 0, 2, 0.5, 0.25)
	s, f, err := models.SimulateBinomialData(seed, 2000, 100, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	bb, _ := models.NewBetaBinomial(180, 840, s, f)
	paper, _ := models.NewBetaBinomial(180, 840, 140000, 60000) // the paper's S of R = 200,000
	cases := []struct {
		name string
		v    Values
		want models.Model
	}{
		{Gaussian, nil, g},
		{Gaussian, Values{"dim": 4, "mu0": 0, "mu1": 2, "sigma0": 0.5, "sigma1": 0.25}, g4},
		{BetaBinomial, nil, bb},
		{BetaBinomial, Values{"successes": 140000, "total-trials": 200000}, paper},
		{Galaxy, nil, models.NewGalaxy()},
		{Mixture, nil, models.NewMixture(seed)},
	}
	for _, c := range cases {
		got, err := New(c.name, c.v, seed)
		if err != nil {
			t.Fatalf("%s %v: %v", c.name, c.v, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %v: the registry's model differs from the constructor's", c.name, c.v)
		}
	}
	p, err := MustPreset(BetaBinomial).NewModel(seed)
	if err != nil || !reflect.DeepEqual(p, paper) {
		t.Errorf("preset betabinomial: %v; want the paper's Beta(180, 840) with 140,000 of 200,000", err)
	}
}

// TestBadValuesNameTheParameter checks that a value the model refuses
// gives a *ParamError naming the parameter (or none, for a combination).
func TestBadValuesNameTheParameter(t *testing.T) {
	cases := []struct {
		name  string
		v     Values
		param string
	}{
		{Gaussian, Values{"dim": 0}, "dim"},          // dim ≥ 1
		{Gaussian, Values{"dim": 1.5}, "dim"},        // an integer
		{Gaussian, Values{"sigma0": 0}, "sigma0"},    // σ ≥ 1e-100
		{Gaussian, Values{"mu1": math.NaN()}, "mu1"}, // NaN is in no range
		{Gaussian, Values{"prior-a": 1}, "prior-a"},  // not the Gaussian's
		{Galaxy, Values{"dim": 2}, "dim"},            // the galaxy has no parameters
		{BetaBinomial, Values{"successes": 5}, "successes"},
		{BetaBinomial, Values{"successes": 5, "total-trials": 4}, "total-trials"},
		{BetaBinomial, Values{"draws": 1e5, "trials": 1e5}, "trials"}, // 1e10 > 1e9 trials; trials is 1000× its default 100, draws 50× its 2000
		{BetaBinomial, Values{"draws": 1e7, "trials": 1e3}, "draws"},  // 1e10 > 1e9 trials; draws is 5000× its default, trials 10×
		// d·((|μ1−μ0| + 10⁴σ)/σ)²/2 with σ = 1e-100 is about 1e208 per
		// coordinate: 1e208·2e9 stays below 1e300, so use μ1 − μ0 = 2e100;
		// the smaller σ is blamed, σ0 on a tie.
		{Gaussian, Values{"mu0": -1e100, "mu1": 1e100, "sigma0": 1e-100, "sigma1": 1e-100}, "sigma0"},
		{Gaussian, Values{"mu0": -1e100, "mu1": 1e100, "sigma0": 1e-99, "sigma1": 1e-100}, "sigma1"},
	}
	for _, c := range cases {
		_, err := New(c.name, c.v, 1)
		var pe *ParamError
		if !errors.As(err, &pe) || !errors.Is(err, ErrParam) || pe.Param != c.param {
			t.Errorf("%s %v: error %v, want a *ParamError for %q", c.name, c.v, err, c.param)
		}
	}
	if _, err := New("nope", nil, 1); !errors.Is(err, ErrUnknownModel) {
		t.Errorf("New(nope): %v, want ErrUnknownModel", err)
	}
}

// TestRegisterOwnModel registers a models.FromFuncs model, builds it by
// name with a parameter, and checks that a second registration of the
// name panics.
func TestRegisterOwnModel(t *testing.T) {
	Register(Model{Name: "test-own", Params: []Param{{"scale", Float, 1, 0.1, 10, "target's scale"}},
		New: func(v Values, _ uint64) (models.Model, error) {
			s := v["scale"]
			return models.FromFuncs(models.Funcs{Dim: 1,
				LogReference:    func(x []float64) float64 { return -x[0] * x[0] / 2 },
				LogTarget:       func(x []float64) float64 { return -x[0] * x[0] / (2 * s * s) },
				SampleReference: func(rng models.Rand, x []float64) { x[0] = rng.Normal() },
			}, models.RandomWalk{})
		}})
	if !slices.Contains(Names(), "test-own") || !slices.Contains(Names(), Gaussian) {
		t.Errorf("Names() = %v, want the built-ins and test-own", Names())
	}
	if m, err := New("test-own", Values{"scale": 2}, 1); err != nil || len(m.Observables()) != 1 {
		t.Errorf("New(test-own): %v", err)
	}
	if _, err := New("test-own", Values{"scale": 20}, 1); !errors.Is(err, ErrParam) {
		t.Errorf("scale 20 (above 10): %v, want ErrParam", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("a second Register of test-own did not panic")
		}
	}()
	Register(Model{Name: "test-own", New: func(Values, uint64) (models.Model, error) { return nil, nil }})
}
