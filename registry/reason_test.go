package registry

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// paramError returns New's error as a *ParamError, failing the test for
// any other.
func paramError(t *testing.T, name string, v Values) *ParamError {
	t.Helper()
	_, err := New(name, v, 1)
	var pe *ParamError
	if !errors.As(err, &pe) {
		t.Fatalf("%s %v: error %v, want a *ParamError", name, v, err)
	}
	return pe
}

// TestReasonWritesParams checks that a reason naming other parameters is
// written by Reason as its caller asks (a command line's --flag and the
// text typed) and by Why with the names as they are and the values with
// %v, and that a brace of the text that names no parameter (the funnel's
// e^{-v}) is kept.
func TestReasonWritesParams(t *testing.T) {
	dash := func(p string) string { return "--" + p }
	typed := func(p string) string { return "<" + p + ">" }
	pe := paramError(t, BetaBinomial, Values{"successes": 5, "total-trials": 4})
	if pe.Param != "total-trials" || pe.Value != 4 || pe.Why != "must be at least successes (5)" {
		t.Errorf("Why %q of %s = %v", pe.Why, pe.Param, pe.Value)
	}
	if got, want := pe.Reason(dash, typed), "must be at least --successes (<successes>)"; got != want {
		t.Errorf("Reason = %q, want %q", got, want)
	}
	pe = paramError(t, BetaBinomial, Values{"draws": 1e7, "trials": 1e3})
	if got, want := pe.Reason(dash, typed), "--draws × --trials = <draws> × <trials> simulates more than 1000000000 Bernoulli trials (about 3 s per 1e9)"; got != want {
		t.Errorf("Reason = %q, want %q", got, want)
	}
	pe = paramError(t, Funnel, Values{"scale": 100})
	if want := "must be in [0.001, 50]: beyond, e^{-v} overflows float64"; pe.Why != want || pe.Reason(dash, typed) != want {
		t.Errorf("funnel scale 100: Why %q, Reason %q; want %q", pe.Why, pe.Reason(dash, typed), want)
	}
	pe = paramError(t, Gaussian, Values{"prior-a": 1}) // no parameter named: Reason is Why
	if pe.Reason(dash, typed) != pe.Why || pe.Why != "not a parameter of this model" {
		t.Errorf("unknown parameter: Why %q, Reason %q", pe.Why, pe.Reason(dash, typed))
	}
}

// TestBetaBinomialGiven checks that the Beta-binomial's data are given
// when successes or total-trials is given, whatever its value: -1 (the
// default, which simulates) given alone still needs total-trials, and
// given with it is negative; and that the checks come in their order
// (the prior first).
func TestBetaBinomialGiven(t *testing.T) {
	for _, c := range []struct {
		v          Values
		param, why string
	}{
		{Values{"successes": -1}, "successes", "needs total-trials too"},
		{Values{"total-trials": 10}, "total-trials", "needs successes too"},
		{Values{"successes": -1, "total-trials": 10}, "successes", "must not be negative"},
		{Values{"successes": 1 << 53, "total-trials": 1 << 53}, "successes", "at most 2^52 = 4503599627370496, so that the totals stay exact in float64"},
		{Values{"successes": 0, "total-trials": 1<<52 + 2}, "total-trials", "the failures R − S must be at most 2^52 = 4503599627370496, so that the totals stay exact in float64"},
		{Values{"prior-a": 0, "successes": -1}, "prior-a", "must be in [1e-6, 1e15]: below, the annealed shapes (η0+η1)(a−1) + η1·S + 1 lose the prior; above, the data's integer precision"},
		{Values{"draws": 0}, "draws", "must be at least 1"},
		{Values{"success-prob": 1.5}, "success-prob", "must be in [0, 1]"},
		{Values{"draws": 1.5}, "draws", "must be an integer"}, // the ranges, after Check
	} {
		pe := paramError(t, BetaBinomial, c.v)
		if pe.Param != c.param || pe.Why != c.why {
			t.Errorf("%v: %s: %q; want %s: %q", c.v, pe.Param, pe.Why, c.param, c.why)
		}
	}
	if _, err := New(BetaBinomial, Values{"successes": 0, "total-trials": 0}, 1); err != nil {
		t.Errorf("no data (S = R = 0): %v", err)
	}
}

// TestGaussianChecks checks the Gaussian's refusals, in the order of its
// parameters: the dimension, the means, the standard deviations, then the
// energy scale (models.GaussianEnergyScale above 300).
func TestGaussianChecks(t *testing.T) {
	for _, c := range []struct {
		v          Values
		param, why string
	}{
		{Values{"dim": 0, "sigma0": 0}, "dim", "need at least 1"},
		{Values{"mu1": 2e100, "sigma0": 0}, "mu1", "must be in [-1e100, 1e100], so that μ/σ² stays within float64"},
		{Values{"sigma1": 1e101}, "sigma1", "must be in [1e-100, 1e100]: 1/σ² and μ/σ² must stay within float64 (1/σ² overflows below 1e-154 and underflows above 1e154)"},
		{Values{"mu0": -1e100, "mu1": 1e100, "sigma0": 1e-100}, "sigma0", fmt.Sprintf("the energies d·((|μ1−μ0| + 10⁴·σ_max)/σ_min)²/2 would reach about 1e%.0f, beyond the 1e300 float64 can carry",
			models.GaussianEnergyScale(1, -1e100, 1e100, 1e-100, 0.01))},
		{Values{"dim": 1<<62 + 4096}, "dim", "must be in [1, 4.611686018427388e+18]"}, // the range, after Check
	} {
		pe := paramError(t, Gaussian, c.v)
		if pe.Param != c.param || pe.Why != c.why {
			t.Errorf("%v: %s: %q; want %s: %q", c.v, pe.Param, pe.Why, c.param, c.why)
		}
	}
}

