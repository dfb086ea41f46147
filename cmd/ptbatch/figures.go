package main

import fig "github.com/ptbatch/ptbatch/figure"

// series is one line of a figure: figure.Series with the field names
// sweep, reproduce and study write it with.
type series struct {
	name           string
	xs, ys         []float64
	dashed, points bool
	lo, hi         []float64
}

// figure is a titled plot, figure.Figure with the field names sweep,
// reproduce and study write it with.
type figure struct {
	title, xlabel, ylabel string
	logX, logY            bool
	lines                 []series
	noLegend              bool
}

// save writes base.png and base.svg (figure.Figure.Save).
func (f figure) save(base string) error { return f.lib().Save(base) }

// lib returns f as a fig.Figure.
func (f figure) lib() fig.Figure {
	g := fig.Figure{Title: f.title, XLabel: f.xlabel, YLabel: f.ylabel, LogX: f.logX, LogY: f.logY, NoLegend: f.noLegend}
	for _, s := range f.lines {
		g.Lines = append(g.Lines, fig.Series{Name: s.name, Xs: s.xs, Ys: s.ys, Dashed: s.dashed, Points: s.points, Lo: s.lo, Hi: s.hi})
	}
	return g
}
