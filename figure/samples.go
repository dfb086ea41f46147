package figure

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Limits of SaveSamples' figure: the observables drawn, the points of a
// replicate's trace (every k-th kept state beyond them), and the bins of
// a density.
const (
	figureObservables = 4
	tracePoints       = 1000
	densityBins       = 40
)

// SaveSamples writes base.png/svg, the figure of kept samples
// draws[observable][replicate][state] named by names: per observable (the first
// figureObservables), the trace of the kept samples (left) and their
// density, a histogram drawn as a line (right), one colour per replicate
// and no legend (replicates are many, and are told apart by colour
// alone). Nothing is written when no samples were kept.
func SaveSamples(base string, names []string, draws [][][]float64) error {
	var rows [][]*plot.Plot
	for k := 0; k < min(len(names), figureObservables); k++ {
		if len(draws[k]) == 0 || len(draws[k][0]) < 2 {
			continue
		}
		trace, err := tracePlot(names[k], draws[k])
		if err != nil {
			return err
		}
		dens, err := densityPlot(names[k], draws[k])
		if err != nil {
			return err
		}
		rows = append(rows, []*plot.Plot{trace, dens})
	}
	if len(rows) == 0 {
		return nil
	}
	return SavePanels(base, rows, 9*vg.Inch, vg.Length(1+2.2*float64(len(rows)))*vg.Inch)
}

// tracePlot returns the trace of every replicate's draws against the kept
// state's index.
func tracePlot(name string, chains [][]float64) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: trace of the kept samples, one colour per replicate (%d)", name, len(chains))
	p.X.Label.Text = "kept state"
	p.Y.Label.Text = name
	p.Y.Tick.Marker = PrecTicks{}
	p.Add(plotter.NewGrid())
	for b, c := range chains {
		step := max(1, (len(c)+tracePoints-1)/tracePoints)
		pts := make(plotter.XYs, 0, len(c)/step+1)
		for i := 0; i < len(c); i += step {
			pts = append(pts, plotter.XY{X: float64(i), Y: c[i]})
		}
		if err := addReplicate(p, pts, b, vg.Points(0.5)); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// densityPlot returns each replicate's density: the histogram of its
// draws over densityBins bins spanning all draws, normalised to unit area
// and drawn as a line through the bins' centres.
func densityPlot(name string, chains [][]float64) (*plot.Plot, error) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range chains {
		for _, x := range c {
			if x-x == 0 { // finite
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 0, 1
	} else if !(hi > lo) {
		hi = lo + 1
	}
	width := (hi - lo) / densityBins
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: density per replicate", name)
	p.X.Label.Text = name
	p.Y.Label.Text = "density"
	p.X.Tick.Marker = PrecTicks{}
	p.Add(plotter.NewGrid())
	for b, c := range chains {
		counts := make([]float64, densityBins)
		for _, x := range c {
			if x-x == 0 {
				counts[min(densityBins-1, int((x-lo)/width))]++
			}
		}
		pts := make(plotter.XYs, densityBins)
		for i, n := range counts {
			pts[i] = plotter.XY{X: lo + (float64(i)+0.5)*width, Y: n / (float64(len(c)) * width)}
		}
		if err := addReplicate(p, pts, b, vg.Points(1)); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// addReplicate adds replicate b's line through pts to p, in the b-th
// colour of plotutil's palette.
func addReplicate(p *plot.Plot, pts plotter.XYs, b int, width vg.Length) error {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return err
	}
	l.Color = plotutil.Color(b)
	l.Width = width
	p.Add(l)
	return nil
}
