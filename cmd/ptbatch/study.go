package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/paper"
	"github.com/ptbatch/ptbatch/runloop"
)

// runStudy is `ptbatch` with no arguments: the paper's Gaussian experiment
// (appendix "Experimental details", Gaussian) for each method, 10
// replicates (paper.RunDefaultStudy, through runloop's one loop).
func runStudy(ctx context.Context, stdout, stderr io.Writer) error {
	fmt.Fprintf(stdout, "Default study: the paper's Gaussian experiment, N(-1, 0.01²) → N(1, 0.01²),\n")
	fmt.Fprintf(stdout, "%d chains, %d iterations in %d scans, %d replicates, seed 1.\n",
		paper.DefaultStudyChains, paper.DefaultStudyIterations, paper.DefaultStudyScans, paper.DefaultStudyReplicates)
	fmt.Fprintf(stdout, "Linear path barrier Λ = z/√π = 112.8 (z = 200): linear-path rate bound 1/(2+2Λ) = 0.0044.\n\n")
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "method\tround-trip rate (last scan)\tround trips (mean)\tbarrier Λ\tpredicted τ\tseconds\t")
	progress := func(m paper.StudyMethod) func(batch.Progress) { return runloop.ProgressPrinter(stderr, m.Name) }
	if err := paper.RunDefaultStudy(ctx, progress, func(r paper.DefaultStudyRow) error {
		res := r.Result
		fmt.Fprintf(tw, "%s\t%.4f ± %.4f\t%.1f\t%.2f\t%.4f\t%.1f\t\n", r.Method.Name, r.Rate, r.RateSD, r.RoundTrips, res.Summary().Barrier, res.Summary().TauPredicted, res.Elapsed.Seconds())
		if res.Interrupted {
			tw.Flush()
			return interruptedf("interrupted during %s; the table reports its scans completed", r.Method.Name)
		}
		return nil
	}); err != nil {
		return err
	}
	return tw.Flush()
}
