package runout

import (
	"math"
	"runtime"

	"github.com/ptbatch/ptbatch/batch"
)

// Config returns summary.json's config: every setting the run used, as
// used (lr and gradient only when the path is tuned); out is the output
// directory, "" for a summary printed alone (then without out and thin).
func Config(rec *Record, out string) map[string]any {
	c, s := rec.Result.Config, rec.Settings
	cfg := map[string]any{
		"model": s.Model, "chains": c.Chains, "algorithm": c.Algorithm.String(), "path": s.Path,
		"knots": c.Knots, "tune_schedule": c.TuneSchedule, "tune_path": c.TunePath,
		"iterations": c.Iterations, "scans": c.Scans, "replicates": c.Replicates, "seed": c.Seed,
		"workers": s.Workers, "pin": c.Pin, "keep_scans": c.KeepScansInEffect(), "tuning": c.Tuning.String(),
	}
	if out != "" {
		cfg["out"] = out
		cfg["thin"] = s.Thin
	}
	if s.MaxMemory > 0 {
		cfg["max_memory"] = s.MaxMemory
	}
	if s.Record != "" {
		cfg["record"] = s.Record
		cfg["index_window"], cfg["index_thin"], cfg["index_replicas"] = s.IndexWindow, s.Index.Thin, s.Index.Replicas
	}
	if c.TunePath {
		if c.Tuning == batch.PaperTuning {
			cfg["lr"] = c.LearningRate
		}
		cfg["gradient"] = s.Gradient
	}
	for k, v := range s.Params {
		cfg[k] = v
	}
	return cfg
}

// Summary returns the object of summary.json: the result, the target
// moments of every observable over the kept scans, the statistics and
// the diagnostics d, each leg's figures for a run with two legs ("legs",
// LegFigures), with the fields of extra (such as a model's
// proposal counts) added; out is as for Config.
func Summary(rec *Record, out string, d *Diagnostics, extra map[string]any) map[string]any {
	res := &rec.Result
	knots := make([][]any, 0)
	if len(res.Knots) > 0 {
		for _, k := range res.Knots[0] {
			knots = append(knots, []any{Num(k[0]), Num(k[1])})
		}
	}
	var sched []any
	if len(res.Schedules) > 0 {
		sched = Nums(res.Schedules[0])
	}
	sum := res.Summary()
	obj := map[string]any{
		"config": Config(rec, out), "round_trips": res.RoundTrips, "round_trip_rate": Num(sum.RoundTripRate),
		"round_trip_rates": Nums(res.RoundTripRates), "rejection": Nums(sum.Rejection), "barrier": Num(sum.Barrier),
		"nonasymptotic_barrier": Num(sum.NonAsymptoticBarrier), "tau_predicted": Num(sum.TauPredicted),
		"schedule": sched, "knots": knots, "skl": Num(sum.SKL), "target_mean": Num(sum.TargetMean), "target_var": Num(sum.TargetVar),
		"elapsed_seconds": res.Elapsed.Seconds(), "chain_steps_per_second": Num(res.ChainStepsPerSecond()),
		"tuning_fraction": Num(res.TuningFraction), "scans_completed": res.Scans, "iterations_completed": res.Iterations,
		"interrupted": res.Interrupted, "go_version": runtime.Version(), "observables": res.Observables,
		"kept_scans": res.KeptScans, "target_means": NumRows(rec.Moments.Means()), "target_vars": NumRows(rec.Moments.Vars()),
	}
	obj["tail_round_trip_rate"], obj["tail_round_trip_rate_se"] = jsonMeanSE(res.TailRoundTripRates())
	if res.Config.Tuning == batch.AutoTuning {
		obj["tuning_rounds"], obj["tuning_iterations"] = res.TuningRounds, res.TuningIterations
	}
	if rec.Settings.ChainsAuto != nil {
		obj["chains_auto"] = rec.Settings.ChainsAuto
	}
	if res.Legs != nil {
		obj["legs"] = legsJSON(res) // a run with two legs (LegFigures)
	}
	d.AddJSON(obj)
	rec.addStatsJSON(obj)
	for k, v := range extra {
		obj[k] = v
	}
	return obj
}

// addStatsJSON adds the statistics' fields to the summary object.
func (rec *Record) addStatsJSON(out map[string]any) {
	mean, se, diff := SummarizeLogZ(rec.LogZ)
	ess := rec.ess()
	out["log_z"] = Num(mean)
	out["log_z_se"] = Num(se)
	out["log_z_replicates"] = Nums(rec.LogZ.Estimates())
	out["log_z_reverse_minus_forward"] = Num(diff)
	out["log_z_exact"] = Num(rec.Settings.ExactLogZ)
	if !math.IsNaN(rec.Settings.ExactBarrier) {
		out["barrier_exact"] = rec.Settings.ExactBarrier
	}
	out["restarts"] = rec.Restarts.Counts()
	out["restart_rate"] = Num(RestartRate(rec.Restarts))
	out["ess"] = NumRows(ess.Values())
	out["ess_draws"] = ess.Draws()
	out["ess_per_second"] = Nums(ESSPerSecond(ess, &rec.Result))
	out["ess_round_trip_ceiling"] = KeptRoundTrips(&rec.Result)
}

// ess returns the record's ESS, empty when the run had none.
func (rec *Record) ess() batch.ESSRecord {
	if rec.ESS == nil {
		return batch.ESSRecord{}
	}
	return *rec.ESS
}
