// Package study runs a plan of many PT runs — models × methods × seeds ×
// grid values, each with its replicates — as one life cycle above
// batch.Engine: a contiguous shard of the plan's run × replicate units,
// one loop that drives the engines with progress, checkpoint cadence and
// interruption, and results as data (a Cell per run and replicate, a
// Summary per run) that merge by concatenation.
//
// Replicate b of a run draws from the stream of (seed, b) whatever the
// shard (batch.Config.FirstReplicate), so the cells of a shard are bit
// for bit those of the same units in one process, and Merge of the shards'
// cells gives one process's Results, and so the same bytes from the
// writers (WriteCells, WriteSummary, WriteSummaryJSON).
//
// Per replicate, a cell holds what the paper compares methods by: the
// round trips of the whole run; the tail round-trip rate
// (batch.Result.TailRoundTripRates), the empirical counterpart of τ
// (eq:nrpt_rtr); the barrier Λ = Σ_n r_n of the last scan (the
// communication barrier, §3); and the stepping-stone estimate of log Z
// (batch.LogZ over the kept scans).
//
// A plan comes from NewPlan, or from a study file (TOML) through Load or
// ParseFile, which refuse a bad file with a *FileError naming its file,
// line and key.
//
// References: Syed, Romaniello, Campbell and Bouchard-Côté, "Parallel
// tempering on optimized paths", ICML 2021 (eq:nrpt_rtr, alg:NRPT,
// alg:PT_tuning); Surjanovic et al., "Pigeons.jl" (one loop over rounds,
// recorders that merge themselves).
package study
