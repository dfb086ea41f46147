package figure

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestWrapTitle checks the line breaks at spaces, a long word kept whole.
func TestWrapTitle(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{"a bb ccc", 4, "a bb\nccc"},       // "a bb" is 4 characters, "+ ccc" would be 8
		{"abcdefgh ij", 4, "abcdefgh\nij"}, // the long word stays whole
		{"λλ λλ", 5, "λλ λλ"},              // counted in runes, not bytes (5 runes)
		{"one", TitleWidth, "one"},         // nothing to break
	} {
		if got := WrapTitle(c.in, c.width); got != c.want {
			t.Errorf("WrapTitle(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}

// TestPrecTicks checks that major ticks 0.01 apart get two decimals, where
// plot.DefaultTicks may print 1.03 and 1.0 alike.
func TestPrecTicks(t *testing.T) {
	var major []string
	for _, tk := range (PrecTicks{}).Ticks(1, 1.05) {
		if tk.Label != "" {
			major = append(major, tk.Label)
		}
	}
	if len(major) < 2 {
		t.Fatalf("major ticks %q: want at least 2", major)
	}
	for _, l := range major {
		if i := strings.IndexByte(l, '.'); i < 0 || len(l)-i-1 != 2 {
			t.Errorf("label %q: want 2 decimals (step 0.01)", l)
		}
	}
}

// TestBand checks the mean ± sd band against a direct computation: rows
// {1, 2, 3} and {3, 4, 5} give means 2, 3, 4 and sd √2 (n-1 = 1).
func TestBand(t *testing.T) {
	s := Band("b", []float64{0, 1, 2}, [][]float64{{1, 2, 3}, {3, 4, 5}})
	for i, m := range []float64{2, 3, 4} {
		if s.Ys[i] != m || math.Abs(s.Hi[i]-m-math.Sqrt2) > 1e-15 || math.Abs(m-s.Lo[i]-math.Sqrt2) > 1e-15 {
			t.Errorf("point %d: %v [%v, %v], want %v ± √2", i, s.Ys[i], s.Lo[i], s.Hi[i], m)
		}
	}
	if one := Band("b", []float64{0}, [][]float64{{7}}); one.Lo != nil || one.Ys[0] != 7 {
		t.Errorf("one row: %+v, want mean 7 and no band", one)
	}
}

// TestSaveWritesBothFormats saves a figure with a band, a dashed line and
// a log axis, and checks the PNG and SVG signatures and the SVG's title.
func TestSaveWritesBothFormats(t *testing.T) {
	base := filepath.Join(t.TempDir(), "f")
	f := Figure{Title: "rate against d", XLabel: "d", YLabel: "rate", LogX: true, Lines: []Series{
		{Name: "a", Xs: []float64{1, 10, 100}, Ys: []float64{0.3, 0.2, 0.1}, Lo: []float64{0.25, 0.15, 0.05}, Hi: []float64{0.35, 0.25, 0.15}, Points: true},
		{Name: "bound", Xs: []float64{1, 100}, Ys: []float64{0.5, 0.5}, Dashed: true},
	}}
	if err := f.Save(base); err != nil {
		t.Fatal(err)
	}
	png, err := os.ReadFile(base + ".png")
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("png: %v, prefix %q", err, png[:min(len(png), 4)])
	}
	svg, err := os.ReadFile(base + ".svg")
	if err != nil || !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("rate against d")) {
		t.Errorf("svg: %v, no <svg> or title", err)
	}
}

// TestLegendHeadroom checks that a legend raises the top of the y-axis
// above the data's maximum, and that without one it does not.
func TestLegendHeadroom(t *testing.T) {
	f := Figure{Lines: []Series{{Name: "a", Xs: []float64{0, 1}, Ys: []float64{0, 1}}}}
	top := func(f Figure) float64 {
		p, err := f.Plot(Height)
		if err != nil {
			t.Fatal(err)
		}
		return p.Y.Max
	}
	if got := top(f); !(got > 1) {
		t.Errorf("with a legend: y max %v, want above the data's 1", got)
	}
	f.NoLegend = true
	if got := top(f); got != 1 {
		t.Errorf("without a legend: y max %v, want the data's 1", got)
	}
}

// TestSaveSamples checks that samples of two observables give the figure
// files, and that no kept samples give none.
func TestSaveSamples(t *testing.T) {
	dir := t.TempDir()
	draws := [][][]float64{{{0, 1, 2}, {1, 2, 3}}, {{5, 4, 3}, {2, 2, 2}}}
	if err := SaveSamples(filepath.Join(dir, "s"), []string{"x0", "x1"}, draws); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "s.png")); err != nil {
		t.Error(err)
	}
	if err := SaveSamples(filepath.Join(dir, "none"), []string{"x0"}, [][][]float64{{}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.png")); !os.IsNotExist(err) {
		t.Errorf("no samples: figure written (%v)", err)
	}
}

// TestPrecTicksDistinct checks, over a grid of ranges like a figure's
// (rates from 0.05–0.1 to 0.2–0.3, the study figure where the labelled end
// tick 0.25 printed as a second "0.2"), that no two major labels read the
// same and each reads its value to within half its last decimal.
func TestPrecTicksDistinct(t *testing.T) {
	for lo := 0.05; lo < 0.1; lo += 0.005 {
		for hi := 0.2; hi < 0.3; hi += 0.005 {
			seen := map[string]bool{}
			for _, tk := range (PrecTicks{}).Ticks(lo, hi) {
				if tk.Label == "" {
					continue
				}
				if seen[tk.Label] {
					t.Errorf("range [%g, %g]: label %q twice", lo, hi, tk.Label)
				}
				seen[tk.Label] = true
				v, err := strconv.ParseFloat(tk.Label, 64)
				dec := 0
				if i := strings.IndexByte(tk.Label, '.'); i >= 0 {
					dec = len(tk.Label) - i - 1
				}
				if err != nil || math.Abs(v-tk.Value) > 0.5*math.Pow(10, -float64(dec))+1e-12 {
					t.Errorf("range [%g, %g]: label %q for %g", lo, hi, tk.Label, tk.Value)
				}
			}
		}
	}
}

// TestLogAxisOfOneDecade saves figures whose log axes hold data on a
// single power of ten (one point at x = 1, as a high-dimensional
// experiment of d = 1 alone gives; y = 10 on a log y-axis): gonum widens
// an axis with Min == Max to a minimum of 0, where its log scale panicked.
// The axis spans a whole decade instead.
func TestLogAxisOfOneDecade(t *testing.T) {
	for _, f := range []Figure{
		{Title: "x", LogX: true, Lines: []Series{{Name: "a", Xs: []float64{1}, Ys: []float64{0.3}, Points: true}}},
		{Title: "y", LogY: true, NoLegend: true, Lines: []Series{{Name: "a", Xs: []float64{0, 2}, Ys: []float64{10, 10}}}},
	} {
		p, err := f.Plot(Height)
		if err != nil {
			t.Fatal(err)
		}
		ax := p.X
		if f.LogY {
			ax = p.Y
		}
		if ax.Min != 1 && ax.Min != 10 || ax.Max != 10*ax.Min {
			t.Errorf("%s: log axis [%v, %v], want one decade from the data's power of ten", f.Title, ax.Min, ax.Max)
		}
		if err := f.Save(filepath.Join(t.TempDir(), f.Title)); err != nil {
			t.Errorf("%s: %v", f.Title, err)
		}
	}
}
