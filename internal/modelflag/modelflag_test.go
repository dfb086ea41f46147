package modelflag

import (
	"bytes"
	"flag"
	"slices"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/internal/cliflag"
	"github.com/ptbatch/ptbatch/registry"
)

// TestText checks the list phrases refusals are written with; the
// wanted strings are the phrases' definitions in their godoc.
func TestText(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{OrList(nil), ""},
		{OrList([]string{"a"}), "a"},
		{OrList([]string{"a", "b", "c"}), "a, b or c"},
		{ModelOwners([]string{"a", "b"}), "--model a or --model b"},
		{FlagList([]string{"a"}), "--a"},
		{FlagList([]string{"a", "b", "c"}), "--a, --b and --c"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestRegistryName checks that --model mixture builds the mixture on
// data exactly when one of that model's flags is given.
func TestRegistryName(t *testing.T) {
	given := func(names ...string) func(string) bool {
		return func(n string) bool { return slices.Contains(names, n) }
	}
	if got := RegistryName(given(), registry.Mixture); got != registry.Mixture {
		t.Errorf("no flag: got %q, want %q", got, registry.Mixture)
	}
	if got := RegistryName(given("components"), registry.Mixture); got != registry.MixtureData {
		t.Errorf("--components: got %q, want %q", got, registry.MixtureData)
	}
	if got := RegistryName(given("components"), registry.Gaussian); got != registry.Gaussian {
		t.Errorf("--model gaussian: got %q", got)
	}
	if CLIName(registry.MixtureData) != registry.Mixture || CLIName(registry.Gaussian) != registry.Gaussian {
		t.Error("CLIName is not RegistryName's inverse")
	}
}

// TestByModelOwners checks the tables against the registry's parameters:
// every flag of a model is a parameter of it (none the explorer), --model
// mixture has the mixture on data's, and Owners inverts ByModel with
// sorted owners.
func TestByModelOwners(t *testing.T) {
	by := ByModel()
	if _, ok := by[registry.MixtureData]; ok {
		t.Errorf("--model takes %q", registry.MixtureData)
	}
	if !slices.Equal(by[registry.Mixture], Names(registry.MixtureData)) || len(by[registry.Mixture]) == 0 {
		t.Errorf("--model mixture's flags %v, want the mixture on data's", by[registry.Mixture])
	}
	for name, flags := range by {
		m, _ := registry.Lookup(RegistryName(func(string) bool { return name == registry.Mixture }, name))
		for _, f := range flags {
			if _, ok := m.Param(f); !ok || f == "explorer" {
				t.Errorf("--model %s: flag --%s is not one of its parameters", name, f)
			}
		}
	}
	owners := Owners(by)
	for f, ms := range owners {
		if !slices.IsSorted(ms) {
			t.Errorf("owners of --%s not sorted: %v", f, ms)
		}
		for _, m := range ms {
			if !slices.Contains(by[m], f) {
				t.Errorf("--%s owned by %s, which lacks it", f, m)
			}
		}
	}
	if !slices.Contains(owners["dim"], registry.Gaussian) || len(owners["dim"]) < 2 {
		t.Errorf("--dim's owners %v: want the Gaussian and the models sharing it", owners["dim"])
	}
}

// TestAdd checks that Add defines one flag per parameter, with the
// registry's default and kind, heads a section per model, and that adding
// the same models again defines nothing new.
func TestAdd(t *testing.T) {
	s := cliflag.New("prog", "cmd")
	names := append(SectionModels(true), SectionModels(false)...)
	Add(s, names)
	var help bytes.Buffer
	s.PrintHelp(&help, "")
	for _, name := range names {
		m, _ := registry.Lookup(name)
		for _, p := range m.Params {
			fl := s.FlagSet().Lookup(p.Name)
			if fl == nil {
				t.Fatalf("--model %s: no flag --%s", name, p.Name)
			}
			if _, isFloat := fl.Value.(flag.Getter).Get().(float64); isFloat != (p.Kind == registry.Float && m.Choices[p.Name] == nil) {
				t.Errorf("--%s: float flag %v for kind %v", p.Name, isFloat, p.Kind)
			}
		}
	}
	m, _ := registry.Lookup(registry.Gaussian)
	if want := "--model gaussian: " + m.Help; !strings.Contains(help.String(), want) {
		t.Errorf("help lacks the section %q:\n%s", want, help.String())
	}
	if got := s.FlagSet().Lookup("sigma0").DefValue; got != "0.01" { // gaussianParams
		t.Errorf("--sigma0 default %q, want 0.01", got)
	}
	Add(s, names) // redefining a flag would panic
	var again bytes.Buffer
	s.PrintHelp(&again, "")
	if again.String() != help.String() {
		t.Error("adding the models twice changed the help")
	}
}

// TestSweepModels checks that sweep takes every model of run but those
// with a data file, and that the Gaussian (sweep's default) and the
// logistic regression (which needs --data) are on the right sides.
func TestSweepModels(t *testing.T) {
	sweep := SweepModels()
	for _, n := range RunModels() {
		m, _ := registry.Lookup(n)
		_, data := m.Param("data")
		if slices.Contains(sweep, n) == data {
			t.Errorf("--model %s: in sweep's list %v, has a data file %v", n, slices.Contains(sweep, n), data)
		}
	}
	if !slices.Contains(sweep, registry.Gaussian) || slices.Contains(sweep, registry.Logistic) {
		t.Errorf("sweep's models %v", sweep)
	}
}
