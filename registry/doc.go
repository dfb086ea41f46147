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
// kind Int must hold an integer. Its help is the flag's, and a model's
// Help heads its flags in `ptbatch run --help`.
//
// The registry checks the values once for every reader (the command line,
// study files, a Go program): a model's Check refuses what its ranges
// allow but the model does not, knowing which values were given, and
// every refusal is a *ParamError naming the parameter and its value. Its
// Reason names the other parameters it refers to as the reader wants
// them ("--successes" on a command line). Model.ValuesOf reads values
// from any source, and Settings describes a built model for a run's
// record.
//
// References: Syed, Bouchard-Côté, Deligiannidis and Doucet, "Non-reversible
// parallel tempering: a scalable highly parallel MCMC scheme" (the
// Gaussian); Syed, Romaniello, Campbell and Bouchard-Côté, "Parallel
// tempering on optimized paths", ICML 2021, §5 and the appendix
// "Experimental details" (the presets).
package registry
