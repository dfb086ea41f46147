// Package runloop is the one loop that drives a batch.Engine to its end:
// progress after every scan, a checkpoint every so many scans or so much
// wall time, a checkpoint when the context ends the run (the state within
// the scan under way) and, if asked, at its end, and a run resumed from a
// checkpoint's bytes (batch.Restore).
//
// It is a package of its own, below package study, because it concerns
// one Engine and nothing of a plan: `ptbatch run` drives one run's engine
// with it, study.Execute each piece's, and a Go program that steps its
// own Engine gets checkpoints and resume from Run alone (as Pigeons.jl's
// pigeons(inputs) is the one loop over rounds, with its checkpoints in
// library code, src/pt/checkpoint.jl).
//
// Where checkpoints are stored is the caller's (Options.Save), and so are
// the files a run streams as it goes (samples, records): Options.Sync
// makes them durable before every checkpoint, so that a checkpoint never
// counts a row that a crash could lose, and Options.Start lets a resumed
// run take back the rows the checkpoint counted (rundir.SetAside) before
// its first step. Checkpoints does all of that for a checkpoint kept in a
// file, as `ptbatch run --checkpoint FILE --resume FILE` does, with the
// cadence read by ParseCadence and the path checked by CheckPath before
// the run. ProgressPrinter prints progress lines, and SignalContext
// stops a run at SIGINT, SIGTERM or SIGHUP (a batch system's preemption).
package runloop
