package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/internal/modelflag"
	"github.com/ptbatch/ptbatch/registry"
)

// TestModelFlagsFromRegistry checks that the flags of the Gaussian and
// the Beta-binomial, which newRunFlagSet still declares by hand (bound to
// runFlags' fields), are what modelflag.Add generates from the registry's
// parameters alone: the same section, flags, types, defaults and help,
// byte for byte. The sections are cut from `ptbatch run`'s help between
// their headings and the funnel's.
func TestModelFlagsFromRegistry(t *testing.T) {
	var full, gen bytes.Buffer
	newRunFlagSet(&runFlags{}).PrintHelp(&full, "")
	c := newCmdFlags("run")
	modelflag.Add(c.Set, []string{registry.Gaussian, registry.BetaBinomial})
	c.PrintHelp(&gen, "")
	i, j := strings.Index(full.String(), "\n--model gaussian:"), strings.Index(full.String(), "\n--model funnel:")
	if i < 0 || j < i {
		t.Fatalf("run's help lacks the Gaussian's or the funnel's section:\n%s", full.String())
	}
	if want, got := full.String()[i:j], gen.String()[strings.Index(gen.String(), "Flags:\n")+len("Flags:\n"):]; got != want {
		t.Errorf("generated sections:\n%s\nwant run's:\n%s", got, want)
	}
}
