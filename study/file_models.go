package study

import (
	"errors"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/registry"
)

// choice is one value chosen for a key of a grid.
type choice struct {
	key *tomlKey
	val tomlValue
}

// product returns the cartesian product of the table's keys' values: one
// combination for scalars, and one per element of every list (the first
// key varies slowest).
func product(t *tomlTable) [][]choice {
	combos := [][]choice{nil}
	for i := range t.keys {
		k := &t.keys[i]
		var next [][]choice
		for _, c := range combos {
			for _, v := range k.vals {
				next = append(next, append(append([]choice(nil), c...), choice{k, v}))
			}
		}
		combos = next
	}
	return combos
}

// axes returns the grid axes of a combination: its list-valued keys.
func axes(c []choice) []Axis {
	var out []Axis
	for _, ch := range c {
		if ch.key.list {
			out = append(out, Axis{Name: ch.key.name, Value: ch.val.text})
		}
	}
	return out
}

// studySettings are the [study] table's values.
type studySettings struct {
	name                   string
	replicates, iterations int
	seeds                  []uint64
	chains                 *tomlKey
	line                   int            // the [study] table's
	lines                  map[string]int // its keys'
}

// readStudyTable reads [study]: name, replicates and iterations, and the
// optional seeds (default [1]) and chains (every method's default).
func readStudyTable(file string, tables []tomlTable) (studySettings, error) {
	s := studySettings{seeds: []uint64{1}, lines: map[string]int{}}
	var t *tomlTable
	for i := range tables {
		if tables[i].name == "study" {
			t = &tables[i]
		}
	}
	if t == nil {
		return s, fileError(file, 0, "no [study] table (it gives name, replicates and iterations)")
	}
	s.line = t.line
	for i := range t.keys {
		k := &t.keys[i]
		s.lines[k.name] = k.line
		var err error
		switch k.name {
		case "name":
			s.name, err = oneString(file, k)
		case "replicates":
			s.replicates, err = oneInt(file, k, 1)
		case "iterations":
			s.iterations, err = oneInt(file, k, 2)
		case "seeds":
			s.seeds, err = seedList(file, k)
		case "chains":
			s.chains = k
		default:
			err = keyError(file, k.line, k.name, "unknown key %q in [study] (it takes name, replicates, iterations, seeds and chains)", k.name)
		}
		if err != nil {
			return s, err
		}
	}
	for _, req := range []string{"name", "replicates", "iterations"} {
		if t.key(req) == nil {
			return s, keyError(file, t.line, req, "[study] needs %q", req)
		}
	}
	return s, nil
}

// oneString returns a key's single string value.
func oneString(file string, k *tomlKey) (string, error) {
	if k.list || k.vals[0].kind != unstable.String {
		return "", keyError(file, k.line, k.name, "key %q: want one string", k.name)
	}
	return k.vals[0].text, nil
}

// oneInt returns a key's single integer value, at least lo.
func oneInt(file string, k *tomlKey, lo int) (int, error) {
	n, ok := k.vals[0].integer()
	if k.list || !ok || n < lo {
		return 0, keyError(file, k.line, k.name, "key %q: want one whole number of at least %d", k.name, lo)
	}
	return n, nil
}

// seedList returns the seeds: whole numbers of 0 or more.
func seedList(file string, k *tomlKey) ([]uint64, error) {
	var out []uint64
	for _, v := range k.vals {
		n, err := strconv.ParseUint(v.text, 0, 64)
		if v.kind != unstable.Integer || err != nil {
			return nil, keyError(file, k.line, k.name, "key %q: want whole numbers of 0 or more", k.name)
		}
		out = append(out, n)
	}
	return out, nil
}

