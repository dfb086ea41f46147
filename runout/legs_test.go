package runout

import (
	"errors"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
)

// TestCheckReference checks the refusals of the reference settings
// (CheckSizes' last, and CheckPath's knots on leg 1) at their bounds: the
// settings a run takes, and the first ones refused, with the setting named.
func TestCheckReference(t *testing.T) {
	for _, c := range []struct {
		name    string
		change  func(*Spec)
		setting string // "" for none
		why     string
	}{
		{"fixed", func(s *Spec) { s.Reference = "fixed" }, "", ""},
		{"variational dense", func(s *Spec) { s.Reference, s.Variational = "variational", "dense" }, "", ""},
		{"stabilized", func(s *Spec) { s.Reference = "stabilized" }, "", ""},
		{"unknown", func(s *Spec) { s.Reference = "prior" }, "reference", "want fixed, variational or stabilized"},
		{"family with fixed", func(s *Spec) { s.Reference, s.Variational = "fixed", "diag" }, "variational", "applies only to reference variational and stabilized"},
		{"family alone", func(s *Spec) { s.Variational = "dense" }, "variational", "applies only to"},
		{"stabilized, 4 linear chains", func(s *Spec) { s.Reference, s.Chains, s.Spline = "stabilized", 4, false }, "", ""},
		{"stabilized, 3 chains", func(s *Spec) { s.Reference, s.Chains, s.Spline = "stabilized", 3, false }, "chains", "needs at least 4 chains: half of them, 1,"},
		{"stabilized, chains auto", func(s *Spec) { s.Reference, s.ChainsAuto = "stabilized", true }, "chains", "does not apply to reference stabilized"},
		// K = 4 knots need C1 = 5 chains on leg 1: 9 chains (5 + 4), not 8 (4 + 4).
		{"stabilized, 9 chains, K = 4", func(s *Spec) { s.Reference, s.Chains = "stabilized", 9 }, "", ""},
		{"stabilized, 8 chains, K = 4", func(s *Spec) { s.Reference, s.Chains = "stabilized", 8 }, "chains", "leg 1's, which has 4 of the chains (the second leg the other 4), and knots 4 needs 5 there, 9 chains or more"},
		{"variational, 8 chains, K = 4", func(s *Spec) { s.Reference, s.Chains = "variational", 8 }, "", ""},
	} {
		s := okSpec()
		c.change(&s)
		err := s.CheckSizes()
		if err == nil {
			_, err = s.CheckPath()
		}
		var se *SettingError
		switch {
		case c.setting == "" && err != nil:
			t.Errorf("%s: %v, want no error", c.name, err)
		case c.setting == "":
		case !errors.As(err, &se) || !errors.Is(err, batch.ErrConfig):
			t.Errorf("%s: %v, want a *SettingError matching batch.ErrConfig", c.name, err)
		case se.Setting != c.setting || !strings.Contains(err.Error(), c.why):
			t.Errorf("%s: %q (setting %s), want setting %s and %q", c.name, err, se.Setting, c.setting, c.why)
		}
	}
	for chains, want := range map[int]int{4: 2, 5: 2, 50: 25, 51: 25} {
		if got := StabilizedLeg(chains); got != want {
			t.Errorf("StabilizedLeg(%d) = %d, want %d", chains, got, want)
		}
	}
}

// TestLegFigures checks the per-leg table rows and JSON of a hand-made
// result of two replicates against the arithmetic done by hand, and that
// a run with one leg has neither (its table and summary.json stay as
// they were).
func TestLegFigures(t *testing.T) {
	res := &batch.Result{Legs: [][2]batch.Leg{
		{{Chains: 3, RoundTrips: 1, Restarts: 4, RoundTripRate: 0.1, Barrier: 5}, {Chains: 2, RoundTrips: 10, Restarts: 12, RoundTripRate: 0.3, Barrier: 0.5}},
		{{Chains: 3, RoundTrips: 2, Restarts: 6, RoundTripRate: 0.3, Barrier: 7}, {Chains: 2, RoundTrips: 20, Restarts: 21, RoundTripRate: 0.5, Barrier: 1.5}},
	}}
	legs := Legs(res)
	if len(legs) != 2 || legs[0].Chains != 3 || legs[1].Chains != 2 || legs[1].RoundTrips[1] != 20 || legs[0].Barriers[1] != 7 {
		t.Fatalf("Legs = %+v", legs)
	}
	rows := strings.Split(strings.TrimSuffix(LegRows(res), "\n"), "\n")
	// Leg 1: Λ mean 6, sd √2, se 1; 3 round trips, 10 restarts; rate mean
	// 0.2, sd √0.02 = 0.14142. Leg 2: Λ 1 ± 0.5; 30 and 33; 0.4 ± 0.14142.
	for i, want := range []string{
		"leg 1 (model's reference → target)\t3 chains; barrier Λ 6.0000 ± 1.0000 (mean ± se over replicates); 3 round trips and 10 restarts (all scans, all replicates, counted at the leg's reference); round-trip rate 0.20000 ± 0.14142",
		"leg 2 (target → fitted Gaussian)\t2 chains; barrier Λ 1.0000 ± 0.5000 (mean ± se over replicates); 30 round trips and 33 restarts (all scans, all replicates, counted at the leg's reference); round-trip rate 0.40000 ± 0.14142",
	} {
		if len(rows) != 2 || !strings.HasPrefix(rows[i], want) {
			t.Errorf("LegRows row %d:\n%q\nwant it to start with\n%q", i+1, rows, want)
		}
	}
	js := legsJSON(res)
	if len(js) != 2 || js[0]["barrier"] != 6.0 || js[1]["round_trip_rate"] != 0.4 || js[1]["chains"] != 2 {
		t.Errorf("legsJSON = %v", js)
	}
	if r := (&batch.Result{}); Legs(r) != nil || LegRows(r) != "" || legsJSON(r) != nil {
		t.Errorf("one leg: Legs %v, rows %q, JSON %v; want none", Legs(r), LegRows(r), legsJSON(r))
	}
}
