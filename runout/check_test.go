package runout

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
)

// okSpec is a spec that passes both checks: `ptbatch run`'s defaults
// (batch.DefaultConfig's sizes, 45000 iterations in the 150 scans of the
// paper's tuning, a tuned 4-knot spline, the block gradient).
func okSpec() Spec {
	return Spec{Tuning: batch.PaperTuning, Chains: batch.DefaultChains, Replicates: batch.DefaultReplicates,
		Iterations: 45000, Scans: 150, Thin: 1, Spline: true, Knots: batch.DefaultKnots,
		LearningRate: batch.DefaultLearningRate, Gradient: "block"}
}

// TestCheckSizes changes one size of okSpec at a time to the first value
// refused (the bounds CheckSizes documents) and checks the setting named,
// its value and the reason in both wordings: Error's and a command line's
// through Reason.
func TestCheckSizes(t *testing.T) {
	if s := okSpec(); s.CheckSizes() != nil {
		t.Fatalf("okSpec refused: %v", s.CheckSizes())
	}
	flag := func(s string) string { return "--" + s }
	for _, c := range []struct {
		change       func(*Spec)
		setting      string
		value        any
		err, cmdline string
	}{
		{func(s *Spec) { s.Tuning, s.Iterations, s.Scans = batch.AutoTuning, 1, 1 }, "iterations", 1, "need at least 2 iterations", ""},
		{func(s *Spec) { s.Chains = 1 }, "chains", 1, "need at least 2 chains", ""},
		{func(s *Spec) { s.Chains = MaxChains + 1 }, "chains", MaxChains + 1, "at most 2147483647 chains", ""},
		{func(s *Spec) { s.Replicates = 0 }, "replicates", 0, "need at least 1 replicate", ""},
		{func(s *Spec) { s.Scans = 0 }, "scans", 0, "need at least 1 scan", ""},
		{func(s *Spec) { s.Iterations = 149 }, "iterations", 149, "need at least one iteration per scan (scans 150)", "(--scans 0150)"},
		{func(s *Spec) { s.Iterations = 45001 }, "iterations", 45001, "must be a multiple of scans (150) so that", "must be a multiple of --scans (0150) so that"},
		{func(s *Spec) { s.Workers = -1 }, "workers", -1, "need 0 (all CPUs) or more", ""},
		{func(s *Spec) { s.Thin = 0 }, "thin", 0, "need at least 1", ""},
		{func(s *Spec) { s.KeepScans = -1 }, "keep-scans", -1, "need 0 (the last half) or more", ""},
	} {
		s := okSpec()
		c.change(&s)
		var se *SettingError
		err := s.CheckSizes()
		if !errors.As(err, &se) || !errors.Is(err, batch.ErrConfig) {
			t.Errorf("%s: %v, want a *SettingError matching batch.ErrConfig", c.setting, err)
			continue
		}
		if se.Setting != c.setting || se.Value != c.value || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s = %v: %q (setting %s, value %v)", c.setting, c.value, err, se.Setting, se.Value)
		}
		// A command line shows the value as typed: 0150 for 150.
		if got := se.Reason(flag, func(string) string { return "0150" }); c.cmdline != "" && !strings.Contains(got, c.cmdline) {
			t.Errorf("%s: Reason = %q, want it to contain %q", c.setting, got, c.cmdline)
		}
	}
}

// TestCheckPath checks the spline's refusals and warnings, and that a
// linear path and the chains chosen by pilots are not held to the knots.
func TestCheckPath(t *testing.T) {
	for _, c := range []struct {
		name    string
		change  func(*Spec)
		setting string // "" with no error; "knots-chains" for a *KnotsError
		warn    string
	}{
		{"defaults", func(*Spec) {}, "", ""},
		{"linear", func(s *Spec) { s.Spline, s.Knots, s.Gradient = false, -3, "x" }, "", ""},
		{"no knots", func(s *Spec) { s.Knots = 0 }, "knots", ""},
		{"knots over chains", func(s *Spec) { s.Chains = 4 }, "knots-chains", ""},
		{"chains auto", func(s *Spec) { s.Chains, s.ChainsAuto = 4, true }, "", ""},
		{"one knot", func(s *Spec) { s.Knots, s.LearningRate, s.Gradient = 1, -1, "x" }, "", ""},
		{"lr", func(s *Spec) { s.LearningRate = math.Inf(1) }, "lr", ""},
		{"lr auto", func(s *Spec) { s.Tuning, s.LearningRate = batch.AutoTuning, 0 }, "", ""},
		{"gradient", func(s *Spec) { s.Gradient = "diagonal" }, "gradient", ""},
		{"full auto", func(s *Spec) { s.Tuning, s.Gradient = batch.AutoTuning, "full" }, "gradient", ""},
		{"lr tiny", func(s *Spec) { s.LearningRate = 0x1p-53 }, "", "below float64's resolution"},
		{"lr huge", func(s *Spec) { s.LearningRate = 746 * math.Sqrt(150) }, "", "more than 745 up to the last of 150 scans"},
	} {
		s := okSpec()
		c.change(&s)
		warnings, err := s.CheckPath()
		var se *SettingError
		var ke *KnotsError
		switch {
		case c.setting == "" && err != nil:
			t.Errorf("%s: %v, want no error", c.name, err)
		case c.setting == "knots-chains" && (!errors.As(err, &ke) || ke.Knots != 4 || ke.Chains != 4 || !errors.Is(err, batch.ErrConfig)):
			t.Errorf("%s: %v, want a *KnotsError of 4 knots and 4 chains", c.name, err)
		case c.setting != "" && c.setting != "knots-chains" && (!errors.As(err, &se) || se.Setting != c.setting):
			t.Errorf("%s: %v, want a *SettingError of %s", c.name, err, c.setting)
		}
		if (c.warn == "") != (len(warnings) == 0) || (c.warn != "" && (warnings[0].Setting != "lr" || !strings.Contains(warnings[0].Why, c.warn))) {
			t.Errorf("%s: warnings %v, want %q", c.name, warnings, c.warn)
		}
	}
	s := okSpec()
	s.Tuning, s.Gradient = batch.AutoTuning, "full"
	_, err := s.CheckPath()
	if want := "runout: gradient = full: applies only to tuning paper;"; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Error = %q, want it to start %q", err, want)
	}
}
