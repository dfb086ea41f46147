// Package modelflag makes the command-line flags of the models in package
// registry: one flag per registry parameter, by its kind and default,
// under one help section per model, and the tables of which flags belong
// to which model that ptbatch's commands refuse misplaced flags with.
//
// It is internal (STYLE.md's internal/ row) because only the project's
// commands use it: a Go program builds a registry model from
// registry.Values, not from flags.
package modelflag
