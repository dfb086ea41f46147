package modelflag

import (
	"slices"
	"strings"

	"github.com/ptbatch/ptbatch/registry"
)

// RunModels returns the names --model takes: every registered model but
// the mixture on data, which --model mixture builds.
func RunModels() []string {
	return slices.DeleteFunc(registry.Names(), func(n string) bool { return n == registry.MixtureData })
}

// SweepModels returns the models sweep's --model takes: every model
// RunModels names but those that need a data file (registry parameter
// "data": the logistic regression).
func SweepModels() []string {
	return slices.DeleteFunc(RunModels(), func(n string) bool {
		m, _ := registry.Lookup(n)
		_, data := m.Param("data")
		return data
	})
}

// CLIName returns the --model that builds the registry model name.
func CLIName(name string) string {
	if name == registry.MixtureData {
		return registry.Mixture
	}
	return name
}

// RegistryName returns the registry model that --model model builds
// given the flags that set reports as given: --model mixture is
// registry.MixtureData when one of that model's flags is given.
func RegistryName(set func(string) bool, model string) string {
	if model == registry.Mixture && slices.ContainsFunc(Names(registry.MixtureData), set) {
		return registry.MixtureData
	}
	return model
}

// Names returns the flags of the registry model name: its parameters but
// the explorer.
func Names(name string) []string {
	m, _ := registry.Lookup(name)
	var out []string
	for _, p := range m.Params {
		if p.Name != "explorer" {
			out = append(out, p.Name)
		}
	}
	return out
}

// ByModel lists the flags of each model --model names (RunModels): its
// parameters in the registry but the explorer (Names), --model mixture's
// those of the mixture on data.
func ByModel() map[string][]string {
	m := map[string][]string{}
	for _, n := range RunModels() {
		m[n] = Names(n)
	}
	m[registry.Mixture] = Names(registry.MixtureData)
	return m
}

// Owners maps each flag of byModel (ByModel's) to the models whose flag
// it is, in alphabetical order.
func Owners(byModel map[string][]string) map[string][]string {
	owners := map[string][]string{}
	for m, names := range byModel {
		for _, n := range names {
			owners[n] = append(owners[n], m)
		}
	}
	for _, o := range owners {
		slices.Sort(o)
	}
	return owners
}

// AlsoHelp returns "; also a, b" and tail for the models of names that
// are neither the paper's (a preset's, whose help names them) nor named,
// or "".
func AlsoHelp(names []string, named, tail string) string {
	var more []string
	for _, n := range names {
		if n != named && !slices.ContainsFunc(registry.Presets(), func(p registry.Preset) bool { return p.Model == n }) {
			more = append(more, n)
		}
	}
	if len(more) == 0 {
		return ""
	}
	return "; also " + strings.Join(more, ", ") + tail
}

// OrList returns "a, b or c".
func OrList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// ModelOwners returns "--model a, --model b or --model c" for the models
// a flag applies to.
func ModelOwners(models []string) string {
	out := make([]string, len(models))
	for i, m := range models {
		out[i] = "--model " + m
	}
	return OrList(out)
}

// FlagList returns "--a, --b and --c".
func FlagList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "--" + n
	}
	if len(out) == 1 {
		return out[0]
	}
	return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
}
