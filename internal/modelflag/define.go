package modelflag

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ptbatch/ptbatch/internal/cliflag"
	"github.com/ptbatch/ptbatch/registry"
)

// SectionModels returns the registry models whose flags have a section
// of help, in its order: up to the funnel (the paper's) when early, in
// registration order; otherwise those after it, the models reading files
// first (the first defines --data).
func SectionModels(early bool) []string {
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

// Add defines a flag in s for every parameter of the models names that
// no flag defines yet, by its kind (String, Bool, Int, Float; a
// parameter with named choices is a string), under a heading per model:
// "--model NAME: " and its help, and the defaults it gives the flags it
// shares with models before it (such as "--dim (default 10)") unless its
// help gives them.
func Add(s *cliflag.Set, names []string) {
	fs := s.FlagSet()
	for _, name := range names {
		m, _ := registry.Lookup(name)
		var own []string
		for _, p := range m.Params {
			if fl := fs.Lookup(p.Name); fl != nil && m.DefaultText(p) != fl.DefValue && !strings.Contains(m.Help, "--"+p.Name+" ") {
				own = append(own, fmt.Sprintf("--%s (default %s)", p.Name, m.DefaultText(p)))
			}
		}
		if !slices.ContainsFunc(m.Params, func(p registry.Param) bool { return fs.Lookup(p.Name) == nil }) {
			continue
		}
		s.Section(strings.Join(append([]string{"--model " + CLIName(name) + ": " + m.Help}, own...), "; "))
		for _, p := range m.Params {
			if fs.Lookup(p.Name) == nil {
				define(s, m, p)
			}
		}
	}
}

// define defines the flag of parameter p of model m.
func define(s *cliflag.Set, m registry.Model, p registry.Param) {
	help := sharedHelp(p)
	switch _, choice := m.Choices[p.Name]; {
	case choice || p.Kind == registry.String:
		s.String(new(string), p.Name, m.DefaultText(p), help)
	case p.Kind == registry.Bool:
		s.Bool(new(bool), p.Name, p.Default != 0, help)
	case p.Kind == registry.Int:
		s.Int64(new(int64), p.Name, int64(p.Default), help)
	default:
		s.Float64(new(float64), p.Name, p.Default, help)
	}
}

// sharedHelp returns p's help, or, for a text parameter (a file) several
// models share with different meanings (--data), each model's help after
// its --model.
func sharedHelp(p registry.Param) string {
	var parts []string
	seen := map[string]bool{}
	for _, name := range SectionModels(false) {
		m, _ := registry.Lookup(name)
		if q, ok := m.Param(p.Name); ok && p.Kind == registry.String && !seen[q.Help] {
			seen[q.Help] = true
			parts = append(parts, "--model "+CLIName(name)+": "+q.Help)
		}
	}
	if len(parts) < 2 {
		return p.Help
	}
	return strings.Join(parts, "; ")
}
