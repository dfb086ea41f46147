package models

import (
	"fmt"
	"iter"
	"math"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// Kinds of evaluation a move asks of its slot.
const (
	needEnergies  = 1
	needGradients = 2
)

// batchSlot is one row of one lane of a FromBatch block: a Target whose
// functions, instead of computing, hand the state to the block and wait
// (as a coroutine) until the block has evaluated it with every other
// slot's state, and the last result, kept for a repeated state from one
// move to the next (a gradient explorer's move starts with the gradient
// at the state its last accepted move ended at).
type batchSlot struct {
	t     Target
	f     Funcs
	x     []float64 // the row's state while a move runs
	yield func(struct{}) bool
	stop  bool // the block is abandoning the coroutine
	drew  bool // the move has drawn a random number
	done  bool // the move has returned
	need  int  // what the pending request asks for
	c     [2]slotCache
	cur   int // the entry of c last used
}

// slotCache is one evaluated state: two are kept, so that a move starts
// from a cached state whether the last move was accepted (its proposal's
// entry) or rejected (its start's).
type slotCache struct {
	key    []float64 // the state
	have   int       // what is evaluated: needEnergies or needGradients
	w      [2]float64
	g0, g1 []float64
}

// errStopped ends a coroutine that its block abandons.
var errStopped = fmt.Errorf("models: batch move abandoned")

// newSlot returns the slot of replicate rep, with functions that ask the
// block for the values of b.
func newSlot(b *Batch, rep int) *batchSlot {
	s := &batchSlot{x: make([]float64, b.Dim)}
	for k := range s.c {
		s.c[k].key = make([]float64, b.Dim)
		if b.Gradients != nil {
			s.c[k].g0, s.c[k].g1 = make([]float64, b.Dim), make([]float64, b.Dim)
		}
	}
	s.f = Funcs{Dim: b.Dim, SampleReference: b.SampleReference}
	s.f.LogReference = func(x []float64) float64 { return s.request(x, needEnergies).w[0] }
	s.f.LogTarget = func(x []float64) float64 { return s.request(x, needEnergies).w[1] }
	if b.Gradients != nil {
		s.f.GradLogReference = func(x, g []float64) { copy(g, s.request(x, needGradients).g0) }
		s.f.GradLogTarget = func(x, g []float64) { copy(g, s.request(x, needGradients).g1) }
	}
	s.t = Target{f: &s.f, replicate: rep, g1: make([]float64, b.Dim)}
	return s
}

// request returns the cache entry of x: at once when the cache holds what
// is asked at x (the functions are deterministic), and otherwise after
// yielding to the block, which evaluates x into the older entry and
// resumes the coroutine.
func (s *batchSlot) request(x []float64, need int) *slotCache {
	for _, k := range [2]int{s.cur, 1 - s.cur} {
		if c := &s.c[k]; c.have >= need && sameBits(c.key, x) {
			s.cur = k
			return c
		}
	}
	s.cur = 1 - s.cur
	c := &s.c[s.cur]
	copy(c.key, x)
	s.need, c.have = need, 0
	if !s.yield(struct{}{}) {
		panic(errStopped)
	}
	return c
}

// sameBits reports whether a and b hold the same bits.
func sameBits(a, b []float64) bool {
	for i, v := range a {
		if math.Float64bits(v) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// batchBlock is a FromFuncs block whose moves run as coroutines, one per
// row and real lane (none for padding lanes, see funcsBlock), evaluated
// together.
type batchBlock struct {
	*funcsBlock
	b          *Batch
	slots      []*batchSlot // lane-major: lane j, row r at j*rows+r
	bx, bw, bg []float64    // one call's states, energies and gradients
}

func newBatchBlock(m *batchModel, fb *funcsBlock) *batchBlock {
	bb := &batchBlock{funcsBlock: fb, b: &m.b}
	for j := 0; j < fb.real; j++ {
		for r := 0; r < fb.rows; r++ {
			bb.slots = append(bb.slots, newSlot(&m.b, fb.reps[j]))
		}
	}
	return bb
}

// Init draws every row from the reference, the energies of all in one
// call.
func (b *batchBlock) Init(rng *kernel.Stream, rows Rows, out Energies) {
	b.check(rows, out)
	b.run(rng, func(s *batchSlot, r Rand, i int) {
		s.t.chain = int(rows.Chain[i])
		b.w[i] = s.t.referenceDraw(r, s.x)
	})
	b.finish(out)
}

// Explore moves every row of every lane, the moves side by side.
func (b *batchBlock) Explore(rng *kernel.Stream, rows Rows, out Energies) {
	b.check(rows, out)
	b.run(rng, func(s *batchSlot, r Rand, i int) {
		n := int(rows.Chain[i])
		j := i % layout.Lanes
		b.w[i] = b.m.exploreOne(&s.t, &b.recs[j][n], r, s.x, b.w[i], rows.Eta0[i], rows.Eta1[i], n)
	})
	b.finish(out)
}

// awaitTurn yields, asking for nothing, until every slot before slot k in
// its lane has drawn or finished.
func (b *batchBlock) awaitTurn(s *batchSlot, k int) {
	for first := k - k%b.rows; ; {
		ready := true
		for _, e := range b.slots[first:k] {
			ready = ready && (e.drew || e.done)
		}
		if ready {
			return
		}
		s.need = 0
		if !s.yield(struct{}{}) {
			panic(errStopped)
		}
	}
}

// slotRand is a lane's Rand as slot k sees it: the lane's numbers, the
// first of a move's taken once every slot before it in the lane has drawn
// or finished (awaitTurn). A move that draws all its numbers at once (a
// reference draw, RandomWalk, MALA, HMC) then draws them after the rows
// before it, as FromFuncs' moves, one row after another, do, whichever
// evaluation it has reached (a cached gradient lets a move draw a round
// early).
type slotRand struct {
	r Rand
	b *batchBlock
	s *batchSlot
	k int
}

func (r slotRand) turn() {
	if !r.s.drew {
		r.b.awaitTurn(r.s, r.k)
		r.s.drew = true
	}
}

func (r slotRand) Uniform() float64 { r.turn(); return r.r.Uniform() }
func (r slotRand) Normal() float64  { r.turn(); return r.r.Normal() }

// finish stores every slot's state and writes the energies.
func (b *batchBlock) finish(out Energies) {
	for k, s := range b.slots {
		j, row := k/b.rows, k%b.rows
		copy(b.state, s.x)
		b.store(row, j)
		i := row*layout.Lanes + j
		out.W0[i], out.W1[i] = b.w[i][0], b.w[i][1]
	}
	b.pad(out)
}

// run runs body for every row and lane as a coroutine, with the lane's
// random numbers, evaluating their requests together until all are done.
// Within a lane, coroutines run in row order in every round, so that a
// lane's draws come in row order when every move draws in one round.
func (b *batchBlock) run(rng *kernel.Stream, body func(s *batchSlot, r Rand, i int)) {
	nexts := make([]func() (struct{}, bool), len(b.slots))
	stops := make([]func(), len(b.slots))
	defer func() {
		for k, stop := range stops {
			if stop != nil {
				b.slots[k].stop = true
				stop()
			}
		}
	}()
	for k, s := range b.slots {
		j, row := k/b.rows, k%b.rows
		b.load(row, j)
		copy(s.x, b.state)
		s.stop, s.drew, s.done = false, false, false // the cache stays: the functions are deterministic
		r, i := slotRand{laneRand{rng.Lane(j)}, b, s, k}, row*layout.Lanes+j
		nexts[k], stops[k] = iter.Pull(iter.Seq[struct{}](func(yield func(struct{}) bool) {
			defer func() {
				if s.stop {
					recover()
				}
			}()
			s.yield = yield
			body(s, r, i)
			s.done = true
		}))
	}
	active := make([]int, len(b.slots))
	for k := range active {
		active[k] = k
	}
	for len(active) > 0 {
		keep := active[:0]
		for _, k := range active {
			if _, ok := nexts[k](); ok {
				keep = append(keep, k)
			}
		}
		active = keep
		b.evaluate(active, needEnergies)
		b.evaluate(active, needGradients)
	}
}
