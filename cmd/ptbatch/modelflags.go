package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ptbatch/ptbatch/benchmarks"
	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
)

// The flags of the models are the registry's parameters (registry.Param:
// name, kind, default, help), one section of help per model; the registry
// checks and builds the model from the flags given, and its
// *registry.ParamError becomes the flag's one-line refusal (paramRefusal).

// modelSettings lists the model's effective settings for the JSON config;
// m is the model built from f (registry.Settings).
func modelSettings(f *runFlags, m models.Model) map[string]any {
	name := registryName(f.flags, f.model)
	v, t, _ := modelValues(f.flags, name)
	return registry.Settings(name, v, t, m)
}

// gaussFlags names the flags that set a Gaussian pair's parameters; sweep
// and bench set both standard deviations with --sigma, and bench has no
// mean flags (empty names).
type gaussFlags struct{ dim, mu0, mu1, sigma0, sigma1 string }

// checkGaussian refuses a Gaussian pair the registry refuses (its Check),
// naming the flag (and the value as typed) at fault; dimText is the
// dimension as typed.
func checkGaussian(c *cmdFlags, n gaussFlags, dimText string, dim int, mu0, mu1, s0, s1 float64) error {
	m, _ := registry.Lookup(registry.Gaussian)
	err := m.Check(nil, registry.Values{"dim": float64(dim), "mu0": mu0, "mu1": mu1, "sigma0": s0, "sigma1": s1})
	var pe *registry.ParamError
	if !errors.As(err, &pe) || pe.Param == "dim" {
		return paramRefusal(c, err, func(string) string { return n.dim }, func(string) string { return dimText })
	}
	name := map[string]string{"mu0": n.mu0, "mu1": n.mu1, "sigma0": n.sigma0, "sigma1": n.sigma1}
	return paramRefusal(c, err, func(p string) string { return name[p] }, nil)
}

// paramRefusal returns err of the registry as a usage error: a
// parameter's as "invalid --FLAG VALUE: reason", the flag flag(param) and
// the value value(flag) (the text typed when value is nil), nil for nil.
func paramRefusal(c *cmdFlags, err error, flag, value func(string) string) error {
	if value == nil {
		value = c.show
	}
	var pe *registry.ParamError
	switch {
	case errors.As(err, &pe) && pe.Param != "":
		why := pe.Reason(func(p string) string { return "--" + flag(p) }, func(p string) string { return value(flag(p)) })
		return usagef("invalid --%s %s: %s", flag(pe.Param), shown(c, flag(pe.Param), value), why)
	case err != nil:
		return usagef("%v", err)
	}
	return nil
}

// shown returns the value of the flag name as a refusal writes it: the
// text of value, quoted for a string flag.
func shown(c *cmdFlags, name string, value func(string) string) string {
	return c.Quoted(name, value(name))
}

// same returns its argument: the flag of a parameter of `ptbatch run`.
func same(p string) string { return p }

// runModels returns the names --model takes: every registered model but
// the mixture on data, which --model mixture builds.
func runModels() []string {
	return slices.DeleteFunc(registry.Names(), func(n string) bool { return n == registry.MixtureData })
}

// otherModelsHelp returns the end of --model's help naming the
// registered models beyond those its text names (the paper's and the
// funnel), or "".
func otherModelsHelp() string {
	return alsoHelp(runModels(), registry.Funnel, " (their flags below)")
}

