package main

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// series is one line of a figure.
type series struct {
	name   string
	xs, ys []float64
	dashed bool // drawn dashed (bounds and references)
	points bool // mark the data points
}

// figure is a titled plot with labelled axes, saved as PNG and SVG.
type figure struct {
	title, xlabel, ylabel string
	logX, logY            bool
	lines                 []series
}

// save writes base.png and base.svg.
func (f figure) save(base string) error {
	p := plot.New()
	p.Title.Text = f.title
	p.X.Label.Text = f.xlabel
	p.Y.Label.Text = f.ylabel
	p.Legend.Top = true
	p.Legend.Left = true
	if f.logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if f.logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	p.Add(plotter.NewGrid())
	for i, s := range f.lines {
		pts := make(plotter.XYs, 0, len(s.xs))
		for k := range s.xs {
			x, y := s.xs[k], s.ys[k]
			if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) ||
				(f.logX && x <= 0) || (f.logY && y <= 0) {
				continue
			}
			pts = append(pts, plotter.XY{X: x, Y: y})
		}
		if len(pts) == 0 {
			continue
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(i)
		l.Width = vg.Points(1.5)
		if s.dashed {
			l.Color = color.Black
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		p.Add(l)
		p.Legend.Add(s.name, l)
		if s.points {
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return err
			}
			sc.Color = l.Color
			sc.Shape = draw.CircleGlyph{}
			p.Add(sc)
		}
	}
	// LogTicks labels powers of ten only: widen a log axis to whole decades
	// so that it always has labels.
	if f.logX && p.X.Min > 0 {
		p.X.Min, p.X.Max = decades(p.X.Min, p.X.Max)
	}
	if f.logY && p.Y.Min > 0 {
		p.Y.Min, p.Y.Max = decades(p.Y.Min, p.Y.Max)
	}
	for _, ext := range []string{"png", "svg"} {
		if err := p.Save(7*vg.Inch, 4.5*vg.Inch, fmt.Sprintf("%s.%s", base, ext)); err != nil {
			return err
		}
	}
	return nil
}

// decades returns the powers of ten at or below lo and at or above hi.
func decades(lo, hi float64) (float64, float64) {
	return math.Pow(10, math.Floor(math.Log10(lo))), math.Pow(10, math.Ceil(math.Log10(hi)))
}
