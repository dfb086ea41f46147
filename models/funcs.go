package models

import (
	"errors"
	"fmt"
	"math"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// Funcs is a model given by plain scalar functions of one state x (a
// []float64 of Dim coordinates): what a user writes to sample a target of
// their own. FromFuncs turns it into a batched Model.
type Funcs struct {
	// Dim is the number of coordinates of a state.
	Dim int
	// LogReference is W0, the log density of the reference, up to a
	// constant. It must be a distribution SampleReference can draw from
	// exactly.
	LogReference func(x []float64) float64
	// LogTarget is W1, the log density of the target, up to a constant.
	LogTarget func(x []float64) float64
	// SampleReference overwrites x with an exact draw from the reference
	// exp(W0), using only rng for randomness.
	SampleReference func(rng Rand, x []float64)
	// Names, if not nil, names the Dim coordinates (the observables);
	// the default is "x0", "x1", ….
	Names []string
}

// Rand is the random number source of one replicate, given to the
// functions of Funcs and to explorers.
type Rand interface {
	// Uniform returns a uniform draw on (0, 1] (exactly 1 with probability
	// 2⁻⁵³, see asm.UnitOpen).
	Uniform() float64
	// Normal returns a standard normal draw.
	Normal() float64
}

// laneRand is the Rand of one lane: the lane's own uniforms, and normals as
// the cosine half of a Box–Muller pair of them (kernel.LaneNormal), so that
// the batched block and the scalar reference draw the same numbers.
type laneRand struct{ l Lane }

func (r laneRand) Uniform() float64 { return r.l.Uniform() }
func (r laneRand) Normal() float64  { return kernel.Normal(r.l) }

// Explorer is a local exploration move for the models of FromFuncs: one
// move of a state under an annealed density exp(η0·W0 + η1·W1), with
// settings of its own per replicate and chain that it may adapt between
// scans. RandomWalk and SliceSampler are the explorers ptbatch offers.
type Explorer interface {
	// Name names the explorer ("random-walk", "slice").
	Name() string
	// newLane returns the explorer's state for one replicate.
	newLane(dim int) explorerLane
}

// explorerLane is an explorer's state for one replicate: its settings per
// chain, adapted at scan ends.
type explorerLane interface {
	// move moves x (with energies w = (W0(x), W1(x))) under the density
	// exp(eta0·W0 + eta1·W1) of chain n, in place; scratch has Dim
	// coordinates.
	move(f *Funcs, rng Rand, x []float64, w *[2]float64, eta0, eta1 float64, n int, scratch []float64)
	// endScan adapts the settings from the scan's moves.
	endScan()
}

// funcsModel is the Model of FromFuncs.
type funcsModel struct {
	f  Funcs
	ex Explorer
}

// FromFuncs returns the batched model of f explored by ex: every row of
// every lane runs ex's move on its own state with its lane's random
// numbers, lane by lane, so that results do not depend on the lane, the
// number of replicates or workers, or the kernel implementation. Rows whose
// coefficients are exactly those of the reference, (η0, η1) = (1, 0) (the
// reference chain t_0 = 0 on every path), draw exactly from
// f.SampleReference instead.
func FromFuncs(f Funcs, ex Explorer) (Model, error) {
	switch {
	case f.Dim < 1:
		return nil, fmt.Errorf("models: Funcs.Dim must be at least 1, got %d", f.Dim)
	case f.LogReference == nil:
		return nil, errors.New("models: Funcs.LogReference is nil")
	case f.LogTarget == nil:
		return nil, errors.New("models: Funcs.LogTarget is nil")
	case f.SampleReference == nil:
		return nil, errors.New("models: Funcs.SampleReference is nil")
	case f.Names != nil && len(f.Names) != f.Dim:
		return nil, fmt.Errorf("models: Funcs.Names has %d names for %d coordinates", len(f.Names), f.Dim)
	case ex == nil:
		return nil, errors.New("models: no explorer")
	}
	if f.Names != nil {
		f.Names = append([]string(nil), f.Names...)
	}
	return &funcsModel{f: f, ex: ex}, nil
}

// Observables returns the coordinates' names: Funcs.Names, or "x0", "x1",
// … made when asked, so that a model too large to run (Dim = 1<<40) is
// refused by batch.New's memory estimate instead of building its names.
func (m *funcsModel) Observables() []string {
	if m.f.Names == nil {
		return Coordinates(m.f.Dim)
	}
	return append([]string(nil), m.f.Names...)
}

// NumObservables returns Dim (models.ObservableCounter), without listing
// the names.
func (m *funcsModel) NumObservables() int { return m.f.Dim }

// Name returns "funcs/" and the explorer's name.
func (m *funcsModel) Name() string { return "funcs/" + m.ex.Name() }

// NewBlock allocates spec.Rows states for every lane.
func (m *funcsModel) NewBlock(spec BlockSpec) Block {
	b := &funcsBlock{
		m:       m,
		rows:    spec.Rows,
		x:       layout.Float64s(spec.Rows * m.f.Dim * layout.Lanes),
		w:       make([][2]float64, spec.Rows*layout.Lanes),
		state:   make([]float64, m.f.Dim),
		scratch: make([]float64, m.f.Dim),
	}
	for j := range b.lanes {
		b.lanes[j] = m.ex.newLane(m.f.Dim)
	}
	return b
}

// funcsBlock holds rows states × layout.Lanes lanes, coordinate d of row r,
// lane j at layout.Index(r, Dim, d, j), with each state's energies.
type funcsBlock struct {
	m       *funcsModel
	rows    int
	x       []float64
	w       [][2]float64 // by row and lane: (W0, W1) of the state
	lanes   [layout.Lanes]explorerLane
	state   []float64 // one state, gathered
	scratch []float64
}

func (b *funcsBlock) load(r, j int) {
	for d := range b.state {
		b.state[d] = b.x[layout.Index(r, len(b.state), d, j)]
	}
}

func (b *funcsBlock) store(r, j int) {
	for d, v := range b.state {
		b.x[layout.Index(r, len(b.state), d, j)] = v
	}
}

func (b *funcsBlock) check(rows Rows, out Energies) {
	n := b.rows * layout.Lanes
	if len(rows.Eta0) != n || len(rows.Eta1) != n || len(rows.Chain) != n || len(out.W0) != n || len(out.W1) != n {
		panic("models: slice lengths do not match the block")
	}
}

// Init draws every row from the reference.
func (b *funcsBlock) Init(rng *kernel.Stream, rows Rows, out Energies) {
	b.check(rows, out)
	for j := 0; j < layout.Lanes; j++ {
		r := laneRand{rng.Lane(j)}
		for row := 0; row < b.rows; row++ {
			i := row*layout.Lanes + j
			b.w[i] = referenceDraw(&b.m.f, r, b.state)
			b.store(row, j)
			out.W0[i], out.W1[i] = b.w[i][0], b.w[i][1]
		}
	}
}

// Explore moves every row of every lane: lane by lane, rows in order.
func (b *funcsBlock) Explore(rng *kernel.Stream, rows Rows, out Energies) {
	b.check(rows, out)
	for j := 0; j < layout.Lanes; j++ {
		r := laneRand{rng.Lane(j)}
		for row := 0; row < b.rows; row++ {
			i := row*layout.Lanes + j
			b.load(row, j)
			b.w[i] = exploreOne(&b.m.f, b.lanes[j], r, b.state, b.w[i], rows.Eta0[i], rows.Eta1[i], int(rows.Chain[i]), b.scratch)
			b.store(row, j)
			out.W0[i], out.W1[i] = b.w[i][0], b.w[i][1]
		}
	}
}

// Observe writes the first len(dst) coordinates of row row, lane lane.
// The row's stride is the model's dimension, whatever len(dst) is: the
// engine asks for the first observable alone for its per-scan summary.
func (b *funcsBlock) Observe(dst []float64, row, lane int) {
	for d := range dst {
		dst[d] = b.x[layout.Index(row, b.m.f.Dim, d, lane)]
	}
}

// EndScan adapts every lane's explorer.
func (b *funcsBlock) EndScan() {
	for _, l := range b.lanes {
		l.endScan()
	}
}

// referenceDraw overwrites x with an exact reference draw and returns its
// energies.
func referenceDraw(f *Funcs, r Rand, x []float64) [2]float64 {
	f.SampleReference(r, x)
	return [2]float64{f.LogReference(x), f.LogTarget(x)}
}

// exploreOne is one row's move: an exact reference draw at the reference's
// coefficients (1, 0), the explorer's move otherwise.
func exploreOne(f *Funcs, ex explorerLane, r Rand, x []float64, w [2]float64, eta0, eta1 float64, n int, scratch []float64) [2]float64 {
	if eta0 == 1 && eta1 == 0 {
		return referenceDraw(f, r, x)
	}
	ex.move(f, r, x, &w, eta0, eta1, n, scratch)
	return w
}

// annealed returns η0·W0 + η1·W1, with a zero coefficient's term left out
// (so that 0·(-∞) is not NaN), and -∞ for NaN.
func annealed(w [2]float64, eta0, eta1 float64) float64 {
	s := 0.0
	if eta0 != 0 {
		s += eta0 * w[0]
	}
	if eta1 != 0 {
		s += eta1 * w[1]
	}
	if math.IsNaN(s) {
		return math.Inf(-1)
	}
	return s
}

// Scalar returns the reference implementation: one replicate, rows in
// order, with explorer state of its own (each call returns a fresh one).
func (m *funcsModel) Scalar() Scalar {
	return &funcsScalar{m: m, ex: m.ex.newLane(m.f.Dim), scratch: make([]float64, m.f.Dim)}
}

type funcsScalar struct {
	m       *funcsModel
	ex      explorerLane
	w       [][2]float64
	scratch []float64
}

func (s *funcsScalar) Init(rng Lane, rows int) ([][]float64, []float64, []float64) {
	states := make([][]float64, rows)
	w0, w1 := make([]float64, rows), make([]float64, rows)
	s.w = make([][2]float64, rows)
	for r := range states {
		states[r] = make([]float64, s.m.f.Dim)
		s.w[r] = referenceDraw(&s.m.f, laneRand{rng}, states[r])
		w0[r], w1[r] = s.w[r][0], s.w[r][1]
	}
	return states, w0, w1
}

func (s *funcsScalar) Explore(rng Lane, states [][]float64, eta0, eta1 []float64, chain []int) ([]float64, []float64) {
	w0, w1 := make([]float64, len(states)), make([]float64, len(states))
	for r := range states {
		s.w[r] = exploreOne(&s.m.f, s.ex, laneRand{rng}, states[r], s.w[r], eta0[r], eta1[r], chain[r], s.scratch)
		w0[r], w1[r] = s.w[r][0], s.w[r][1]
	}
	return w0, w1
}

// EndScan adapts the explorer.
func (s *funcsScalar) EndScan() { s.ex.endScan() }
