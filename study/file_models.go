package study

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
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
	dir := filepath.Dir(file)
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
		specs, err := modelSpecs(file, dir, t, m, seed)
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

// modelSpecs expands one [[model]] entry of model m; dir is the study
// file's directory, against which a relative data path is resolved.
func modelSpecs(file, dir string, t *tomlTable, m registry.Model, seed uint64) ([]ModelSpec, error) {
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
		spec := ModelSpec{Name: m.Name, Values: registry.Values{}, Dir: dir, Grid: axes(c)}
		for _, ch := range c {
			if ch.key.name == "name" {
				continue
			}
			if err := setParam(file, m, &spec, ch); err != nil {
				return nil, err
			}
		}
		if _, err := spec.New(seed); err != nil {
			return nil, modelError(file, t, m, err)
		}
		if err := spec.digest(file, t); err != nil {
			return nil, err
		}
		out = append(out, spec)
	}
	return out, nil
}

// setParam sets the parameter of one key of a [[model]] entry: a text
// (a string, such as a data file's path) in spec.Texts, a number, a bool
// or a named choice in spec.Values.
func setParam(file string, m registry.Model, spec *ModelSpec, ch choice) error {
	p, _ := m.Param(ch.key.name)
	_, named := m.Choices[p.Name]
	switch {
	case p.Kind == registry.String && !named:
		if ch.val.kind != unstable.String {
			return keyError(file, ch.key.line, p.Name, "key %q: want a string, not %s", p.Name, ch.val.text)
		}
		if spec.Texts == nil {
			spec.Texts = registry.Texts{}
		}
		spec.Texts[p.Name] = ch.val.text
	case p.Kind == registry.Bool && ch.val.kind == unstable.Bool:
		spec.Values[p.Name] = map[string]float64{"true": 1, "false": 0}[ch.val.text]
	default:
		x, ok := paramValue(m, p.Name, ch.val)
		if !ok {
			return keyError(file, ch.key.line, p.Name, "key %q: want a finite number, not %q", p.Name, ch.val.text)
		}
		spec.Values[p.Name] = x
	}
	return nil
}

// modelError returns the error of building a [[model]] entry t as a file
// error: a parameter out of range at its key's line, a bad data file
// (its *models.DataError, which names the file, line and column) at the
// data key's, anything else at the entry's.
func modelError(file string, t *tomlTable, m registry.Model, err error) error {
	var pe *registry.ParamError
	if errors.As(err, &pe) && t.key(pe.Param) != nil {
		return keyError(file, t.key(pe.Param).line, pe.Param, "key %q = %v: %s", pe.Param, pe.Value, pe.Why)
	}
	if de := (*models.DataError)(nil); errors.As(err, &de) {
		for k := range fileKeys {
			if t.key(k) != nil {
				return keyError(file, t.key(k).line, k, "key %q: %v", k, de)
			}
		}
	}
	return fileError(file, t.line, "model %s: %v", m.Name, err)
}

// digest records in s.Files the SHA-256 of each file its texts name.
func (s *ModelSpec) digest(file string, t *tomlTable) error {
	for k, path := range s.Resolved() {
		if !fileKeys[k] || path == "" {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return keyError(file, t.key(k).line, k, "key %q: %v", k, err)
		}
		if s.Files == nil {
			s.Files = map[string]string{}
		}
		h := sha256.Sum256(b)
		s.Files[k] = hex.EncodeToString(h[:])
	}
	return nil
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