// alsoHelp returns "; also a, b" and tail for the models of names that
// are neither the paper's (a preset's, whose help names them) nor named,
// or "".
func alsoHelp(names []string, named, tail string) string {
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

// orList returns "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// modelOwners returns "--model a, --model b or --model c" for the models
// a flag applies to.
func modelOwners(models []string) string {
	out := make([]string, len(models))
	for i, m := range models {
		out[i] = "--model " + m
	}
	return orList(out)
}

// registryName returns the registry model that --model model builds from
// the flags of c: --model mixture is registry.MixtureData when one of its
// flags is given.
func registryName(c *cmdFlags, model string) string {
	if model == registry.Mixture && slices.ContainsFunc(registryFlagNames(registry.MixtureData), c.set) {
		return registry.MixtureData
	}
	return model
}

// cliName returns the --model that builds the registry model name.
func cliName(name string) string {
	if name == registry.MixtureData {
		return registry.Mixture
	}
	return name
}

// sectionModels returns the registry models whose flags have a section
// of help, in its order: up to the funnel (the paper's) when early, in
// registration order; otherwise those after it, the models reading files
// first (the first defines --data).
func sectionModels(early bool) []string {
	names := registry.Names()
	i := slices.Index(names, registry.Funnel) + 1
	if early {
		return names[:i]
	}
	readsFiles := func(name string) bool {
		m, _ := registry.Lookup(name)
		return slices.ContainsFunc(m.Params, func(p registry.Param) bool { return p.Kind == registry.String })
	}
	return append(slices.DeleteFunc(slices.Clone(names[i:]), func(n string) bool { return !readsFiles(n) }),
		slices.DeleteFunc(slices.Clone(names[i:]), readsFiles)...)
}

// flagNumber returns the value of the numeric flag name as a float64.
func flagNumber(c *cmdFlags, name string) float64 {
	switch v := c.fs.Lookup(name).Value.(flag.Getter).Get().(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	}
	panic("ptbatch: flag " + name + " is not a number")
}

// addModelFlags defines a flag for every parameter of the models names
// that no flag defines yet, by its kind (String, Bool, Int, Float; a
// parameter with named choices is a string), under a heading per model:
// "--model NAME: " and its help, and the defaults it gives the flags it
// shares with models before it (such as "--dim (default 10)") unless its
// help gives them.
func addModelFlags(c *cmdFlags, names []string) {
	for _, name := range names {
		m, _ := registry.Lookup(name)
		var own []string
		for _, p := range m.Params {
			if fl := c.fs.Lookup(p.Name); fl != nil && m.DefaultText(p) != fl.DefValue && !strings.Contains(m.Help, "--"+p.Name+" ") {
				own = append(own, fmt.Sprintf("--%s (default %s)", p.Name, m.DefaultText(p)))
			}
		}
		if !slices.ContainsFunc(m.Params, func(p registry.Param) bool { return c.fs.Lookup(p.Name) == nil }) {
			continue
		}
		c.section(strings.Join(append([]string{"--model " + cliName(name) + ": " + m.Help}, own...), "; "))
		for _, p := range m.Params {
			if c.fs.Lookup(p.Name) == nil {
				defineParam(c, m, p)
			}
		}
	}
}

// defineParam defines the flag of parameter p of model m.
func defineParam(c *cmdFlags, m registry.Model, p registry.Param) {
	help := sharedHelp(p)
	switch _, choice := m.Choices[p.Name]; {
	case choice || p.Kind == registry.String:
		c.String(new(string), p.Name, m.DefaultText(p), help)
	case p.Kind == registry.Bool:
		c.Bool(new(bool), p.Name, p.Default != 0, help)
	case p.Kind == registry.Int:
		c.Int64(new(int64), p.Name, int64(p.Default), help)
	default:
		c.Float64(new(float64), p.Name, p.Default, help)
	}
}

// sharedHelp returns p's help, or, for a text parameter (a file) several
// models share with different meanings (--data), each model's help after
// its --model.
func sharedHelp(p registry.Param) string {
	var parts []string
	seen := map[string]bool{}
	for _, name := range sectionModels(false) {
		m, _ := registry.Lookup(name)
		if q, ok := m.Param(p.Name); ok && p.Kind == registry.String && !seen[q.Help] {
			seen[q.Help] = true
			parts = append(parts, "--model "+cliName(name)+": "+q.Help)
		}
	}
	if len(parts) < 2 {
		return p.Help
	}
	return strings.Join(parts, "; ")
}

// modelValues returns the values of the flags given of the parameters of
// the registry model name (the others take the model's defaults), a
// choice by its name (registry.Model.ValuesOf).
func modelValues(c *cmdFlags, name string) (registry.Values, registry.Texts, error) {
	m, _ := registry.Lookup(name)
	v, t, err := m.ValuesOf(func(p string) (any, bool) { return c.fs.Lookup(p).Value.(flag.Getter).Get(), c.set(p) })
	return v, t, paramRefusal(c, err, same, nil)
}

// registryFlagNames returns the flags of the registry model name: its
// parameters but the explorer.
func registryFlagNames(name string) []string {
	m, _ := registry.Lookup(name)
	var out []string
	for _, p := range m.Params {
		if p.Name != "explorer" {
			out = append(out, p.Name)
		}
	}
	return out
}

// runLogisticBench is `ptbatch bench --model logistic`: the batched
// logistic model, the same through FromFuncs and the plain scalar engine
// on one worker (benchmarks.RunLogistic), with --chains, --replicates,
// --iterations, --repeats and --seed from w when given.
func runLogisticBench(ctx context.Context, c *cmdFlags, w benchmarks.Workload, impl string, jsonOut bool, stdout io.Writer) error {
	lw := benchmarks.DefaultLogisticWorkload()
	for _, name := range []string{"dim", "sigma", "workers", "max-memory"} {
		if c.set(name) {
			return c.bad(name, "does not apply to --model logistic (n = %d, d = %d, one worker)", lw.Rows, lw.Covariates)
		}
	}
	for _, p := range []struct {
		name string
		dst  *int
		v    int
	}{{"chains", &lw.Chains, w.Chains}, {"replicates", &lw.Replicates, w.Replicates}, {"iterations", &lw.Iterations, w.Iterations}, {"repeats", &lw.Repeats, w.Repeats}} {
		if c.set(p.name) {
			if p.v < 1 || p.name == "chains" && p.v < 2 {
				return c.bad(p.name, "too small")
			}
			*p.dst = p.v
		}
	}
	if c.set("seed") {
		lw.Seed = w.Seed
	}
	if impl != "" {
		restore, err := kernel.SetImpl(impl)
		if err != nil {
			return c.bad("impl", "want one of %s", strings.Join(kernel.Impls(), ", "))
		}
		defer restore()
	}
	rep, err := benchmarks.RunLogistic(ctx, lw)
	if err != nil {
		if ctx.Err() != nil {
			return interruptedf("interrupted; nothing to report")
		}
		return err
	}
	return benchmarks.WriteLogistic(stdout, rep, jsonOut)
}
