package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"text/tabwriter"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/paper"
)

// num returns x, or nil (JSON null) when x is NaN or infinite.
func num(x float64) any {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return x
}

func nums(xs []float64) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = num(x)
	}
	return out
}

// numRows applies nums to every row.
func numRows(xs [][]float64) [][]any {
	out := make([][]any, len(xs))
	for i, x := range xs {
		out[i] = nums(x)
	}
	return out
}

// effectiveConfig lists every setting the run used, as used: workers as
// capped (all CPUs for 0, at most one per block of 8 replicates), lr and
// gradient only when the path is tuned, the thinning only with --out.
func effectiveConfig(f *runFlags, res *batch.Result) map[string]any {
	c := res.Config
	cfg := map[string]any{
		"model":         f.model,
		"chains":        c.Chains,
		"algorithm":     c.Algorithm.String(),
		"path":          f.path,
		"knots":         c.Knots,
		"tune_schedule": c.TuneSchedule,
		"tune_path":     c.TunePath,
		"iterations":    c.Iterations,
		"scans":         c.Scans,
		"replicates":    c.Replicates,
		"seed":          c.Seed,
		"workers":       effectiveWorkers(c.Workers, c.Replicates),
		"pin":           c.Pin,
		"keep_scans":    c.KeepScansInEffect(),
		"tuning":        c.Tuning.String(),
	}
	if f.out != "" {
		cfg["out"] = f.out
		cfg["thin"] = f.thin
	}
	if f.maxMemory > 0 {
		cfg["max_memory"] = f.maxMemory
	}
	if f.record != "" {
		spec := f.indexSpec(&res.Config)
		cfg["record"] = f.record
		cfg["index_window"], cfg["index_thin"], cfg["index_replicas"] = f.indexWindow, spec.thin, spec.replicas
	}
	if c.TunePath {
		if c.Tuning == batch.PaperTuning {
			cfg["lr"] = c.LearningRate
		}
		cfg["gradient"] = f.gradient
	}
	for k, v := range modelSettings(f, res.Config.Model) {
		cfg[k] = v
	}
	return cfg
}

// writeJSON prints the result, the target moments of every observable
// over the kept scans and the statistics of stats, as one JSON object.
func writeJSON(w io.Writer, f *runFlags, res *batch.Result, moments momentsSource, stats *runStats) error {
	knots := make([][]any, 0)
	if len(res.Knots) > 0 {
		for _, k := range res.Knots[0] {
			knots = append(knots, []any{num(k[0]), num(k[1])})
		}
	}
	var sched []any
	if len(res.Schedules) > 0 {
		sched = nums(res.Schedules[0])
	}
	sum := res.Summary()
	out := map[string]any{
		"config":                 effectiveConfig(f, res),
		"round_trips":            res.RoundTrips,
		"round_trip_rate":        num(sum.RoundTripRate),
		"round_trip_rates":       nums(res.RoundTripRates),
		"rejection":              nums(sum.Rejection),
		"barrier":                num(sum.Barrier),
		"nonasymptotic_barrier":  num(sum.NonAsymptoticBarrier),
		"tau_predicted":          num(sum.TauPredicted),
		"schedule":               sched,
		"knots":                  knots,
		"skl":                    num(sum.SKL),
		"target_mean":            num(sum.TargetMean),
		"target_var":             num(sum.TargetVar),
		"elapsed_seconds":        res.Elapsed.Seconds(),
		"chain_steps_per_second": num(res.ChainStepsPerSecond()),
		"tuning_fraction":        num(res.TuningFraction),
		"scans_completed":        res.Scans,
		"iterations_completed":   res.Iterations,
		"interrupted":            res.Interrupted,
		"go_version":             runtime.Version(),
		"observables":            res.Observables,
		"kept_scans":             res.KeptScans,
		"target_means":           numRows(moments.Means()),
		"target_vars":            numRows(moments.Vars()),
	}
	out["tail_round_trip_rate"], out["tail_round_trip_rate_se"] = jsonMeanSE(res.TailRoundTripRates())
	if res.Config.Tuning == batch.AutoTuning {
		out["tuning_rounds"], out["tuning_iterations"] = res.TuningRounds, res.TuningIterations
	}
	if f.chainsChoice != nil {
		out["chains_auto"] = chainsAutoJSON(f.chainsChoice)
	}
	if err := stats.addJSON(out, f, res); err != nil {
		return err
	}
	if f.out != "" {
		// Here, not in runStats.writeFiles, so that ptbatch merge, which
		// joins samples.csv after writeFiles, writes them too.
		if err := stats.writeDiagnosticFiles(f, res); err != nil {
			return err
		}
	}
	return encodeJSON(w, out, jsonLead)
}

