package runloop

import (
	"strings"
	"testing"
	"time"

	"github.com/ptbatch/ptbatch/batch"
)

// TestProgressPrinter feeds the printer progress reports with chosen
// elapsed times (no clock is read): nothing before the first second, at
// most a line a second, the last scan always; 1 of 4 scans in 2 s leaves
// 3 × 2 s = 6 s.
func TestProgressPrinter(t *testing.T) {
	var b strings.Builder
	p := ProgressPrinter(&b, "run")
	for _, r := range []batch.Progress{
		{Scan: 1, Scans: 8, Elapsed: 500 * time.Millisecond},  // under a second: silent
		{Scan: 2, Scans: 8, Elapsed: 2 * time.Second},         // printed
		{Scan: 3, Scans: 8, Elapsed: 2500 * time.Millisecond}, // within a second of the last: silent
		{Scan: 8, Scans: 8, Elapsed: 2900 * time.Millisecond}, // the last scan: printed
	} {
		p(r)
	}
	want := "run: scan 2/8 (25%), 2s elapsed, ~6s left\nrun: scan 8/8 (100%), 2.9s elapsed, ~0s left\n"
	if b.String() != want {
		t.Errorf("printed\n%q\nwant\n%q", b.String(), want)
	}
}
