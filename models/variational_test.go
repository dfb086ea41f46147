package models

import (
	"errors"
	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
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

// TestVariationalFreezeLane checks that a lane frozen by the engine's
// automatic tuner (FreezeLane) keeps its reference at a scan's end while
// the other lanes refit: after Init and one scan of exploration from the
// model's own reference, lane 0 (frozen) stays unfitted and lane 1 fits.
func TestVariationalFreezeLane(t *testing.T) {
	g, _ := NewGaussian(1, -1, 1, 1, 1)
	m, err := Variational(g, MALA{}, 4)
	if err != nil {
		t.Fatal(err)
	}
	const rows = 3
	n := rows * layout.Lanes
	rs := Rows{Eta0: make([]float64, n), Eta1: make([]float64, n), Chain: make([]int32, n)}
	for i := range rs.Chain {
		rs.Chain[i] = int32(i / layout.Lanes)
		rs.Eta0[i] = 1 - float64(rs.Chain[i])/(rows-1)
		rs.Eta1[i] = 1 - rs.Eta0[i]
	}
	out := Energies{W0: make([]float64, n), W1: make([]float64, n)}
	b := m.NewBlock(BlockSpec{Rows: rows}).(*variationalBlock)
	rng := kernel.NewStream(7, 0)
	b.Init(rng, rs, out)
	for range 50 {
		b.Explore(rng, rs, out)
	}
	b.FreezeLane(0)
	b.EndScan()
	if b.lanes[0].fitted || !b.lanes[1].fitted {
		t.Errorf("fitted after the scan: frozen lane 0 %v (want false), lane 1 %v (want true)", b.lanes[0].fitted, b.lanes[1].fitted)
	}
}