// writeTable prints a short human summary, with the statistics of stats.
func writeTable(w io.Writer, f *runFlags, res *batch.Result, stats *runStats) {
	c := res.Config
	fmt.Fprintf(w, "model %s, %s, path %s (K=%d), %d chains, %d iterations in %d scans, %d replicates, seed %d\n",
		f.model, c.Algorithm, f.path, c.Knots, c.Chains, res.Iterations, res.Scans, c.Replicates, c.Seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	sum := res.Summary()
	if tm, tse := res.TailRoundTripRate(); math.IsNaN(tse) && !math.IsNaN(tm) {
		fmt.Fprintf(tw, "round-trip rate (last 10%% of iterations)\t%.5f (one replicate: no standard error)\n", tm)
	} else if !math.IsNaN(tm) {
		fmt.Fprintf(tw, "round-trip rate (last 10%% of iterations)\t%.5f ± %.5f (mean ± se over replicates)\n", tm, tse)
	}
	stats.addHeadline(tw, res)
	mean, sd := meanSD(res.RoundTripRates)
	fmt.Fprintf(tw, "round-trip rate (last scan only)\t%.5f ± %.5f (mean ± sd over replicates; one scan's round trips, noisy: under automatic tuning a scan may be 20 iterations)\n", mean, sd)
	if c.Tuning == batch.AutoTuning && len(res.TuningIterations) > 0 {
		used, rounds, frozen := 0.0, 0.0, 0
		for b := range res.TuningIterations {
			used += float64(res.TuningIterations[b]) / float64(len(res.TuningIterations))
			rounds += float64(res.TuningRounds[b]) / float64(len(res.TuningRounds))
			if res.TuningFrozen[b] {
				frozen++
			}
		}
		fmt.Fprintf(tw, "automatic tuning\t%.0f iterations in %.1f rounds (mean); path and schedule fixed in %d of %d replicates\n", used, rounds, frozen, len(res.TuningFrozen))
	}
	fmt.Fprintf(tw, "predicted rate 1/(2+2Σr/(1-r))\t%.5f\n", sum.TauPredicted)
	fmt.Fprintf(tw, "barrier Λ = Σ r_n\t%.4f\n", sum.Barrier)
	fmt.Fprintf(tw, "non-asymptotic barrier\t%.4f\n", sum.NonAsymptoticBarrier)
	fmt.Fprintf(tw, "SKL surrogate\t%.4f\n", sum.SKL)
	total := 0
	for _, t := range res.RoundTrips {
		total += t
	}
	fmt.Fprintf(tw, "round trips (all scans, all replicates)\t%d\n", total)
	fmt.Fprintf(tw, "target first coordinate (last scan only)\tmean %.6g, variance %.6g (one scan; the kept samples' diagnostics per observable are below)\n", sum.TargetMean, sum.TargetVar)
	fmt.Fprintf(tw, "throughput\t%.3g chain-steps/s in %.2f s\n", res.ChainStepsPerSecond(), res.Elapsed.Seconds())
	fmt.Fprintf(tw, "time at scan ends (tuning)\t%.2f%% of the workers' time\n", 100*res.TuningFraction)
	stats.addTable(tw, f, res)
	tw.Flush()
}

// jsonMeanSE returns the mean of xs and its standard error sd/√n, as JSON
// numbers (nil for NaN, and for the standard error of fewer than two).
func jsonMeanSE(xs []float64) (mean, se any) {
	m, sd := meanSD(xs)
	if len(xs) < 2 {
		return num(m), nil
	}
	return num(m), num(sd / math.Sqrt(float64(len(xs))))
}

// meanSD is paper.MeanSD: the mean and sample standard deviation.
func meanSD(xs []float64) (mean, sd float64) { return paper.MeanSD(xs) }

// writeCSVs writes scans.csv (one row per replicate × scan), knots.csv and
// schedules.csv (final values per replicate) into dir.
func writeCSVs(dir string, f *runFlags, res *batch.Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	ff := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	scans := [][]string{{"replicate", "scan", "round_trips", "barrier", "nonasymptotic_barrier", "skl", "mean_rejection"}}
	for r, hist := range res.History {
		for _, s := range hist {
			scans = append(scans, []string{strconv.Itoa(res.Config.FirstReplicate + r), strconv.Itoa(s.Scan), strconv.Itoa(s.RoundTrips),
				ff(s.Barrier), ff(s.NonAsymptoticBarrier), ff(s.SKL), ff(s.MeanRejection)})
		}
	}
	knots := [][]string{{"replicate", "knot", "eta0", "eta1"}}
	for r, ks := range res.Knots {
		for k, kn := range ks {
			knots = append(knots, []string{strconv.Itoa(res.Config.FirstReplicate + r), strconv.Itoa(k), ff(kn[0]), ff(kn[1])})
		}
	}
	sched := [][]string{{"replicate", "chain", "t"}}
	for r, ts := range res.Schedules {
		for n, t := range ts {
			sched = append(sched, []string{strconv.Itoa(res.Config.FirstReplicate + r), strconv.Itoa(n), ff(t)})
		}
	}
	for name, rows := range map[string][][]string{"scans.csv": scans, "knots.csv": knots, "schedules.csv": sched} {
		if err := writeCSV(filepath.Join(dir, name), rows); err != nil {
			return err
		}
	}
	return nil
}

// writeCSV writes rows to path atomically (writeFileAtomic, outdir.go).
func writeCSV(path string, rows [][]string) error {
	return writeFileAtomic(path, func(w io.Writer) error { return csv.NewWriter(w).WriteAll(rows) })
}