// readModels returns the model specifications of every [[model]] entry,
// its grid expanded, each checked by building it with the first seed.
func readModels(file string, tables []tomlTable, seed uint64) ([]ModelSpec, error) {
	var out []ModelSpec
	for i := range tables {
		t := &tables[i]
		if t.name != "model" {
			continue
		}
		nk := t.key("name")
		if nk == nil {
			return nil, fileError(file, t.line, "[[model]] needs a name (%s)", strings.Join(registry.Names(), ", "))
		}
		name, err := oneString(file, nk)
		if err != nil {
			return nil, err
		}
		m, ok := registry.Lookup(name)
		if !ok {
			return nil, keyError(file, nk.line, "name", "unknown model %q (want %s)", name, strings.Join(registry.Names(), ", "))
		}
		specs, err := modelSpecs(file, t, m, seed)
		if err != nil {
			return nil, err
		}
		out = append(out, specs...)
	}
	if len(out) == 0 {
		return nil, fileError(file, 0, "no [[model]] entry")
	}
	return out, nil
}

// modelSpecs expands one [[model]] entry of model m.
func modelSpecs(file string, t *tomlTable, m registry.Model, seed uint64) ([]ModelSpec, error) {
	for i := range t.keys {
		k := &t.keys[i]
		if k.name == "name" {
			continue
		}
		if _, ok := m.Param(k.name); !ok {
			return nil, keyError(file, k.line, k.name, "key %q does not apply to model %s (%s)", k.name, m.Name, takes(m))
		}
	}
	var out []ModelSpec
	for _, c := range product(t) {
		spec := ModelSpec{Name: m.Name, Values: registry.Values{}, Grid: axes(c)}
		for _, ch := range c {
			if ch.key.name == "name" {
				continue
			}
			x, ok := paramValue(m, ch.key.name, ch.val)
			if !ok {
				return nil, keyError(file, ch.key.line, ch.key.name, "key %q: want a finite number, not %q", ch.key.name, ch.val.text)
			}
			spec.Values[ch.key.name] = x
		}
		if _, err := registry.New(m.Name, spec.Values, seed); err != nil {
			var pe *registry.ParamError
			line := t.line
			if errors.As(err, &pe) && t.key(pe.Param) != nil {
				line = t.key(pe.Param).line
				return nil, keyError(file, line, pe.Param, "key %q = %v: %s", pe.Param, pe.Value, pe.Why)
			}
			return nil, fileError(file, line, "model %s: %v", m.Name, err)
		}
		out = append(out, spec)
	}
	return out, nil
}

// takes says which keys a model takes.
func takes(m registry.Model) string {
	if len(m.Params) == 0 {
		return "it takes only name"
	}
	names := make([]string, len(m.Params))
	for i, p := range m.Params {
		names[i] = p.Name
	}
	return "it takes " + strings.Join(names, ", ")
}

// configKeys maps a batch.ConfigError's field to the study file's key.
var configKeys = map[string]string{"Chains": "chains", "Scans": "scans", "Knots": "knots", "LearningRate": "lr",
	"Iterations": "iterations", "KeepScans": "keep-scans", "Gradient": "gradient", "Tuning": "tuning", "Replicates": "replicates"}

// configError returns err as a file error at the line of the key it is
// about in the method's entry t, or in [study], or at the entry's line.
func configError(file string, t *tomlTable, st studySettings, err error) error {
	var ce *batch.ConfigError
	if !errors.As(err, &ce) {
		return fileError(file, t.line, "%v", err)
	}
	key := configKeys[ce.Field]
	line := t.line
	if k := t.key(key); k != nil {
		line = k.line
	} else if l, ok := st.lines[key]; ok {
		line = l
	}
	return keyError(file, line, key, "key %q = %v: %s", key, ce.Value, ce.Why)
}

// paramValue returns a study file's value of parameter name of model m:
// a number, or for a parameter with named choices (registry.Model.Choices,
// the funnel's explorer) one of the names.
func paramValue(m registry.Model, name string, v tomlValue) (float64, bool) {
	if v.kind == unstable.String {
		return m.Choice(name, v.text)
	}
	return v.number()
}
