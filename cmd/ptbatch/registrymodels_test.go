package main

import (
	"strconv"
	"testing"

	"github.com/ptbatch/ptbatch/registry"
)

// TestRunFlagsAreRegistryParams checks that every parameter of every
// built-in model in the registry is a `ptbatch run` flag of the same name
// with the same default, so that a study file's key and the flag mean one
// thing.
func TestRunFlagsAreRegistryParams(t *testing.T) {
	c := newRunFlagSet(&runFlags{})
	for _, name := range []string{registry.Gaussian, registry.BetaBinomial, registry.Galaxy, registry.Mixture} {
		m, ok := registry.Lookup(name)
		if !ok {
			t.Fatalf("%s is not registered", name)
		}
		for _, p := range m.Params {
			fl := c.fs.Lookup(p.Name)
			if fl == nil {
				t.Errorf("%s: parameter %s is not a run flag", name, p.Name)
				continue
			}
			def, err := strconv.ParseFloat(fl.DefValue, 64)
			if err != nil || def != p.Default {
				t.Errorf("%s %s: flag default %q, registry default %v", name, p.Name, fl.DefValue, p.Default)
			}
		}
	}
}
