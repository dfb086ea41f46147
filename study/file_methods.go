package study

import (
	"errors"
	"slices"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// methodKeys are the keys of a [[method]] entry: `ptbatch run`'s flags
// that set a run's method.
var methodKeys = []string{"label", "algorithm", "tuning", "path", "knots", "scans", "lr", "chains", "gradient", "tune-schedule", "keep-scans", "reference", "variational"}

// readMethods returns the methods of every [[method]] entry, its grid
// expanded, each with its entry (for the lines of its errors).
func readMethods(file string, tables []tomlTable, st studySettings) ([]Method, []*tomlTable, error) {
	var out []Method
	var from []*tomlTable
	for i := range tables {
		t := tables[i] // a copy: [study]'s chains may be added
		if t.name != "method" {
			continue
		}
		for _, k := range t.keys {
			if !slices.Contains(methodKeys, k.name) {
				return nil, nil, keyError(file, k.line, k.name, "unknown key %q in [[method]] (it takes %s)", k.name, flagWords(methodKeys))
			}
		}
		lk := t.key("label")
		if lk == nil {
			return nil, nil, fileError(file, t.line, "[[method]] needs a label")
		}
		label, err := oneString(file, lk)
		if err != nil {
			return nil, nil, err
		}
		if t.key("chains") == nil && st.chains != nil {
			t.keys = append(slices.Clone(t.keys), *st.chains)
		}
		for _, c := range product(&t) {
			meth, err := methodOf(file, label, c)
			if err != nil {
				return nil, nil, err
			}
			out, from = append(out, meth), append(from, &t)
		}
	}
	if len(out) == 0 {
		return nil, nil, fileError(file, 0, "no [[method]] entry")
	}
	return out, from, nil
}

// flagWords returns "a, b and c".
func flagWords(names []string) string {
	s := ""
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			s += " and "
		default:
			s += ", "
		}
		s += n
	}
	return s
}

// methodValues are one combination's values by key.
type methodValues map[string]choice

// str returns a string key's value, or def when it is not given.
func (m methodValues) str(file, key, def string, allowed ...string) (string, error) {
	ch, ok := m[key]
	if !ok {
		return def, nil
	}
	if ch.val.kind != unstable.String || !slices.Contains(allowed, ch.val.text) {
		return "", keyError(file, ch.key.line, key, "key %q = %q: want %s", key, ch.val.text, flagWords(allowed))
	}
	return ch.val.text, nil
}

// num returns an integer key's value (at least lo), or 0 when it is not
// given.
func (m methodValues) num(file, key string, lo int) (int, error) {
	ch, ok := m[key]
	if !ok {
		return 0, nil
	}
	n, ok := ch.val.integer()
	if !ok || n < lo {
		return 0, keyError(file, ch.key.line, key, "key %q = %s: want a whole number of at least %d", key, ch.val.text, lo)
	}
	return n, nil
}

// refuse returns the error for a key given where it does not apply.
func (m methodValues) refuse(file, key, why string) error {
	return keyError(file, m[key].key.line, key, "key %q does not apply here: %s", key, why)
}

// methodOf builds one method from a combination, with `ptbatch run`'s
// defaults and rules: the paper's settings (reversible, scans, lr,
// gradient full) select the paper's tuning unless tuning is given; the
// path is a spline with auto tuning and linear with paper; knots apply to
// a spline, scans and lr to the paper's tuning.
func methodOf(file, label string, c []choice) (Method, error) {
	m := methodValues{}
	for _, ch := range c {
		m[ch.key.name] = ch
	}
	meth := Method{Label: label, Grid: axes(c)}
	var err error
	if meth.Algorithm, err = m.str(file, "algorithm", "nrpt", "nrpt", "reversible"); err != nil {
		return meth, err
	}
	_, scans := m["scans"]
	_, lr := m["lr"]
	gradient, err := m.str(file, "gradient", "block", "block", "full")
	if err != nil {
		return meth, err
	}
	tuning := DefaultTuning(meth.Algorithm, scans, lr, gradient)
	if meth.Tuning, err = m.str(file, "tuning", tuning, "auto", "paper"); err != nil {
		return meth, err
	}
	path, err := m.str(file, "path", DefaultPath(meth.Tuning), "linear", "spline")
	if err != nil {
		return meth, err
	}
	if meth.Reference, err = m.str(file, "reference", "fixed", "fixed", "variational", "stabilized"); err != nil {
		return meth, err
	}
	if meth.Reference == "fixed" {
		meth.Reference = "" // the model's own: Method's zero value
	}
	if meth.Variational, err = m.str(file, "variational", "", "diag", "dense"); err != nil {
		return meth, err
	} else if _, ok := m["variational"]; ok && meth.Reference != "variational" && meth.Reference != "stabilized" {
		return meth, m.refuse(file, "variational", "it applies only to references \"variational\" and \"stabilized\"")
	} else if meth.Variational == "diag" {
		meth.Variational = "" // Method's zero value
	}
	return methodNumbers(file, m, meth, path, gradient)
}

