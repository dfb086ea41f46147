package runout

import (
	"fmt"
	"math"
	"strings"

	"github.com/ptbatch/ptbatch/batch"
)

// MaxChains is the largest number of chains a run takes: the index
// process records replica numbers as int32.
const MaxChains = math.MaxInt32

// KnotsWhy says why a spline path takes at most chains − 1 segments.
const KnotsWhy = "with more segments than chains − 1, some hold no chain of the starting uniform schedule, and the SKL surrogate, which sees the path only at the chains, cannot place them"

// Spec is a run's sizes and path settings as a user gave them (a command
// line, a study file), before any default replaces a zero: what
// CheckSizes and CheckPath refuse or warn about, in the words of the
// settings, which are `ptbatch run`'s flag names without the dashes.
type Spec struct {
	Tuning     batch.Tuning
	Chains     int
	Replicates int
	Iterations int
	Scans      int
	Workers    int // 0: all CPUs
	Thin       int // samples.csv keeps every Thin-th kept state
	KeepScans  int // 0: the last half
	// ChainsAuto is set when pilot runs choose the chains
	// (batch.ChooseChains): the knots are then not held to Chains.
	ChainsAuto bool
	// Spline is set for a spline path of Knots segments (alg:PT_tuning
	// tunes its knots when Knots ≥ 2 by Adagrad steps of LearningRate
	// under batch.PaperTuning, with the SKL gradient's Gradient form,
	// "block" or "full"); unset, the path is linear and the three are
	// not checked.
	Spline       bool
	Knots        int
	LearningRate float64
	Gradient     string
	// Reference is the run's reference, "fixed" (or "", the model's
	// own), "variational" or "stabilized" (the stabilised two-leg PT,
	// half the chains on a second leg: StabilizedLeg), and Variational the
	// fitted Gaussian's family ("" for the default), which applies only
	// to the last two.
	Reference   string
	Variational string
}

// StabilizedLeg returns the chains of the second leg of a run of chains
// chains with the stabilized reference: half of them, rounded down, as a
// study's method and `ptbatch run --reference stabilized` put there
// (batch.Config.VariationalLeg); leg 1 has the others.
func StabilizedLeg(chains int) int { return chains / 2 }

// SettingError is a setting of a run refused by Spec's checks: the
// setting as `ptbatch run`'s flags and a study file's keys name it
// ("iterations"), its value, and why. Why may name another setting, Ref,
// whose value is RefValue: "{-scans}" stands for its name and "{scans}"
// for its value, which Reason lets a caller word its own way.
type SettingError struct {
	Setting  string
	Value    any
	Why      string
	Ref      string
	RefValue any
}

// Reason returns Why with the setting Ref named by name(Ref) and its
// value shown by show(Ref).
func (e *SettingError) Reason(name, show func(setting string) string) string {
	if e.Ref == "" {
		return e.Why
	}
	return strings.NewReplacer("{-"+e.Ref+"}", name(e.Ref), "{"+e.Ref+"}", show(e.Ref)).Replace(e.Why)
}

// Error returns "runout: <setting> = <value>: <why>", settings named as
// they are and values as %v prints them.
func (e *SettingError) Error() string {
	why := e.Reason(func(s string) string { return s }, func(string) string { return fmt.Sprint(e.RefValue) })
	return fmt.Sprintf("runout: %s = %v: %s", e.Setting, e.Value, why)
}

// Is reports whether target is batch.ErrConfig: a setting refused is a
// bad configuration.
func (e *SettingError) Is(target error) bool { return target == batch.ErrConfig }

// KnotsError is CheckPath's error for a spline of more segments than
// chains − 1 (KnotsWhy).
type KnotsError struct{ Knots, Chains int }

// Error returns "runout: knots = K: at most chains − 1 = … segments with
// C chains: " and KnotsWhy.
func (e *KnotsError) Error() string {
	return fmt.Sprintf("runout: knots = %d: at most chains − 1 = %d segments with %d chains: %s", e.Knots, e.Chains-1, e.Chains, KnotsWhy)
}

// Is reports whether target is batch.ErrConfig.
func (e *KnotsError) Is(target error) bool { return target == batch.ErrConfig }

// Warning is a setting a run takes but that cannot do what it is for:
// the setting, its value and why, as SettingError's.
type Warning struct {
	Setting string
	Value   any
	Why     string
}

// CheckSizes refuses, with a *SettingError, the first size of s a run
// cannot take, in a fixed order: iterations (at least 2 for the
// automatic tuner, which tunes in the first half), chains (2 to
// MaxChains), replicates, scans (at least 1, dividing the iterations
// into equal scans), workers, thin and keep-scans.
func (s *Spec) CheckSizes() error {
	bad := func(setting string, v any, why string) error {
		return &SettingError{Setting: setting, Value: v, Why: why}
	}
	perScan := func(why string) error {
		return &SettingError{Setting: "iterations", Value: s.Iterations, Why: why, Ref: "scans", RefValue: s.Scans}
	}
	switch {
	case s.Tuning == batch.AutoTuning && s.Iterations < 2:
		return bad("iterations", s.Iterations, "need at least 2 iterations (the automatic tuner tunes in the first half)")
	case s.Chains < 2:
		return bad("chains", s.Chains, "need at least 2 chains")
	case s.Chains > MaxChains:
		return bad("chains", s.Chains, fmt.Sprintf("at most %d chains (replica numbers are 32-bit)", MaxChains))
	case s.Replicates < 1:
		return bad("replicates", s.Replicates, "need at least 1 replicate")
	case s.Scans < 1:
		return bad("scans", s.Scans, "need at least 1 scan")
	case s.Iterations < s.Scans:
		return perScan("need at least one iteration per scan ({-scans} {scans})")
	case s.Iterations%s.Scans != 0:
		return perScan("must be a multiple of {-scans} ({scans}) so that scans are equal")
	case s.Workers < 0:
		return bad("workers", s.Workers, "need 0 (all CPUs) or more")
	case s.Thin < 1:
		return bad("thin", s.Thin, "need at least 1")
	case s.KeepScans < 0:
		return bad("keep-scans", s.KeepScans, "need 0 (the last half) or more")
	}
	return s.checkReference()
}

