package figure

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// SavePanels writes base.png and base.svg: the plots laid out as a grid
// (plots[row][col]), their axes aligned (plot.Align), on a page w × h.
func SavePanels(base string, plots [][]*plot.Plot, w, h vg.Length) error {
	tiles := draw.Tiles{Rows: len(plots), Cols: len(plots[0]), PadX: vg.Millimeter * 3, PadY: vg.Millimeter * 3,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	render := func(c vg.CanvasWriterTo) vg.CanvasWriterTo {
		dc := draw.New(c)
		canvases := plot.Align(plots, tiles, dc)
		for i, row := range plots {
			for j, p := range row {
				if p != nil {
					p.Draw(canvases[i][j])
				}
			}
		}
		return c
	}
	for ext, c := range map[string]vg.CanvasWriterTo{
		"png": vgimg.PngCanvas{Canvas: vgimg.New(w, h)},
		"svg": vgsvg.New(w, h),
	} {
		if err := saveAs(base, ext, render(c)); err != nil {
			return err
		}
	}
	return nil
}

// PrecTicks are plot.DefaultTicks labelled with as many decimals as the
// steps between the major ticks need, so that no two labels read the same
// (DefaultTicks may print 1.03 and 1.0 both as "1", and its labelled end
// tick may sit off the step: 0.1, 0.2 and 0.25).
type PrecTicks struct{}

// Ticks returns the ticks of [min, max].
func (PrecTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	var major []float64
	for _, t := range ticks {
		if t.Label != "" {
			major = append(major, t.Value)
		}
	}
	if len(major) < 2 {
		return ticks
	}
	dec := max(0, -int(math.Floor(math.Log10(major[1]-major[0]))))
	for dec < 15 && !distinctLabels(major, dec) {
		dec++
	}
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = strconv.FormatFloat(t.Value, 'f', dec, 64)
		}
	}
	return ticks
}

// distinctLabels reports whether the values, printed with dec decimals,
// all read differently.
func distinctLabels(values []float64, dec int) bool {
	seen := make(map[string]bool, len(values))
	for _, v := range values {
		l := strconv.FormatFloat(v, 'f', dec, 64)
		if seen[l] {
			return false
		}
		seen[l] = true
	}
	return true
}
