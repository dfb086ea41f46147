package runloop

import (
	"fmt"
	"io"
	"time"

	"github.com/ptbatch/ptbatch/batch"
)

// ProgressPrinter returns a progress callback (batch.Progress, as
// Options.Progress takes it) that prints the stage, the scans done and
// their percentage, the time elapsed and the time left to w, at most once
// a second of the run's time and only once the run has taken a second;
// the last scan is always printed.
func ProgressPrinter(w io.Writer, stage string) func(batch.Progress) {
	var last time.Duration
	return func(p batch.Progress) {
		if p.Elapsed < time.Second || (p.Elapsed-last < time.Second && p.Scan < p.Scans) {
			return
		}
		last = p.Elapsed
		frac := float64(p.Scan) / float64(p.Scans)
		left := time.Duration(float64(p.Elapsed) * (1 - frac) / frac)
		fmt.Fprintf(w, "%s: scan %d/%d (%.0f%%), %s elapsed, ~%s left\n",
			stage, p.Scan, p.Scans, 100*frac, p.Elapsed.Round(100*time.Millisecond), left.Round(time.Second))
	}
}
