package figure

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/ptbatch/ptbatch/rundir"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one line of a figure.
type Series struct {
	Name   string
	Xs, Ys []float64
	Dashed bool // drawn dashed, in black (bounds and references)
	Points bool // mark the data points
	// Lo and Hi, when not nil, are drawn as a translucent band around the
	// line (such as mean ± sd over replicates).
	Lo, Hi []float64
}

// Figure is a titled plot with labelled axes, saved as PNG and SVG.
type Figure struct {
	Title, XLabel, YLabel string
	LogX, LogY            bool
	Lines                 []Series
	NoLegend              bool // too many lines to name
}

// Save writes base.png and base.svg, 7 × 4.5 inches, atomically.
func (f Figure) Save(base string) error {
	p, err := f.Plot(Height)
	if err != nil {
		return err
	}
	for _, ext := range []string{"png", "svg"} {
		wt, err := p.WriterTo(7*vg.Inch, Height, ext)
		if err != nil {
			return err
		}
		if err := saveAs(base, ext, wt); err != nil {
			return err
		}
	}
	return nil
}

// saveAs writes base.ext with the bytes of wt, atomically, as every file
// of an output directory (rundir.WriteFile).
func saveAs(base, ext string, wt io.WriterTo) error {
	return rundir.WriteFile(fmt.Sprintf("%s.%s", base, ext), func(w io.Writer) error {
		_, err := wt.WriteTo(w)
		return err
	})
}

// Height is the height of a figure saved alone.
const Height = 4.5 * vg.Inch

// Plot returns the figure's plot, for a page of height h: with a legend,
// the y-axis is extended upwards so that the legend, in the top left
// corner, sits above every line (legendHeadroom).
func (f Figure) Plot(h vg.Length) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = WrapTitle(f.Title, TitleWidth)
	p.X.Label.Text = f.XLabel
	p.Y.Label.Text = f.YLabel
	p.Legend.Top = true
	p.Legend.Left = true
	p.X.Tick.Marker, p.Y.Tick.Marker = PrecTicks{}, PrecTicks{}
	if f.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if f.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	p.Add(plotter.NewGrid())
	entries, err := f.addLines(p)
	if err != nil {
		return nil, err
	}
	// LogTicks labels powers of ten only: widen a log axis to whole decades
	// so that it always has labels.
	if f.LogX && p.X.Min > 0 {
		p.X.Min, p.X.Max = decades(p.X.Min, p.X.Max)
	}
	if f.LogY && p.Y.Min > 0 {
		p.Y.Min, p.Y.Max = decades(p.Y.Min, p.Y.Max)
	}
	if entries > 0 {
		legendHeadroom(p, f.LogY, entries, h)
	}
	return p, nil
}

// addLines adds the figure's lines (and bands and points) to p, and
// returns the number of legend entries.
func (f Figure) addLines(p *plot.Plot) (entries int, err error) {
	for i, s := range f.Lines {
		pts := make(plotter.XYs, 0, len(s.Xs))
		for k := range s.Xs {
			x, y := s.Xs[k], s.Ys[k]
			if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) ||
				(f.LogX && x <= 0) || (f.LogY && y <= 0) {
				continue
			}
			pts = append(pts, plotter.XY{X: x, Y: y})
		}
		if len(pts) == 0 {
			continue
		}
		if s.Lo != nil {
			if err := addBand(p, f, s, plotutil.Color(i)); err != nil {
				return 0, err
			}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return 0, err
		}
		l.Color = plotutil.Color(i)
		l.Width = vg.Points(1.5)
		if s.Dashed {
			l.Color = color.Black
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		p.Add(l)
		if !f.NoLegend {
			p.Legend.Add(s.Name, l)
			entries++
		}
		if s.Points {
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return 0, err
			}
			sc.Color = l.Color
			sc.Shape = draw.CircleGlyph{}
			p.Add(sc)
		}
	}
	return entries, nil
}

// legendHeadroom raises the top of p's y-axis so that a legend of n
// entries in the top left corner lies above the data: the legend takes
// about n rows of 1.3 times its font's size, plus a margin, of the data
// area (the page height h less about 1.1 inch of title and x-axis), and
// the data are kept to the rest (less the title's second line, if any).
func legendHeadroom(p *plot.Plot, logY bool, n int, h vg.Length) {
	row := 1.3 * float64(p.Legend.TextStyle.Font.Size)
	titleLines := float64(strings.Count(p.Title.Text, "\n"))
	area := float64(h-1.1*vg.Inch) - titleLines*row
	frac := math.Min(0.6, (float64(n)*row+float64(vg.Points(10)))/area)
	lo, hi := p.Y.Min, p.Y.Max
	if logY && lo > 0 {
		lo, hi = math.Log10(lo), math.Log10(hi)
	}
	if !(hi > lo) {
		return
	}
	top := lo + (hi-lo)/(1-frac)
	if logY && p.Y.Min > 0 {
		top = math.Pow(10, top)
	}
	p.Y.Max = top
}

// addBand adds the band between s.Lo and s.Hi, in a translucent c, to p:
// one polygon per run of finite points.
func addBand(p *plot.Plot, f Figure, s Series, c color.Color) error {
	r, g, b, _ := c.RGBA()
	fill := color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 60}
	ok := func(k int) bool {
		for _, v := range []float64{s.Xs[k], s.Lo[k], s.Hi[k]} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
		return !(f.LogX && s.Xs[k] <= 0) && !(f.LogY && (s.Lo[k] <= 0 || s.Hi[k] <= 0))
	}
	for k := 0; k < len(s.Xs); {
		if !ok(k) {
			k++
			continue
		}
		end := k
		for end < len(s.Xs) && ok(end) {
			end++
		}
		if end-k >= 2 {
			ring := make(plotter.XYs, 0, 2*(end-k))
			for j := k; j < end; j++ {
				ring = append(ring, plotter.XY{X: s.Xs[j], Y: s.Hi[j]})
			}
			for j := end - 1; j >= k; j-- {
				ring = append(ring, plotter.XY{X: s.Xs[j], Y: s.Lo[j]})
			}
			poly, err := plotter.NewPolygon(ring)
			if err != nil {
				return err
			}
			poly.Color = fill
			poly.LineStyle.Width = 0
			p.Add(poly)
		}
		k = end
	}
	return nil
}

// decades returns the powers of ten at or below lo and at or above hi,
// a decade apart at least: an axis whose data sit on one power of ten
// (a single point at x = 1) would otherwise have Min == Max, which gonum
// widens by ±1 to a minimum of 0, where its log scale panics.
func decades(lo, hi float64) (float64, float64) {
	dlo, dhi := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if dhi <= dlo {
		dhi = dlo + 1
	}
	return math.Pow(10, dlo), math.Pow(10, dhi)
}

// TitleWidth is the most characters of a title line that fit a 7-inch
// figure.
const TitleWidth = 80

// WrapTitle breaks title into lines of at most width characters, at
// spaces (a longer word stays whole).
func WrapTitle(title string, width int) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(title) {
		if line != "" && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) > width {
			lines = append(lines, line)
			line = w
			continue
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return strings.Join(append(lines, line), "\n")
}