// TestSettings checks the settings a run records: every parameter's value
// by default (an Int's as int64, a choice's name, a Bool's bool, a text's
// text), and the models' own descriptions.
func TestSettings(t *testing.T) {
	g, _ := New(Gaussian, Values{"dim": 2}, 1)
	bb, _ := New(BetaBinomial, Values{"successes": 3, "total-trials": 10}, 1)
	sim, _ := New(BetaBinomial, Values{"draws": 10, "trials": 5}, 7)
	simBB := sim.(*models.BetaBinomial)
	f, _ := New(Funnel, Values{"explorer": 4}, 1)
	for _, c := range []struct {
		name  string
		given Values
		t     Texts
		m     models.Model
		want  map[string]any
	}{
		{Gaussian, Values{"dim": 2}, nil, g, map[string]any{"dim": int64(2), "mu0": -1.0, "mu1": 1.0, "sigma0": 0.01, "sigma1": 0.01}},
		{BetaBinomial, Values{"successes": 3, "total-trials": 10}, nil, bb, map[string]any{"prior_a": 180.0, "prior_b": 840.0, "successes": int64(3), "total_trials": int64(10)}},
		{BetaBinomial, Values{"draws": 10, "trials": 5}, nil, sim, map[string]any{"prior_a": 180.0, "prior_b": 840.0,
			"successes": simBB.Successes, "total_trials": int64(50), "draws": int64(10), "trials": int64(5), "success_prob": 0.7}},
		{Funnel, Values{"explorer": 4}, nil, f, map[string]any{"dim": int64(10), "scale": 3.0, "explorer": "hmc"}},
		{Galaxy, nil, nil, nil, map[string]any{"data": "galaxy velocities (Roeder 1990), thousands of km/s", "components": 6}},
		{Logistic, Values{"no-intercept": 1}, Texts{"data": "x.csv"}, nil, map[string]any{"data": "x.csv", "response": "y",
			"no_intercept": true, "prior_sd": 5.0, "explorer": "mala"}},
	} {
		if got := Settings(c.name, c.given, c.t, c.m); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %v: %v, want %v", c.name, c.given, got, c.want)
		}
	}
	if Settings("nope", nil, nil, nil) != nil {
		t.Error("Settings of a model not registered is not nil")
	}
}

// TestHelpStatesDefaults checks that a model's help that states the
// default of a parameter (the funnel's "--dim D (default 10)") states the
// parameter's default.
func TestHelpStatesDefaults(t *testing.T) {
	for _, name := range Names() {
		m, _ := Lookup(name)
		for _, p := range m.Params {
			i := strings.Index(m.Help, "--"+p.Name+" ")
			if i < 0 {
				continue
			}
			if want := fmt.Sprintf("(default %g)", p.Default); !strings.Contains(m.Help[i:], want) {
				t.Errorf("%s: help %q names --%s without %s", name, m.Help, p.Name, want)
			}
		}
	}
}

// TestValuesOf checks that ValuesOf keeps only the values given, puts
// texts in Texts, turns a Bool into 0 or 1 and a choice's name into its
// index, and refuses a name that is no choice, naming the choices.
func TestValuesOf(t *testing.T) {
	m, _ := Lookup(Logistic)
	given := map[string]any{"data": "x.csv", "no-intercept": true, "prior-sd": 2.5, "explorer": "hmc"}
	v, texts, err := m.ValuesOf(func(p string) (any, bool) { x, ok := given[p]; return x, ok })
	if err != nil || !reflect.DeepEqual(v, Values{"no-intercept": 1, "prior-sd": 2.5, "explorer": 4}) || !reflect.DeepEqual(texts, Texts{"data": "x.csv"}) {
		t.Errorf("ValuesOf = %v, %v, %v", v, texts, err)
	}
	u, _ := Lookup(Unid)
	v, _, err = u.ValuesOf(func(p string) (any, bool) { return map[string]any{"n": int64(10), "y": 3}[p], p == "n" || p == "y" })
	if err != nil || !reflect.DeepEqual(v, Values{"n": 10, "y": 3}) {
		t.Errorf("unid ValuesOf = %v, %v", v, err)
	}
	_, _, err = m.ValuesOf(func(p string) (any, bool) { return "nuts", p == "explorer" })
	var pe *ParamError
	if !errors.As(err, &pe) || pe.Param != "explorer" || pe.Why != "want rwm, slice, mala, automala, hmc or autohmc" {
		t.Errorf("explorer nuts: %v", err)
	}
	if d := m.DefaultText(m.Params[4]); d != "mala" {
		t.Errorf("DefaultText(explorer) = %q, want mala", d)
	}
}
