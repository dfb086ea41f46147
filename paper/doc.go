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
//
// Reproduce runs a reproduction into a directory and writes its files
// from the runs' results: per experiment scans.csv, summary.csv,
// lambda.csv, knots.csv and the figures (package figure), highdim's
// rates.csv and figure, runs/NNN.gob (each run's runout.Record, written
// as it ends), summary.json and the report, results.md. Every engine runs
// through runloop.Run, the one loop above batch.Engine, but for an
// experiment's paper methods whose own runs would pad a block: they run
// together, their replicates packed into shared blocks (batch.RunPacked,
// the same results). Every run of the plan goes through one scheduler: a
// pool of as many slots as workers, which starts the runs in plan order
// as slots free (the next experiment's while an experiment's last ones
// end), while the files are written in plan order, the same bytes as one
// run after the other. Given a
// rundir.Job, it computes the job's share of the plan's units only (a
// shard), recording its progress in the job's manifest; Merge then joins
// the shards' records run by run (JoinRun, each statistic merging itself)
// and writes the same files, byte for byte, as one process. When the
// context ends a reproduction, it keeps what it finished and returns an
// *InterruptedError.
package paper
