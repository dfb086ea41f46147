package models

import (
	"errors"
	"math"
	"testing"
)

// TestVariationalLaneFit checks the moment-matching fit against the
// moments of a small data set worked by hand, the normaliser that makes
// exp(W0) integrate to Z0, and that a fit without spread keeps the
// previous reference.
func TestVariationalLaneFit(t *testing.T) {
	g, _ := NewGaussian(2, 0, 0, 0.5, 1)
	v := &variationalModel{logZ0: g.LogZ0()}
	l := newVariationalLane(v, g.Funcs())
	// Coordinate 0: 1, 2, 3, 6 (mean 3, variance (4+1+0+9)/3 = 14/3);
	// coordinate 1: 10, 10, 10, 12 (mean 10.5, variance 3/3 = 1).
	for _, x := range [][]float64{{1, 10}, {2, 10}, {3, 10}, {6, 12}} {
		l.add(x)
	}
	if !l.fit(v.logZ0) {
		t.Fatal("fit refused four distinct states")
	}
	want := [][2]float64{{3, math.Sqrt(14.0 / 3)}, {10.5, 1}}
	for d, w := range want {
		if math.Abs(l.m[d]-w[0]) > 1e-12 || math.Abs(l.s[d]-w[1]) > 1e-12 {
			t.Errorf("coordinate %d: m, s = %v, %v, want %v", d, l.m[d], l.s[d], w)
		}
	}
	// At x = m, W0 = log Z0 − log((2π)^{d/2} s0 s1): the normalised
	// Gaussian's peak times Z0.
	peak := g.LogZ0() - math.Log(2*math.Pi*l.s[0]*l.s[1])
	if got := l.logDensity([]float64{3, 10.5}); math.Abs(got-peak) > 1e-12 {
		t.Errorf("W0 at the mean = %v, want %v", got, peak)
	}
	for range 3 {
		l.add([]float64{7, 7})
	}
	if l.fit(v.logZ0) || l.m[0] != 3 {
		t.Errorf("a fit to three equal states changed the reference to m = %v", l.m)
	}
}

// TestVariationalRefusals checks that a model whose state is not
// unconstrained real (the galaxy mixture) is refused with
// ErrNotUnconstrained, and a negative number of fit scans with an error.
func TestVariationalRefusals(t *testing.T) {
	if _, err := Variational(NewGalaxy(), AutoMALA{}, 4); !errors.Is(err, ErrNotUnconstrained) {
		t.Errorf("galaxy: %v, want ErrNotUnconstrained", err)
	}
	g, _ := NewGaussian(1, -1, 1, 0.01, 0.01)
	if _, err := Variational(g, AutoMALA{}, -1); err == nil {
		t.Error("fitScans = -1 accepted")
	}
}
