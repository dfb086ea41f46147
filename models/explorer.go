package models

import (
	"errors"
	"math"

	"github.com/ptbatch/ptbatch/kernel"
)

// Explorer is a local exploration move for the models of FromFuncs: one
// move of a state under an annealed density exp(η0·W0 + η1·W1). Users may
// implement it: FromFuncs asks NewState for one ExplorerState per
// replicate and chain (the chain, not the memory slot: replicas move
// between chains, and the state a chain has adapted stays with the chain).
// RandomWalk, SliceSampler, MALA, AutoMALA and HMC are the explorers
// ptbatch offers; examples/explorer shows one written against this
// interface alone.
//
// An Explorer value is a configuration: it must not change after it is
// given to FromFuncs, and a checkpoint is restored only into a run whose
// explorer has the same Name and the same settings (see Described).
type Explorer interface {
	// Name names the explorer ("random-walk", "slice", …).
	Name() string
	// NewState returns the state of the explorer at one chain of one
	// replicate, for states of dim coordinates.
	NewState(dim int) ExplorerState
}

// ExplorerState is an explorer's state at one chain of one replicate: its
// settings, what it adapts, and any scratch it needs.
//
// Move must draw its randomness from rng alone and must not keep x, w or t
// after it returns. Its state must be saved whole by MarshalBinary and
// restored by UnmarshalBinary (called on a state fresh from NewState), so
// that a run resumed from a checkpoint continues bit for bit; scratch that
// every Move overwrites before reading need not be saved.
type ExplorerState interface {
	// Move moves x in place under t's density. On entry w holds
	// (W0(x), W1(x)); on return it must hold those of the new x, as
	// t.Energies returned them.
	Move(t *Target, rng Rand, x []float64, w *[2]float64)
	// EndScan is called at the end of every scan, for adaptation from the
	// scan's moves (a step size, a preconditioner).
	EndScan()
	// MarshalBinary returns the state for a checkpoint.
	MarshalBinary() ([]byte, error)
	// UnmarshalBinary restores a state saved by MarshalBinary.
	UnmarshalBinary(data []byte) error
}

// GradientExplorer is an Explorer that needs the gradient of the log
// density: FromFuncs refuses it for Funcs without GradLogReference and
// GradLogTarget.
type GradientExplorer interface {
	Explorer
	// NeedsGradient reports whether Move calls Target.GradLogDensity.
	NeedsGradient() bool
}

// Target is the annealed density π(x) ∝ exp(η0·W0(x) + η1·W1(x)) of one
// chain of one replicate, as an explorer's Move sees it. Every call of a
// user function goes through it: a panic in one becomes a *CallError
// naming the function, the replicate and the chain, and +Inf from a
// density is such an error too. NaN or −Inf at a proposal is a rejection
// (LogDensity returns −Inf), counted in the model's ProposalReport.
type Target struct {
	f          *Funcs
	eta0, eta1 float64
	replicate  int
	chain      int
	rec        *chainRecord
	g1         []float64 // scratch for ∇W1
	// w holds the energies of the state being moved during a move
	// (funcsModel.exploreOne).
	w [2]float64
}

// Dim returns the number of coordinates of a state.
func (t *Target) Dim() int { return t.f.Dim }

// Eta returns the coefficients (η0, η1) of the annealed density.
func (t *Target) Eta() (eta0, eta1 float64) { return t.eta0, t.eta1 }

// Replicate returns the replicate the move is for.
func (t *Target) Replicate() int { return t.replicate }

// Chain returns the chain the move is for (0 is the reference).
func (t *Target) Chain() int { return t.chain }

// Energies returns (W0(x), W1(x)) at a proposal x and counts it; a
// proposal whose annealed log density is NaN or −Inf is counted as
// invalid. +Inf from either density, or a panic, is a *CallError.
func (t *Target) Energies(x []float64) [2]float64 {
	w := [2]float64{t.call0(x), t.call1(x)}
	t.rec.proposals++
	if math.IsInf(t.LogDensity(w), -1) {
		t.rec.invalid++
	}
	return w
}

// LogDensity returns η0·W0 + η1·W1 for energies w, with a zero
// coefficient's term left out (so that 0·(−∞) is not NaN), and −∞ for NaN.
func (t *Target) LogDensity(w [2]float64) float64 { return annealed(w, t.eta0, t.eta1) }

// HasGradient reports whether the model has gradients (Funcs'
// GradLogReference and GradLogTarget).
func (t *Target) HasGradient() bool { return t.f.GradLogReference != nil }

// GradLogDensity writes ∇(η0·W0 + η1·W1)(x) = η0·∇W0(x) + η1·∇W1(x) to
// grad (a zero coefficient's term left out). It panics if the model has
// no gradients (a programmer error: FromFuncs refuses a GradientExplorer
// without them).
func (t *Target) GradLogDensity(x, grad []float64) {
	if !t.HasGradient() {
		panic("models: GradLogDensity of a model without gradients")
	}
	clear(grad)
	if t.eta0 != 0 {
		t.grad(&t.f.GradLogReference, "GradLogReference", x, grad)
		for d := range grad {
			grad[d] *= t.eta0
		}
	}
	if t.eta1 != 0 {
		t.grad(&t.f.GradLogTarget, "GradLogTarget", x, t.g1)
		for d, g := range t.g1 {
			grad[d] += t.eta1 * g
		}
	}
}

// chainRecord is what FromFuncs keeps per replicate and chain: the
// explorer's state and the open scan's counts of proposals.
type chainRecord struct {
	state              ExplorerState
	proposals, invalid int
}

// NewTarget returns the annealed density exp(η0·W0 + η1·W1) of f alone,
// outside any run (replicate 0, chain 0), for testing an explorer's Move
// directly; its proposals are counted apart from any model's. f needs
// Dim, LogReference and LogTarget, and both gradients or neither.
func NewTarget(f Funcs, eta0, eta1 float64) (*Target, error) {
	switch {
	case f.Dim < 1 || f.LogReference == nil || f.LogTarget == nil:
		return nil, errors.New("models: NewTarget needs Dim ≥ 1, LogReference and LogTarget")
	case (f.GradLogReference == nil) != (f.GradLogTarget == nil):
		return nil, errors.New("models: NewTarget needs both gradients or neither")
	}
	return &Target{f: &f, eta0: eta0, eta1: eta1, rec: new(chainRecord), g1: make([]float64, f.Dim)}, nil
}

// NewRand returns the random number source of lane 0 of the stream of
// (seed, stream), as a run's replicate sees its own: for testing an
// explorer's Move directly.
func NewRand(seed uint64, stream int) Rand { return laneRand{kernel.NewStream(seed, stream).Lane(0)} }
