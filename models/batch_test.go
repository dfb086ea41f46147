package models

import (
	"math"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// batchCenter and batchPrec define the test target of the batch tests,
// W1(x) = −Σ_d prec_d (x_d − center_d)²/2 − x_0⁴/8, a skewed
// non-Gaussian density (the quartic term), with reference W0 = −|x|²/2;
// the numbers are arbitrary, chosen to make every coordinate differ.
var (
	batchCenter = []float64{1, -0.5, 2}
	batchPrec   = []float64{4, 0.5, 9}
)

// testW evaluates the test target at one state's coordinates, read
// through at: the same operations in the same order for the scalar and
// the batched form, so that their results agree bit for bit.
func testW(at func(d int) float64, g0, g1 func(d int, v float64)) (w0, w1 float64) {
	for d, c := range batchCenter {
		x := at(d)
		w0 -= x * x / 2
		w1 -= batchPrec[d] * (x - c) * (x - c) / 2
		if g0 != nil {
			g0(d, -x)
			g1(d, -batchPrec[d]*(x-c))
		}
	}
	x0 := at(0)
	w1 -= x0 * x0 * x0 * x0 / 8
	if g1 != nil {
		g1(0, -batchPrec[0]*(x0-batchCenter[0])-x0*x0*x0/2)
	}
	return w0, w1
}

func testSample(r Rand, x []float64) {
	for d := range x {
		x[d] = r.Normal()
	}
}

// testFuncs is the test target one state at a time.
func testFuncs() Funcs {
	return Funcs{
		Dim:             len(batchCenter),
		LogReference:    func(x []float64) float64 { w0, _ := testW(func(d int) float64 { return x[d] }, nil, nil); return w0 },
		LogTarget:       func(x []float64) float64 { _, w1 := testW(func(d int) float64 { return x[d] }, nil, nil); return w1 },
		SampleReference: testSample,
		GradLogReference: func(x, g []float64) {
			testW(func(d int) float64 { return x[d] }, func(d int, v float64) { g[d] = v }, func(int, float64) {})
		},
		GradLogTarget: func(x, g []float64) {
			testW(func(d int) float64 { return x[d] }, func(int, float64) {}, func(d int, v float64) { g[d] = v })
		},
	}
}

// testBatch is the same target over blocks of states (state i in column i).
func testBatch() Batch {
	return Batch{
		Dim: len(batchCenter),
		Energies: func(x []float64, n int, w0, w1 []float64) {
			for i := 0; i < n; i++ {
				w0[i], w1[i] = testW(func(d int) float64 { return x[d*n+i] }, nil, nil)
			}
		},
		Gradients: func(x []float64, n int, w0, w1, g0, g1 []float64) {
			for i := 0; i < n; i++ {
				w0[i], w1[i] = testW(func(d int) float64 { return x[d*n+i] },
					func(d int, v float64) { g0[d*n+i] = v }, func(d int, v float64) { g1[d*n+i] = v })
			}
		},
		SampleReference: testSample,
	}
}

// shuffledRows returns coefficients on the linear path with the chains
// rotated by k among the rows (as swaps move them), lane j's rotation
// shifted by j, so that a move given the wrong chain's state or
// coefficients changes the draws.
func shuffledRows(rows, k int) Rows {
	n := rows * layout.Lanes
	r := Rows{Eta0: make([]float64, n), Eta1: make([]float64, n), Chain: make([]int32, n)}
	for i := range r.Chain {
		c := (i/layout.Lanes + k + i%layout.Lanes) % rows
		t := float64(c) / float64(rows-1)
		r.Chain[i], r.Eta0[i], r.Eta1[i] = int32(c), 1-t, t
	}
	return r
}

func sameBitsAll(x, y []float64) bool {
	return slices.EqualFunc(x, y, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
}

// TestBatchMatchesFuncsDrawForDraw runs the same target through FromFuncs
// and through FromBatch with the same explorer and stream, over Init and
// moves with chains moving between rows and an end of scan (adaptation),
// and checks every energy and every coordinate bit for bit, for the
// explorers whose moves draw all their numbers between two evaluations.
func TestBatchMatchesFuncsDrawForDraw(t *testing.T) {
	const rows = 5
	n := rows * layout.Lanes
	for _, ex := range []Explorer{RandomWalk{Step: 0.7}, MALA{Step: 0.5}, HMC{Step: 0.2, Leapfrogs: 4}} {
		mf, err := FromFuncs(testFuncs(), ex)
		if err != nil {
			t.Fatal(err)
		}
		mb, err := FromBatch(testBatch(), ex)
		if err != nil {
			t.Fatal(err)
		}
		blocks := []Block{mf.NewBlock(BlockSpec{Rows: rows, FirstReplicate: 16}), mb.NewBlock(BlockSpec{Rows: rows, FirstReplicate: 16})}
		var es [2]Energies
		var rngs [2]*kernel.Stream
		for k := range blocks {
			es[k] = Energies{W0: make([]float64, n), W1: make([]float64, n)}
			rngs[k] = kernel.NewStream(5, 16)
			blocks[k].Init(rngs[k], initRows(rows), es[k])
		}
		for step := range 12 {
			for k, b := range blocks {
				b.Explore(rngs[k], shuffledRows(rows, step), es[k])
				if step%4 == 3 {
					b.(ScanEnder).EndScan()
				}
			}
			if !sameBitsAll(es[0].W0, es[1].W0) || !sameBitsAll(es[0].W1, es[1].W1) {
				t.Fatalf("%s move %d: energies differ: funcs %v, batch %v", ex.Name(), step, es[0].W1[:4], es[1].W1[:4])
			}
			for i := 0; i < n; i++ {
				if a, b := observe(mf, blocks[0], i/layout.Lanes, i%layout.Lanes), observe(mb, blocks[1], i/layout.Lanes, i%layout.Lanes); !sameBitsAll(a, b) {
					t.Fatalf("%s move %d: row %d lane %d: funcs %v, batch %v", ex.Name(), step, i/layout.Lanes, i%layout.Lanes, a, b)
				}
			}
		}
		if acc := mb.(*batchModel); acc.Name() != "batch/"+ex.Name() {
			t.Errorf("name %q", acc.Name())
		}
	}
}

// TestBatchInvariantAcrossLanesAndCheckpoint checks that a replicate's
// draws do not depend on its lane or on the other states of a call (the
// same replicate in lane 0 of one block and lane 3 of another, with
// different companions), and that a block saved and restored mid-run
// continues bit for bit.
func TestBatchInvariantAcrossLanesAndCheckpoint(t *testing.T) {
	const rows = 4
	n := rows * layout.Lanes
	m, err := FromBatch(testBatch(), MALA{Step: 0.4})
	if err != nil {
		t.Fatal(err)
	}
	a, b := m.NewBlock(BlockSpec{Rows: rows, FirstReplicate: 8}), m.NewBlock(BlockSpec{Rows: rows, FirstReplicate: 5})
	ra, rb := kernel.NewStream(3, 8), kernel.NewStream(3, 5)
	ea, eb := Energies{W0: make([]float64, n), W1: make([]float64, n)}, Energies{W0: make([]float64, n), W1: make([]float64, n)}
	a.Init(ra, initRows(rows), ea)
	b.Init(rb, initRows(rows), eb)
	for step := range 6 {
		a.Explore(ra, ladder(rows), ea)
		b.Explore(rb, ladder(rows), eb)
		for r := 0; r < rows; r++ {
			if !sameBitsAll(observe(m, a, r, 0), observe(m, b, r, 3)) {
				t.Fatalf("move %d row %d: replicate 8 differs between lane 0 and lane 3", step, r)
			}
		}
	}
	data, err := a.(BlockState).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	c := m.NewBlock(BlockSpec{Rows: rows, FirstReplicate: 8})
	c.Init(kernel.NewStream(99, 8), initRows(rows), Energies{W0: make([]float64, n), W1: make([]float64, n)})
	if err := c.(BlockState).UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	st, _ := ra.MarshalBinary()
	rc := new(kernel.Stream)
	if err := rc.UnmarshalBinary(st); err != nil {
		t.Fatal(err)
	}
	ec := Energies{W0: make([]float64, n), W1: make([]float64, n)}
	for step := range 3 {
		a.Explore(ra, ladder(rows), ea)
		c.Explore(rc, ladder(rows), ec)
		if !sameBitsAll(ea.W1, ec.W1) || !sameBitsAll(ea.W0, ec.W0) {
			t.Fatalf("move %d after the restore: energies differ", step)
		}
	}
}

// TestBatchUserPanicIsCallError checks that a panic in the user's batch
// function ends the move with a *CallError naming it, and that the block's
// other coroutines are abandoned cleanly (the block moves again after).
func TestBatchUserPanicIsCallError(t *testing.T) {
	bt := testBatch()
	fail := false
	energies := bt.Energies
	bt.Energies = func(x []float64, n int, w0, w1 []float64) {
		if fail {
			panic("boom")
		}
		energies(x, n, w0, w1)
	}
	m, err := FromBatch(bt, RandomWalk{})
	if err != nil {
		t.Fatal(err)
	}
	const rows = 3
	n := rows * layout.Lanes
	blk := m.NewBlock(BlockSpec{Rows: rows})
	rng := kernel.NewStream(1, 0)
	e := Energies{W0: make([]float64, n), W1: make([]float64, n)}
	blk.Init(rng, initRows(rows), e)
	fail = true
	func() {
		defer func() {
			ce, ok := recover().(*CallError)
			if !ok || ce.Func != "Batch.Energies" {
				t.Errorf("panic %v, want a *CallError of Batch.Energies", ce)
			}
		}()
		blk.Explore(rng, ladder(rows), e)
	}()
	fail = false
	blk.Explore(rng, ladder(rows), e)
}
