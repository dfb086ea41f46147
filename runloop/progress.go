package runloop

import (
	"fmt"
	"io"
	"sync"
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

// SyncWriter returns a writer whose writes go to w one at a time, for the
// ProgressPrinters of runs that go on at once (paper.Reproduce's highdim
// runs) and share one w: each line is then written whole.
func SyncWriter(w io.Writer) io.Writer { return &syncWriter{w: w} }

// syncWriter serialises the writes to w.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
