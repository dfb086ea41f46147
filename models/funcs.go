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
	// GradLogReference and GradLogTarget, if not nil (both or neither),
	// write the gradients ∇W0(x) and ∇W1(x) to grad: what the gradient
	// explorers (MALA, AutoMALA, HMC) need. FromFuncs checks them against
	// finite differences of the densities at a few reference draws.
	GradLogReference func(x, grad []float64)
	GradLogTarget    func(x, grad []float64)
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

// funcsModel is the Model of FromFuncs.
type funcsModel struct {
	f      Funcs
	ex     Explorer
	report *proposalReport
	// moveName names the explorer's move in errors ("explorer " and its
	// name), built once rather than at every move.
	moveName string
}

// FromFuncs returns the batched model of f explored by ex: every row of
// every lane runs ex's move on its own state with its lane's random
// numbers, lane by lane, so that results do not depend on the lane, the
// number of replicates or workers, or the kernel implementation. Rows whose
// coefficients are exactly those of the reference, (η0, η1) = (1, 0) (the
// reference chain t_0 = 0 on every path), draw exactly from
// f.SampleReference instead. User code runs behind a recover: a panic, a
// non-finite reference draw or a +Inf density ends the run with a
// *CallError (see Target).
func FromFuncs(f Funcs, ex Explorer) (Model, error) {
	if err := checkFuncs(&f, ex); err != nil {
		return nil, err
	}
	if f.Names != nil {
		f.Names = append([]string(nil), f.Names...)
	}
	m := &funcsModel{f: f, ex: ex, report: newProposalReport(), moveName: "explorer " + ex.Name()}
	if f.GradLogReference != nil {
		if err := checkGradients(&m.f); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// checkFuncs checks that f and ex make a model.
func checkFuncs(f *Funcs, ex Explorer) error {
	switch {
	case f.Dim < 1:
		return fmt.Errorf("models: Funcs.Dim must be at least 1, got %d", f.Dim)
	case f.LogReference == nil:
		return errors.New("models: Funcs.LogReference is nil")
	case f.LogTarget == nil:
		return errors.New("models: Funcs.LogTarget is nil")
	case f.SampleReference == nil:
		return errors.New("models: Funcs.SampleReference is nil")
	case f.Names != nil && len(f.Names) != f.Dim:
		return fmt.Errorf("models: Funcs.Names has %d names for %d coordinates", len(f.Names), f.Dim)
	case (f.GradLogReference == nil) != (f.GradLogTarget == nil):
		return errors.New("models: Funcs needs both GradLogReference and GradLogTarget, or neither")
	case ex == nil:
		return errors.New("models: no explorer")
	}
	if g, ok := ex.(GradientExplorer); ok && g.NeedsGradient() && f.GradLogReference == nil {
		return fmt.Errorf("models: explorer %s needs gradients: Funcs.GradLogReference and GradLogTarget are nil", ex.Name())
	}
	return nil
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

// newRecords returns one chain record per row, each with a fresh
// explorer state.
func (m *funcsModel) newRecords(rows int) []chainRecord {
	recs := make([]chainRecord, rows)
	for n := range recs {
		recs[n].state = m.ex.NewState(m.f.Dim)
	}
	return recs
}

// newTarget returns a Target of replicate r for the model's functions.
func (m *funcsModel) newTarget(r int) *Target {
	return &Target{f: &m.f, replicate: r, g1: make([]float64, m.f.Dim)}
}

// NewBlock allocates spec.Rows states for every lane, and the explorer's
// state at every chain of every lane.
func (m *funcsModel) NewBlock(spec BlockSpec) Block {
	b := &funcsBlock{
		m:     m,
		rows:  spec.Rows,
		real:  realLanes(spec),
		x:     layout.Float64s(spec.Rows * m.f.Dim * layout.Lanes),
		w:     make([][2]float64, spec.Rows*layout.Lanes),
		state: make([]float64, m.f.Dim),
	}
	for j := range b.recs {
		b.recs[j] = m.newRecords(spec.Rows)
		b.reps[j] = spec.Replicate(j)
		b.targets[j] = m.newTarget(b.reps[j])
	}
	return b
}

// funcsBlock holds rows states × layout.Lanes lanes, coordinate d of row r,
// lane j at layout.Index(r, Dim, d, j), with each state's energies, and
// per lane and chain the explorer's state. Its padding lanes
// (BlockSpec.Padding) call no function: their states stay 0, their
// explorers unused, and their energies are lane 0's (padEnergies).
type funcsBlock struct {
	m       *funcsModel
	rows    int
	reps    [layout.Lanes]int // replicate of lane j (BlockSpec.Replicate)
	real    int               // lanes 0..real-1 hold replicates, the others padding
	scans   int               // scans ended
	x       []float64
	w       [][2]float64 // by row and lane: (W0, W1) of the state
	recs    [layout.Lanes][]chainRecord
	targets [layout.Lanes]*Target
	state   []float64 // one state, gathered
	// lane and rand are lane j's random source during Init and Explore,
	// held here so that handing it to the explorer as a Rand boxes a
	// pointer, not a value (an allocation per move).
	lane [layout.Lanes]kernel.Lane
	rand [layout.Lanes]laneRand
	// second is the first chain of a run's second leg (BlockSpec.
	// SecondLeg), 0 when there is none; a row at a chain ≥ second reads
	// secondF[j] (when not nil) in place of the model's functions
	// (Stabilized).
	second  int32
	secondF [layout.Lanes]*Funcs
}

// funcsAt points lane j's Target at the functions of chain n's leg: when
// the block has a second leg, secondF[j] at chains ≥ second (if set) and
// the model's own functions below; without one it leaves the Target as it
// is (Variational sets it per lane).
func (b *funcsBlock) funcsAt(j int, n int32) *Target {
	t := b.targets[j]
	if b.second > 0 {
		t.f = &b.m.f
		if n >= b.second && b.secondF[j] != nil {
			t.f = b.secondF[j]
		}
	}
	return t
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

// Init draws every row of the real lanes from the reference.
func (b *funcsBlock) Init(rng *kernel.Stream, rows Rows, out Energies) {
	b.check(rows, out)
	for j := 0; j < b.real; j++ {
		r := b.laneRand(rng, j)
		for row := 0; row < b.rows; row++ {
			i := row*layout.Lanes + j
			t := b.funcsAt(j, rows.Chain[i])
			t.chain = int(rows.Chain[i])
			b.w[i] = t.referenceDraw(r, b.state)
			b.store(row, j)
			out.W0[i], out.W1[i] = b.w[i][0], b.w[i][1]
		}
	}
	b.pad(out)
}

// laneRand returns lane j of rng as the explorer's Rand: a pointer to
// the block's own copy, so that neither it nor the Lane inside it is
// boxed anew at every move.
func (b *funcsBlock) laneRand(rng *kernel.Stream, j int) *laneRand {
	b.lane[j] = rng.Lane(j)
	b.rand[j] = laneRand{&b.lane[j]}
	return &b.rand[j]
}

// Explore moves every row of every real lane: lane by lane, rows in order.
func (b *funcsBlock) Explore(rng *kernel.Stream, rows Rows, out Energies) {
	b.check(rows, out)
	for j := 0; j < b.real; j++ {
		r := b.laneRand(rng, j)
		for row := 0; row < b.rows; row++ {
			i := row*layout.Lanes + j
			b.load(row, j)
			n := int(rows.Chain[i])
			b.w[i] = b.m.exploreOne(b.funcsAt(j, rows.Chain[i]), &b.recs[j][n], r, b.state, b.w[i], rows.Eta0[i], rows.Eta1[i], n)
			b.store(row, j)
			out.W0[i], out.W1[i] = b.w[i][0], b.w[i][1]
		}
	}
	b.pad(out)
}

// Observe writes the first len(dst) coordinates of row row, lane lane.
// The row's stride is the model's dimension, whatever len(dst) is: the
// engine asks for the first observable alone for its per-scan summary.
func (b *funcsBlock) Observe(dst []float64, row, lane int) {
	for d := range dst {
		dst[d] = b.x[layout.Index(row, b.m.f.Dim, d, lane)]
	}
}

// pad gives the padding lanes of every row lane 0's energies.
func (b *funcsBlock) pad(out Energies) {
	for r := 0; r < b.rows && b.real < layout.Lanes; r++ {
		padEnergies(r, b.real, out)
	}
}

// EndScan reports every real lane's chains' proposals and adapts their
// explorers.
func (b *funcsBlock) EndScan() {
	b.scans++
	for j := range b.recs[:b.real] {
		b.m.report.add(b.reps[j], b.scans, b.recs[j])
		endScan(b.targets[j], b.m.ex.Name(), b.recs[j])
	}
}

// endScan calls every chain's EndScan behind a guard and resets its
// counts.
func endScan(t *Target, name string, recs []chainRecord) {
	for n := range recs {
		t.chain = n
		func() {
			defer t.guard("explorer " + name)
			recs[n].state.EndScan()
		}()
		recs[n].proposals, recs[n].invalid = 0, 0
	}
}

// exploreOne is one row's move at chain n: an exact reference draw at the
// reference's coefficients (1, 0), the explorer's move otherwise.
func (m *funcsModel) exploreOne(t *Target, rec *chainRecord, r Rand, x []float64, w [2]float64, eta0, eta1 float64, n int) [2]float64 {
	t.chain, t.eta0, t.eta1, t.rec = n, eta0, eta1, rec
	if eta0 == 1 && eta1 == 0 {
		return t.referenceDraw(r, x)
	}
	// The energies through the Target (already on the heap): &w of the
	// argument, handed to the explorer's method, would move w to the heap
	// at every move.
	t.w = w
	t.move(m.moveName, rec.state, r, x, &t.w)
	return t.w
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

// Scalar returns the reference implementation: one replicate (numbered
// 0 in errors), rows in order, with explorer states of its own (each call
// returns fresh ones) and proposals counted apart from the model's.
func (m *funcsModel) Scalar() Scalar {
	return &funcsScalar{m: m, t: m.newTarget(0)}
}

type funcsScalar struct {
	m    *funcsModel
	t    *Target
	recs []chainRecord
	w    [][2]float64
}

func (s *funcsScalar) Init(rng Lane, rows int) ([][]float64, []float64, []float64) {
	states := make([][]float64, rows)
	w0, w1 := make([]float64, rows), make([]float64, rows)
	s.w = make([][2]float64, rows)
	s.recs = s.m.newRecords(rows)
	for r := range states {
		states[r] = make([]float64, s.m.f.Dim)
		s.t.chain = r
		s.w[r] = s.t.referenceDraw(laneRand{rng}, states[r])
		w0[r], w1[r] = s.w[r][0], s.w[r][1]
	}
	return states, w0, w1
}

func (s *funcsScalar) Explore(rng Lane, states [][]float64, eta0, eta1 []float64, chain []int) ([]float64, []float64) {
	w0, w1 := make([]float64, len(states)), make([]float64, len(states))
	for r := range states {
		n := chain[r]
		s.w[r] = s.m.exploreOne(s.t, &s.recs[n], laneRand{rng}, states[r], s.w[r], eta0[r], eta1[r], n)
		w0[r], w1[r] = s.w[r][0], s.w[r][1]
	}
	return w0, w1
}

// EndScan adapts the explorer at every chain.
func (s *funcsScalar) EndScan() { endScan(s.t, s.m.ex.Name(), s.recs) }
