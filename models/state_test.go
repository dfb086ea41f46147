package models

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// stateModels are the built-in models with a block state: the exact
// Gaussian and Beta-binomial, the mixtures, and FromFuncs with each
// explorer (the random walk adapts step sizes per chain).
func stateModels(t *testing.T) []Model {
	t.Helper()
	g, _ := NewGaussian(3, -1, 2, 0.3, 0.2)
	bb, _ := NewBetaBinomial(180, 840, 1400, 600)
	f := Funcs{
		Dim:             2,
		LogReference:    func(x []float64) float64 { return -0.5 * (x[0]*x[0] + x[1]*x[1]) },
		LogTarget:       func(x []float64) float64 { return -2 * ((x[0]-1)*(x[0]-1) + x[1]*x[1]) },
		SampleReference: func(r Rand, x []float64) { x[0], x[1] = r.Normal(), r.Normal() },
	}
	rw, err := FromFuncs(f, RandomWalk{Step: 0.7})
	if err != nil {
		t.Fatal(err)
	}
	slice, err := FromFuncs(f, SliceSampler{})
	if err != nil {
		t.Fatal(err)
	}
	return []Model{g, bb, NewGalaxy(), NewMixture(3), rw, slice}
}

// ladder returns coefficients on the linear path, row r at t = r/(rows-1),
// the same in every lane.
func ladder(rows int) Rows {
	eta0, eta1 := make([]float64, rows*layout.Lanes), make([]float64, rows*layout.Lanes)
	for i := range eta0 {
		t := float64(i/layout.Lanes) / float64(rows-1)
		eta0[i], eta1[i] = 1-t, t
	}
	return testRows(eta0, eta1)
}

// TestBlockStateRoundTrip moves a block of every model a few times (with
// an end of scan, so that explorers adapt), saves it, restores it into a
// new block initialised from another stream, and checks that both observe the same states and then
// make bit-identical moves, energies and observations from equal streams.
func TestBlockStateRoundTrip(t *testing.T) {
	const rows = 5
	n := rows * layout.Lanes
	for _, m := range stateModels(t) {
		name := m.(Named).Name()
		rng := kernel.NewStream(11, 0)
		a := m.NewBlock(BlockSpec{Rows: rows})
		e := Energies{W0: make([]float64, n), W1: make([]float64, n)}
		a.Init(rng, initRows(rows), e)
		for range 3 {
			a.Explore(rng, ladder(rows), e)
		}
		if s, ok := a.(ScanEnder); ok {
			s.EndScan()
		}
		a.Explore(rng, ladder(rows), e)
		data, err := a.(BlockState).MarshalBinary()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b := m.NewBlock(BlockSpec{Rows: rows})
		b.Init(kernel.NewStream(99, 5), initRows(rows), Energies{W0: make([]float64, n), W1: make([]float64, n)})
		if err := b.(BlockState).UnmarshalBinary(data); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		state, _ := rng.MarshalBinary()
		rngB := new(kernel.Stream)
		if err := rngB.UnmarshalBinary(state); err != nil {
			t.Fatal(err)
		}
		same := func(x, y []float64) bool {
			return slices.EqualFunc(x, y, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
		}
		sameObserved := func(k int) {
			for j := 0; j < layout.Lanes; j++ {
				// The last two rows (an Exact model is asked about no other).
				for r := rows - 2; r < rows; r++ {
					if !same(observe(m, a, r, j), observe(m, b, r, j)) {
						t.Fatalf("%s: move %d: row %d lane %d observed differently", name, k, r, j)
					}
				}
			}
		}
		sameObserved(-1)
		eb := Energies{W0: make([]float64, n), W1: make([]float64, n)}
		for k := range 4 {
			a.Explore(rng, ladder(rows), e)
			b.Explore(rngB, ladder(rows), eb)
			if k == 1 {
				for _, blk := range []Block{a, b} {
					if s, ok := blk.(ScanEnder); ok {
						s.EndScan()
					}
				}
			}
			if !same(e.W0, eb.W0) || !same(e.W1, eb.W1) {
				t.Fatalf("%s: move %d after the restore: energies differ", name, k)
			}
			sameObserved(k)
		}
		other := m.NewBlock(BlockSpec{Rows: rows + 1})
		if err := other.(BlockState).UnmarshalBinary(data); err == nil {
			t.Errorf("%s: state of %d rows restored into a block of %d", name, rows, rows+1)
		}
		for _, cut := range []int{0, 3, len(data) / 2, len(data) - 1} {
			if err := b.(BlockState).UnmarshalBinary(data[:cut]); err == nil {
				t.Errorf("%s: state cut to %d of %d bytes restored", name, cut, len(data))
			}
		}
	}
}

// TestDescriptions checks that every built-in model describes itself, that
// the description changes with any parameter (in its last bit, for a
// float64) and that a mixture's covers its data.
func TestDescriptions(t *testing.T) {
	g, _ := NewGaussian(3, -1, 2, 0.3, 0.2)
	g2, _ := NewGaussian(3, -1, 2, 0.3, math.Nextafter(0.2, 1))
	bb, _ := NewBetaBinomial(180, 840, 1400, 600)
	bb2, _ := NewBetaBinomial(180, 840, 1400, 601)
	p := NewGalaxy().Params()
	p.Data[40] = math.Nextafter(p.Data[40], 0)
	gal2, err := NewMixtureModel(p)
	if err != nil {
		t.Fatal(err)
	}
	ms := stateModels(t)
	for _, c := range [][2]Model{{g, g2}, {bb, bb2}, {NewGalaxy(), gal2}, {NewMixture(3), NewMixture(4)}, {ms[4], ms[5]}} {
		a, b := c[0].(Described).Description(), c[1].(Described).Description()
		if a == b || a != c[0].(Described).Description() {
			t.Errorf("descriptions %q and %q", a, b)
		}
	}
	if d := g.Description(); d != "gaussian dim=3 mu0=-1 mu1=2 sigma0=0.3 sigma1=0.2" {
		t.Errorf("Gaussian description %q", d)
	}
	rw, _ := FromFuncs(Funcs{Dim: 1, LogReference: func([]float64) float64 { return 0 }, LogTarget: func([]float64) float64 { return 0 },
		SampleReference: func(Rand, []float64) {}}, RandomWalk{Step: 0.5})
	if d := rw.(Described).Description(); !strings.Contains(d, "step=0.5 acceptance=0.3 moves=1") {
		t.Errorf("random-walk description %q does not give its settings with the defaults filled in", d)
	}
}
