package models

import (
	"errors"
	"strings"
)

// Batch is a model given by functions over a block of states at once: what
// a user writes to evaluate every state of a block in one call, with a
// matrix product (BLAS) or vector kernels, instead of one state at a time
// as in Funcs. FromBatch turns it into a batched Model.
//
// Layout: the n states of a call are the columns of a Dim×n row-major
// matrix x, coordinate d of state i at x[d*n+i]; gradients use the same
// layout. A state's results must depend on that state alone, not on n nor
// on the other states of the call (the states of a call change with the
// number of replicates and workers): element-wise and column-wise
// operations in a fixed order, such as gonum's Dgemm with the states as
// the columns of its right operand, keep this.
type Batch struct {
	// Dim is the number of coordinates of a state.
	Dim int
	// Energies writes W0 (the log reference density) and W1 (the log
	// target density), each up to a constant, of the n states of x to
	// w0[i] and w1[i].
	Energies func(x []float64, n int, w0, w1 []float64)
	// Gradients, if not nil, writes what Energies does and the gradients
	// ∇W0 and ∇W1 of every state to g0 and g1 (Dim×n, as x): what the
	// gradient explorers (MALA, AutoMALA, HMC) need. FromBatch checks
	// them against finite differences, as FromFuncs does.
	Gradients func(x []float64, n int, w0, w1, g0, g1 []float64)
	// SampleReference overwrites the state x (Dim coordinates) with an
	// exact draw from the reference exp(W0), using only rng: reference
	// draws are cheap and are made one at a time.
	SampleReference func(rng Rand, x []float64)
	// Names, if not nil, names the Dim coordinates; the default is
	// "x0", "x1", ….
	Names []string
}

// batchModel is the Model of FromBatch: a FromFuncs model of the same
// functions taken one state at a time (for its checks, its scalar
// reference and its explorer states), whose blocks evaluate states in
// batches.
type batchModel struct {
	*funcsModel
	b Batch
}

// FromBatch returns the batched model of b explored by ex. Every row of
// every lane runs ex's move on its own state with its lane's random
// numbers, as FromFuncs does, but the moves of a block run side by side as
// coroutines: each time they need energies or gradients, the states of all
// of them are evaluated in one call of b.Energies or b.Gradients, and the
// last two results of each are kept for a repeated state (a gradient
// explorer's move starts where the last one ended, accepted or not), so
// the functions must be deterministic. Its draws are those of FromFuncs with the same
// functions whenever each move draws all its random numbers at once, with
// no evaluation between them (reference draws, and RandomWalk, MALA and
// HMC with one move per exploration); the draws of other explorers
// (SliceSampler, AutoMALA) come from the same streams in another order. Results do not depend on the number of replicates or workers,
// nor on the kernel implementation. Errors in user code end the run with a
// *CallError, as in FromFuncs.
func FromBatch(b Batch, ex Explorer) (Model, error) {
	switch {
	case b.Energies == nil:
		return nil, errors.New("models: Batch.Energies is nil")
	case b.SampleReference == nil:
		return nil, errors.New("models: Batch.SampleReference is nil")
	}
	m, err := FromFuncs(b.oneAtATime(), ex)
	if err != nil {
		return nil, err
	}
	return &batchModel{funcsModel: m.(*funcsModel), b: b}, nil
}

// oneAtATime returns b's functions for one state at a time (n = 1).
func (b Batch) oneAtATime() Funcs {
	f := Funcs{Dim: b.Dim, SampleReference: b.SampleReference, Names: b.Names}
	f.LogReference = func(x []float64) float64 {
		w := make([]float64, 2)
		b.Energies(x, 1, w[:1], w[1:])
		return w[0]
	}
	f.LogTarget = func(x []float64) float64 {
		w := make([]float64, 2)
		b.Energies(x, 1, w[:1], w[1:])
		return w[1]
	}
	if b.Gradients != nil {
		f.GradLogReference = func(x, grad []float64) {
			w, g := make([]float64, 2), make([]float64, len(grad))
			b.Gradients(x, 1, w[:1], w[1:], grad, g)
		}
		f.GradLogTarget = func(x, grad []float64) {
			w, g := make([]float64, 2), make([]float64, len(grad))
			b.Gradients(x, 1, w[:1], w[1:], g, grad)
		}
	}
	return f
}

// Name returns "batch/" and the explorer's name.
func (m *batchModel) Name() string { return "batch/" + m.ex.Name() }

// Description returns "batch dim=… names=… explorer=…", and "gradients"
// when the model has them; like FromFuncs', it cannot describe the
// functions themselves.
func (m *batchModel) Description() string {
	return "batch" + strings.TrimPrefix(m.funcsModel.Description(), "funcs")
}

// NewBlock allocates the block of FromFuncs and one coroutine slot per row
// and lane.
func (m *batchModel) NewBlock(spec BlockSpec) Block {
	return newBatchBlock(m, m.funcsModel.NewBlock(spec).(*funcsBlock))
}

var _ Described = (*batchModel)(nil)
