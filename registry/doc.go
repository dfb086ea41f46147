// Package registry maps a model's name to its constructor and its
// parameters, and a preset's name to one of the paper's experiments, in one
// place that the command line, the benchmarks and package study all read,
// in the style of database/sql.Register and image.RegisterFormat.
//
// The built-in models (gaussian, betabinomial, galaxy, mixture) and the
// paper's presets are registered when the package is loaded. A Go program
// adds its own model, for example one made with models.FromFuncs, with
// Register, and can then name it in a study:
//
//	registry.Register(registry.Model{Name: "twomodes", New: func(registry.Values, uint64) (models.Model, error) {
//		return models.FromFuncs(funcs, models.RandomWalk{})
//	}})
//
// A parameter's name is the `ptbatch run` flag that sets it, without the
// dashes (prior-a, sigma0, …); its values are float64, and a parameter of
// kind Int must hold an integer.
//
// References: Syed, Bouchard-Côté, Deligiannidis and Doucet, "Non-reversible
// parallel tempering: a scalable highly parallel MCMC scheme" (the
// Gaussian); Syed, Romaniello, Campbell and Bouchard-Côté, "Parallel
// tempering on optimized paths", ICML 2021, §5 and the appendix
// "Experimental details" (the presets).
package registry
