// Package paper is `ptbatch reproduce` as library presets: the paper's
// experiments (the registry's presets, §5 and the appendix "Experimental
// details" of Syed et al., "Parallel tempering on optimized paths", ICML
// 2021), the methods of its Figure 3 and ptbatch's own default, the
// high-dimensional Gaussian of its Figure 5, the plan of a reproduction's
// runs over run × replicate units (the units its shards split), and the
// closed-form comparison of a one-dimensional Gaussian experiment
// (package internal/gaussexact: exact Λ by quadrature, the best path of
// the spline family by Nelder–Mead).
//
// Settings are a reproduction's settings as data: which experiment, the
// replicates, the fraction of the paper's iterations and the seed. From
// them, Todo lists the experiments, Plan the runs in the order a
// reproduction runs them, Method.Config and HighDimConfig each run's
// engine configuration. A merge of a reproduction's shards rebuilds the
// same Settings from the settings its manifests record (FromSettings),
// never from the command line.
package paper
