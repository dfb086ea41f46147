package main

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/runout"
)

// writeJSON prints the run's summary (runout.Summary) as one JSON
// object, with the proposal counts of a model that has them.
func writeJSON(w io.Writer, f *runFlags, res *batch.Result, stats *runStats) error {
	extra := map[string]any{}
	if p := stats.props; p != nil { // per replicate and chain over the completed scans
		extra["proposals"], extra["invalid_proposals"] = p.Proposed(), p.Invalid()
	}
	return runout.EncodeJSON(w, runout.Summary(stats.RecordMoments(res), f.out, stats.Diagnostics(res), extra), runout.SummaryLead)
}

// writeTable prints a short human summary: batch.Summary's and
// runout.Headline's figures of the run, and the diagnostics' table.
func writeTable(w io.Writer, f *runFlags, res *batch.Result, stats *runStats) {
	c, sum, h := res.Config, res.Summary(), runout.NewHeadline(stats.Record(res, nil))
	fmt.Fprintf(w, "model %s, %s, path %s (K=%d), %d chains, %d iterations in %d scans, %d replicates, seed %d\n",
		f.model, c.Algorithm, f.path, c.Knots, c.Chains, res.Iterations, res.Scans, c.Replicates, c.Seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if tm, tse := res.TailRoundTripRate(); math.IsNaN(tse) && !math.IsNaN(tm) {
		fmt.Fprintf(tw, "round-trip rate (last 10%% of iterations)\t%.5f (one replicate: no standard error)\n", tm)
	} else if !math.IsNaN(tm) {
		fmt.Fprintf(tw, "round-trip rate (last 10%% of iterations)\t%.5f ± %.5f (mean ± se over replicates)\n", tm, tse)
	}
	exact := ""
	if !math.IsNaN(h.ExactLogZ) {
		exact = fmt.Sprintf("; exact %.10g", h.ExactLogZ)
	}
	fmt.Fprintf(tw, "log Z = log(Z1/Z0), %s\t%s (mean ± se over replicates; reverse − forward %.2g%s)\n", logZScans(c), runout.FormatLogZ(h.LogZ, h.LogZSE), h.LogZDiff, exact)
	mean, sd := batch.MeanSD(res.RoundTripRates)
	fmt.Fprintf(tw, "round-trip rate (last scan only)\t%.5f ± %.5f (mean ± sd over replicates; one scan's round trips, noisy: under automatic tuning a scan may be 20 iterations)\n", mean, sd)
	if h.AutoTuned {
		fmt.Fprintf(tw, "automatic tuning\t%.0f iterations in %.1f rounds (mean); path and schedule fixed in %d of %d replicates\n", h.TuningIterations, h.TuningRounds, h.TuningFrozen, len(res.TuningFrozen))
	}
	fmt.Fprintf(tw, "predicted rate 1/(2+2Σr/(1-r))\t%.5f\n", sum.TauPredicted)
	fmt.Fprintf(tw, "barrier Λ = Σ r_n\t%.4f\n", sum.Barrier)
	fmt.Fprintf(tw, "non-asymptotic barrier\t%.4f\n", sum.NonAsymptoticBarrier)
	fmt.Fprintf(tw, "SKL surrogate\t%.4f\n", sum.SKL)
	fmt.Fprintf(tw, "round trips (all scans, all replicates)\t%d\n", h.RoundTrips)
	fmt.Fprintf(tw, "target first coordinate (last scan only)\tmean %.6g, variance %.6g (one scan; the kept samples' diagnostics per observable are below)\n", sum.TargetMean, sum.TargetVar)
	fmt.Fprintf(tw, "throughput\t%.3g chain-steps/s in %.2f s\n", res.ChainStepsPerSecond(), res.Elapsed.Seconds())
	fmt.Fprintf(tw, "time at scan ends (tuning)\t%.2f%% of the workers' time\n", 100*res.TuningFraction)
	fmt.Fprintf(tw, "restarts (all scans, all replicates)\t%d (last scan: %.5f per iteration)\n", h.Restarts, h.RestartRate)
	fmt.Fprint(tw, runout.LegRows(res)) // each leg's, for --reference stabilized
	if h.HasESS {
		fmt.Fprintf(tw, "ESS of %s (kept scans)\t%.4g of %d draws, %.4g round trips in them (the ceiling when local moves mix slowly), means over replicates; %.3g per second over all replicates; per replicate, from its own draws: see the diagnostics below\n",
			res.Observables[0], h.ESS, h.ESSDraws, h.KeptRoundTrips, h.ESSPerSecond)
	}
	addDiagTable(tw, stats.Diagnostics(res)) // diagout.go
	tw.Flush()
}