// checkReference refuses a reference other than fixed, variational and
// stabilized, a Gaussian family with the fixed reference, and for the
// stabilized reference chains chosen by pilots (batch.ChooseChains
// maximises the round-trip rate of one leg) or fewer than 4 (each leg
// needs 2, batch.Config.VariationalLeg). A family other than diag and
// dense, and a model whose state is not unconstrained real, are
// models.WithVariational's and models.WithStabilized's to refuse.
func (s *Spec) checkReference() error {
	bad := func(setting string, v any, why string) error {
		return &SettingError{Setting: setting, Value: v, Why: why, Ref: "reference", RefValue: s.Reference}
	}
	switch {
	case s.Reference != "" && s.Reference != "fixed" && s.Reference != "variational" && s.Reference != "stabilized":
		return bad("reference", s.Reference, "want fixed, variational or stabilized")
	case s.Variational != "" && (s.Reference == "" || s.Reference == "fixed"):
		return bad("variational", s.Variational, "applies only to {-reference} variational and stabilized, which fit a Gaussian")
	case s.Reference != "stabilized":
		return nil
	case s.ChainsAuto:
		return bad("chains", "auto", "does not apply to {-reference} stabilized: the pilots choose the chains of one leg, and its two legs share them; give the number of chains")
	case s.Chains < 4:
		return bad("chains", s.Chains, fmt.Sprintf("{-reference} stabilized needs at least 4 chains: half of them, %d, run its second leg, and each leg needs at least 2", StabilizedLeg(s.Chains)))
	}
	return nil
}

// CheckPath refuses the settings of a spline path a run cannot take —
// fewer than 1 segment, more than chains − 1 (a *KnotsError), more than
// C1 − 1 with the stabilized reference, whose spline runs on leg 1 of C1
// chains (StabilizedLeg), and for a
// tuned spline (2 knots or more) a learning rate CheckLR refuses under
// the paper's tuning, a gradient form other than block or full, or the
// full form under the automatic tuner — and returns CheckLR's warnings.
// A linear path is not checked.
func (s *Spec) CheckPath() ([]Warning, error) {
	switch {
	case !s.Spline:
		return nil, nil
	case s.Knots < 1:
		return nil, &SettingError{Setting: "knots", Value: s.Knots, Why: "need at least 1"}
	case s.Knots > s.Chains-1 && !s.ChainsAuto:
		return nil, &KnotsError{Knots: s.Knots, Chains: s.Chains}
	case s.Reference == "stabilized" && s.Knots > s.Chains-StabilizedLeg(s.Chains)-1:
		c1 := s.Chains - StabilizedLeg(s.Chains)
		return nil, &SettingError{Setting: "chains", Value: s.Chains, Ref: "knots", RefValue: s.Knots,
			Why: fmt.Sprintf("with the stabilized reference the spline is leg 1's, which has %d of the chains (the second leg the other %d), and {-knots} {knots} needs %d there, %d chains or more: %s", c1, StabilizedLeg(s.Chains), s.Knots+1, 2*s.Knots+1, KnotsWhy)}
	case s.Knots < 2:
		return nil, nil
	}
	var warnings []Warning
	if s.Tuning != batch.AutoTuning {
		var err error
		if warnings, err = CheckLR(s.LearningRate, s.Scans); err != nil {
			return nil, err
		}
	}
	switch {
	case s.Gradient != "block" && s.Gradient != "full":
		return warnings, &SettingError{Setting: "gradient", Value: s.Gradient, Why: "want block or full"}
	case s.Tuning == batch.AutoTuning && s.Gradient == "full":
		return warnings, &SettingError{Setting: "gradient", Value: s.Gradient, Ref: "tuning", RefValue: s.Tuning,
			Why: "applies only to {-tuning} paper; the automatic tuner uses the block form"}
	}
	return warnings, nil
}

// CheckLR refuses a learning rate that is not positive and finite, and
// warns about one whose Adagrad steps cannot move the knots over scans
// scans. The n-th step changes a knot's log by lr·g_n/√(Σ g²) with
// |g| < 1, about lr/√n: below 2⁻⁵² (for every n) it is lost in the
// rounding of exp(log φ - step), and when even the last scan's lr/√scans
// exceeds 745 every step takes the knot to 0 (exp underflows) or beyond
// 1, where the monotone repair puts it back.
func CheckLR(lr float64, scans int) ([]Warning, error) {
	switch {
	case !(lr > 0) || math.IsInf(lr, 0):
		return nil, &SettingError{Setting: "lr", Value: lr, Why: "must be positive and finite"}
	case lr < 0x1p-52:
		return []Warning{{"lr", lr, "cannot move the knots: an Adagrad step changes log φ by at most the learning rate, which is below float64's resolution of the knots (2^-52)"}}, nil
	case lr/math.Sqrt(float64(scans)) > 745:
		return []Warning{{"lr", lr, fmt.Sprintf("cannot move the knots: the n-th Adagrad step changes log φ by about lr/√n, more than 745 up to the last of %d scans, which takes a knot to 0 (exp underflows) or beyond 1, where the monotone repair resets it", scans)}}, nil
	}
	return nil, nil
}
