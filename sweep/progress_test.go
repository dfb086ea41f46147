package sweep

import (
	"bytes"
	"testing"
	"time"

	"github.com/ptbatch/ptbatch/study"
)

// TestProgressPrinter feeds a sweep's progress callback the scans of two
// pieces, with elapsed times chosen by the test: each piece gets a
// printer of its own (the second piece's first scan, at 2 s, is printed
// although the first piece printed at 3 s), named by its cell, and
// runloop.ProgressPrinter's once-a-second rule holds within a piece.
func TestProgressPrinter(t *testing.T) {
	cells := []Cell{{Dim: 4, Chains: 30, Knots: 1}, {Dim: 16, Chains: 60, Knots: 4}}
	var w bytes.Buffer
	p := ProgressPrinter(&w, cells)
	for _, pr := range []study.Progress{
		{Piece: 0, Pieces: 2, Run: 0, Scan: 1, Scans: 4, Elapsed: 500 * time.Millisecond}, // under a second: silent
		{Piece: 0, Pieces: 2, Run: 0, Scan: 2, Scans: 4, Elapsed: 3 * time.Second},
		{Piece: 0, Pieces: 2, Run: 0, Scan: 3, Scans: 4, Elapsed: 3500 * time.Millisecond}, // within a second of the last: silent
		{Piece: 1, Pieces: 2, Run: 1, Scan: 1, Scans: 2, Elapsed: 2 * time.Second},
	} {
		p(pr)
	}
	// The lines are runloop.ProgressPrinter's: 2/4 scans in 3 s leave 3 s;
	// 1/2 in 2 s leaves 2 s.
	want := "cell 1/2 (d=4, K=1): scan 2/4 (50%), 3s elapsed, ~3s left\n" +
		"cell 2/2 (d=16, K=4): scan 1/2 (50%), 2s elapsed, ~2s left\n"
	if w.String() != want {
		t.Errorf("printed\n%s\nwant\n%s", w.String(), want)
	}
}
