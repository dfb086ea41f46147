package study

import (
	"bytes"
	"testing"
)

// TestPieceNotes checks that PieceNotes prints a line only for a piece's
// last scan, numbering pieces from 1 and runs from 0.
func TestPieceNotes(t *testing.T) {
	var w bytes.Buffer
	p := PieceNotes(&w)
	p(Progress{Piece: 0, Pieces: 2, Run: 3, Scan: 1, Scans: 2})
	p(Progress{Piece: 0, Pieces: 2, Run: 3, Scan: 2, Scans: 2})
	p(Progress{Piece: 1, Pieces: 2, Run: 4, Scan: 1, Scans: 1})
	want := "study: piece 1/2 (run 3) done\nstudy: piece 2/2 (run 4) done\n"
	if w.String() != want {
		t.Errorf("printed %q, want %q", w.String(), want)
	}
}
