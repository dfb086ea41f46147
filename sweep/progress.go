package sweep

import (
	"fmt"
	"io"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/runloop"
	"github.com/ptbatch/ptbatch/study"
)

// ProgressPrinter returns the progress callback of a sweep over cells
// (study.Options.Progress, as Spec.Execute takes it): each piece's scans
// are printed to w by a runloop.ProgressPrinter of its own, whose stage
// names the cell ("cell 2/9 (d=2, K=4)").
func ProgressPrinter(w io.Writer, cells []Cell) func(study.Progress) {
	piece := -1
	var print func(batch.Progress)
	return func(p study.Progress) {
		if p.Piece != piece {
			cell := cells[p.Run]
			piece, print = p.Piece, runloop.ProgressPrinter(w, fmt.Sprintf("cell %d/%d (d=%d, K=%d)", p.Run+1, len(cells), cell.Dim, cell.Knots))
		}
		print(batch.Progress{Scan: p.Scan, Scans: p.Scans, Elapsed: p.Elapsed})
	}
}
