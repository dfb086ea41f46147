package models

import (
	"github.com/ptbatch/ptbatch/kernel"
)

// Model is a batched target for parallel tempering.
type Model interface {
	// Name is the model's name on the command line.
	Name() string
	// Independent reports whether Explore draws exact independent samples
	// of the annealed density, ignoring the current state. The engine then
	// explores rows in chain order and never moves states.
	Independent() bool
	// NewBlock allocates the states of rows replicas for one block of
	// layout.Lanes replicates.
	NewBlock(rows int) Block
	// Scalar returns the model's plain scalar reference implementation.
	Scalar() Scalar
}

// Energies are the per-row outputs of a move, each rows×layout.Lanes,
// row-major: W0 and W1 of the new state, and its first coordinate (the
// quantity whose moments the engine reports).
type Energies struct {
	W0, W1, First []float64
}

// Block holds the states of one block: rows replicas × layout.Lanes
// replicates.
type Block interface {
	// Init sets every row to its initial state and writes its energies.
	Init(rng *kernel.Stream, out Energies)
	// Explore applies one local-exploration move to every row r, lane j,
	// targeting exp(eta0[r*L+j]·W0 + eta1[r*L+j]·W1), and writes the
	// energies of the new states. A row whose coefficients give no proper
	// density gets NaN energies, which the engine treats as a rejection.
	Explore(rng *kernel.Stream, eta0, eta1 []float64, out Energies)
}

// Lane is the random number source of one replicate seen alone: the scalar
// counterpart of a lane of kernel.Stream, drawing the same numbers in the
// same order.
type Lane interface {
	// Uniform returns the next uniform draw on (0, 1).
	Uniform() float64
}

// Scalar is the one-replicate reference implementation of a model, written
// as plainly as possible. For every rng it must consume the lane's numbers
// exactly as the batched Block does, so that the two agree draw for draw.
type Scalar interface {
	// Init returns the initial states of rows replicas and their energies.
	Init(rng Lane, rows int) (states [][]float64, w0, w1 []float64)
	// Explore moves every row's state under its coefficients (eta0[r],
	// eta1[r]) and returns the new energies.
	Explore(rng Lane, states [][]float64, eta0, eta1 []float64) (w0, w1 []float64)
}