// methodNumbers reads a method's numeric and boolean keys.
func methodNumbers(file string, m methodValues, meth Method, path, gradient string) (Method, error) {
	var err error
	for _, k := range []struct {
		key string
		dst *int
		lo  int
	}{{"knots", &meth.Knots, 1}, {"scans", &meth.Scans, 1}, {"chains", &meth.Chains, 2}, {"keep-scans", &meth.KeepScans, 0}} {
		if *k.dst, err = m.num(file, k.key, k.lo); err != nil {
			return meth, err
		}
	}
	_, hasKnots := m["knots"]
	switch {
	case hasKnots && path != "spline":
		return meth, m.refuse(file, "knots", "the linear path has no knots")
	case meth.Scans > 0 && meth.Tuning == "auto":
		return meth, m.refuse(file, "scans", "the automatic tuner (tuning auto) chooses its scans")
	case gradient == "full" && meth.Tuning == "auto":
		return meth, m.refuse(file, "gradient", "the automatic tuner uses the block form")
	}
	meth.Gradient = gradient
	if path == "linear" {
		meth.Knots = 1
	} else if meth.Knots == 0 {
		meth.Knots = batch.DefaultKnots
	}
	chains := meth.Chains
	if chains == 0 {
		chains = batch.DefaultChains
	}
	if meth.Knots > chains-1 {
		return meth, keyError(file, m.line("knots", "chains"), "knots", "knots %d: at most chains − 1 = %d segments", meth.Knots, chains-1)
	}
	if err := m.checkLegs(file, meth, chains); err != nil {
		return meth, err
	}
	if ch, ok := m["lr"]; ok {
		x, ok := ch.val.number()
		switch {
		case meth.Tuning == "auto" || meth.Knots < 2:
			return meth, m.refuse(file, "lr", "it applies only to the paper's tuning of a spline path (knots 2 or more)")
		case !ok || !(x > 0):
			return meth, keyError(file, ch.key.line, "lr", "key \"lr\" = %s: must be positive and finite", ch.val.text)
		}
		meth.LearningRate = x
	}
	if ch, ok := m["tune-schedule"]; ok {
		if ch.val.kind != unstable.Bool {
			return meth, keyError(file, ch.key.line, "tune-schedule", "key \"tune-schedule\" = %s: want true or false", ch.val.text)
		}
		b := ch.val.text == "true"
		meth.TuneSchedule = &b
	}
	return meth, nil
}

// checkLegs refuses, for the stabilized reference, which puts
// chains/2 of the method's chains on its second leg (withReference),
// fewer than 4 chains (each leg needs 2, batch.Config.VariationalLeg)
// and a spline of more knots than leg 1's chains − 1 (the spline is leg
// 1's), at the line of the chains key, or of the knots or reference key.
func (m methodValues) checkLegs(file string, meth Method, chains int) error {
	if meth.Reference != "stabilized" {
		return nil
	}
	c1 := chains - chains/2
	switch {
	case chains < 4:
		return keyError(file, m.line("chains", "reference"), "chains", "chains %d: the stabilized reference needs at least 4, half of them on its second leg and each leg at least 2", chains)
	case meth.Knots > c1-1:
		return keyError(file, m.line("knots", "chains", "reference"), "knots", "knots %d: at most %d segments with the stabilized reference and chains %d: the spline is leg 1's, which has %d of the chains (the second leg the other %d)", meth.Knots, c1-1, chains, c1, chains/2)
	}
	return nil
}

// line returns the line of the first of keys given, or 0.
func (m methodValues) line(keys ...string) int {
	for _, k := range keys {
		if ch, ok := m[k]; ok {
			return ch.key.line
		}
	}
	return 0
}

// checkReferences refuses a method with reference = "variational" or
// "stabilized" for a
// model that is not models.Unconstrained (its state is not unconstrained
// real, or its reference normaliser is unknown), at the line of the
// method's reference key; from are the methods' entries (readMethods).
// Each model is built with the seed.
func checkReferences(file string, specs []ModelSpec, methods []Method, from []*tomlTable, seed uint64) error {
	for _, spec := range specs {
		var m models.Model
		for i, meth := range methods {
			if meth.Reference == "" {
				continue
			}
			if m == nil {
				var err error
				if m, err = spec.New(seed); err != nil {
					return fileError(file, 0, "model %s: %v", spec.Name, err)
				}
			}
			if _, err := buildReference(meth, m, 0); err != nil {
				why := err.Error()
				if errors.Is(err, models.ErrNotUnconstrained) {
					why = models.ErrNotUnconstrained.Error()
				}
				return keyError(file, from[i].key("reference").line, "reference", "key \"reference\" = %q does not apply to model %s: %s", meth.Reference, spec.Name, why)
			}
		}
	}
	return nil
}
