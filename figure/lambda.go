package figure

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// SaveBarrierProfile writes base.png/svg: the local barrier λ(t) above
// and the cumulative barrier Λ(t) below (Syed et al. 2021, Section 3),
// each mean ± sd over the replicates (loc[b], cum[b] on grid) in a panel
// of its own, so that a spike of λ(t) (λ of a few hundred at a knot is
// common) cannot flatten Λ(t).
func SaveBarrierProfile(base string, grid []float64, loc, cum [][]float64) error {
	const h = 3 * vg.Inch // of one panel
	top := Figure{
		Title:  fmt.Sprintf("Local barrier λ(t) of the last scan's path: mean ± sd over %d replicates", len(cum)),
		XLabel: "t", YLabel: "λ(t)", NoLegend: true,
		Lines: []Series{Band("local barrier λ(t)", grid, loc)},
	}
	bottom := Figure{
		Title:  "Cumulative barrier Λ(t) = ∫₀ᵗ λ: mean ± sd",
		XLabel: "t", YLabel: "Λ(t)", NoLegend: true,
		Lines: []Series{Band("cumulative barrier Λ(t)", grid, cum)},
	}
	var plots [][]*plot.Plot
	for _, f := range []Figure{top, bottom} {
		p, err := f.Plot(h)
		if err != nil {
			return err
		}
		plots = append(plots, []*plot.Plot{p})
	}
	return SavePanels(base, plots, 7*vg.Inch, 2*h)
}
