package models

import (
	"strconv"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// Model is a batched target for parallel tempering: what sampling needs and
// nothing else. A model gives a reference log density W0 and a target log
// density W1 (both unnormalised) and, through its blocks, a local
// exploration move for every annealed density exp(η0·W0 + η1·W1).
//
// Optional interfaces add what some uses need: Exact (a move that draws
// independent exact samples, which the engine can run faster), Named (a
// name for the command line) and Referenced (a scalar reference
// implementation for tests).
type Model interface {
	// Observables names the quantities of a state that the engine reports
	// and records as samples, in the order Block.Observe writes them; for
	// most models these are the coordinates "x0", "x1", ….
	Observables() []string
	// NewBlock allocates the states of one block: spec.Rows rows ×
	// layout.Lanes replicates, lane j holding replicate
	// spec.FirstReplicate+j. The engine calls NewBlock from several
	// goroutines at once (each worker allocates its own blocks, so that
	// their memory is local to its CPU): it must not modify the model.
	NewBlock(spec BlockSpec) Block
}

// BlockSpec tells a block where it sits in a run.
type BlockSpec struct {
	// FirstReplicate is the replicate of lane 0; lane j holds replicate
	// FirstReplicate+j. Replicates past the run's last are padding: they are
	// never reported, and a block may skip them (Padding).
	FirstReplicate int
	// Rows is the number of rows, one per chain.
	Rows int
	// Padding is the number of the block's last lanes whose replicates
	// are past the run's last (0 to layout.Lanes-1; 0: none). Nobody reads
	// their results, so a block may skip their work, provided it keeps
	// their energies finite or NaN and draws the other lanes' numbers as
	// without it; the real lanes' results must not change.
	Padding int
	// SecondLeg is the first chain of the run's second leg (the
	// stabilised two-leg PT of batch.Config.VariationalLeg), 0 when the
	// run has one leg: chains 0 … SecondLeg−1 run from the model's own
	// reference (chain 0) to the target (chain SecondLeg−1), chains
	// SecondLeg … Rows−1 from a second target chain (SecondLeg) to a
	// second reference (chain Rows−1), so that a block may pick each
	// row's reference from Rows.Chain. A model with one reference ignores
	// it.
	SecondLeg int
	// LaneReplicates, when not nil, gives the replicate of every lane in
	// place of FirstReplicate+j: a block that packs replicates of several
	// runs (batch.RunPacked) holds replicates that are not consecutive.
	LaneReplicates *[layout.Lanes]int
}

// Replicate returns the replicate of lane j: LaneReplicates[j], or
// FirstReplicate+j.
func (s BlockSpec) Replicate(j int) int {
	if s.LaneReplicates != nil {
		return s.LaneReplicates[j]
	}
	return s.FirstReplicate + j
}

// realLanes returns the number of lanes of a block of spec that hold
// replicates of the run: layout.Lanes less spec.Padding, at least 1.
func realLanes(spec BlockSpec) int {
	return min(max(layout.Lanes-spec.Padding, 1), layout.Lanes)
}

// padEnergies gives the padding lanes real..layout.Lanes-1 of row r the
// energies of lane 0 (a replicate's, finite or NaN as the engine expects),
// for a block that skips their moves.
func padEnergies(r, real int, out Energies) {
	q := r * layout.Lanes
	for j := real; j < layout.Lanes; j++ {
		out.W0[q+j], out.W1[q+j] = out.W0[q], out.W1[q]
	}
}

// Rows are the inputs of a move for every row r and lane j, each
// rows×layout.Lanes, row-major (row r, lane j at r*layout.Lanes+j).
//
// A row is a memory slot that holds one replica's state. Unless the model
// is Exact, states stay in their slots and swaps move the chains instead:
// the chain a slot sits at, and with it its coefficients, changes from one
// call to the next. Chain says which chain each row is at now, so that a
// move can keep per-chain settings (a step size adapted per chain, say).
type Rows struct {
	// Eta0 and Eta1 are the coefficients η0, η1 of the annealed density
	// exp(η0·W0 + η1·W1) each row targets.
	Eta0, Eta1 []float64
	// Chain is the chain index (0 = reference, numChains-1 = target) of
	// each row.
	Chain []int32
	// Epoch, when not zero, names the values of Eta0 and Eta1: two calls
	// with the same non-zero Epoch pass the same coefficients, so a block
	// may reuse what it computed from them without comparing them. Zero
	// promises nothing. (The engine's coefficients change once a scan.)
	Epoch uint64
}

// Energies are the per-row outputs of a move, each rows×layout.Lanes,
// row-major: W0 and W1 of the new state.
type Energies struct {
	W0, W1 []float64
}

// Block holds the states of one block: rows replicas × layout.Lanes
// replicates.
type Block interface {
	// Init sets every row to its initial state and writes its energies.
	Init(rng *kernel.Stream, rows Rows, out Energies)
	// Explore applies one local-exploration move to every row r, lane j,
	// targeting exp(Eta0[r*L+j]·W0 + Eta1[r*L+j]·W1), and writes the
	// energies of the new states. A row whose coefficients give no proper
	// density gets NaN energies, which the engine treats as a rejection.
	Explore(rng *kernel.Stream, rows Rows, out Energies)
	// Observe writes the first len(dst) observables of the state in row
	// row, lane lane to dst (len(dst) ≤ len(Model.Observables()): the
	// engine's own statistics ask for the first alone). The engine calls it
	// between moves, only for rows that hold a target-chain state; an
	// Exact model is asked only about its last two rows (the target chain's
	// and the one a swap may bring from).
	Observe(dst []float64, row, lane int)
}

// ScanEnder is a Block that adapts between scans (for example a
// random-walk step size per chain): the engine calls EndScan on every block
// after each scan, before the schedule and path are retuned.
type ScanEnder interface {
	EndScan()
}

// BlockState is a Block whose state can be saved in a checkpoint and
// restored in another process: MarshalBinary returns everything later
// moves and observations depend on (the states, their cached energies and
// coefficients, adapted settings), and UnmarshalBinary, called on a block
// that the same model's NewBlock made with the same BlockSpec and then
// Init, sets it to the saved state, so that the block continues exactly as
// the saved one would have. Scratch that every move overwrites before
// reading need not be saved. UnmarshalBinary returns an error for data of
// another model or shape. Every built-in model's blocks implement it; a
// block that does not makes a checkpoint fail with an error, never save
// part of the state.
type BlockState interface {
	Block
	MarshalBinary() ([]byte, error)
	UnmarshalBinary(data []byte) error
}

// Described is a Model that describes itself for a checkpoint's
// fingerprint: Description returns a canonical text naming the model and
// every parameter its draws depend on (numbers in their shortest exact
// form), so that two models with the same description give the same runs.
// A checkpoint is restored only into a run whose model has the same
// description; a model that is not Described is identified by its type,
// its name and its observables alone.
type Described interface {
	Model
	Description() string
}

// Exact is a Model whose moves draw exact independent samples of the
// annealed density, ignoring the current state. The engine then explores
// rows in chain order (row n always at chain n) and never moves states,
// which saves the gather and scatter of the slot path.
//
// A model whose move depends on the current state must not implement Exact
// (or must return false): the engine would then pair states with the wrong
// chains after every swap, and runs would look healthy while sampling the
// wrong distribution. When in doubt, leave it out: the slot path is correct
// for every model.
type Exact interface {
	Model
	// ExactDraws reports whether Explore draws exact independent samples.
	ExactDraws() bool
}

// IsExact reports whether m implements Exact and says its draws are exact.
func IsExact(m Model) bool {
	e, ok := m.(Exact)
	return ok && e.ExactDraws()
}

// Named is a Model with a name on the command line.
type Named interface {
	Model
	Name() string
}

// Referenced is a Model with a plain scalar reference implementation, which
// tests use as an oracle.
type Referenced interface {
	Model
	Scalar() Scalar
}

// Lane is the random number source of one replicate seen alone: the scalar
// counterpart of a lane of kernel.Stream, drawing the same numbers in the
// same order.
type Lane interface {
	// Uniform returns the next uniform draw on (0, 1] (exactly 1 with
	// probability 2⁻⁵³, see asm.UnitOpen).
	Uniform() float64
}

// Scalar is the one-replicate reference implementation of a model, written
// as plainly as possible; a Scalar that adapts between scans implements
// ScanEnder too. For every rng it must consume the lane's numbers
// exactly as the batched Block does, so that the two agree draw for draw.
type Scalar interface {
	// Init returns the initial states of rows replicas and their energies.
	Init(rng Lane, rows int) (states [][]float64, w0, w1 []float64)
	// Explore moves every row's state under its coefficients (eta0[r],
	// eta1[r]) at chain chain[r] and returns the new energies.
	Explore(rng Lane, states [][]float64, eta0, eta1 []float64, chain []int) (w0, w1 []float64)
}

// Coordinates returns the observable names "x0", …, "x{dim-1}".
func Coordinates(dim int) []string {
	names := make([]string, dim)
	for d := range names {
		names[d] = "x" + strconv.Itoa(d)
	}
	return names
}
