package study

import (
	"fmt"
	"io"
)

// PieceNotes returns a progress callback (Options.Progress) that prints
// one line to w as each piece ends: "study: piece 2/5 (run 1) done", the
// run numbered from 0 as in the plan.
func PieceNotes(w io.Writer) func(Progress) {
	return func(pr Progress) {
		if pr.Scan == pr.Scans {
			fmt.Fprintf(w, "study: piece %d/%d (run %d) done\n", pr.Piece+1, pr.Pieces, pr.Run)
		}
	}
}
