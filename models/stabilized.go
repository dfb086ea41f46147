package models

import "fmt"

// Stabilized returns m with the stabilised variational reference of
// Surjanovic, Syed, Bouchard-Côté and Campbell (Parallel tempering with a
// variational reference, NeurIPS 2022, the stabilized variational PT): a run with two
// legs (batch.Config.VariationalLeg) joined at the target. Rows at the
// chains of the first leg (below BlockSpec.SecondLeg) use the model's own
// functions, so that chain 0 draws exactly from the model's own reference;
// rows at the chains of the second leg use the replicate's fitted Gaussian
// N(m, diag(s²)), so that the last chain draws exactly from it. Before a
// replicate's first fit its Gaussian is the model's own reference, so
// nothing differs from two legs of the fixed reference until then.
//
// The fit is Variational's (moment matching at the end of each of the
// first fitScans scans, frozen with the path under batch.AutoTuning), from
// the states at both target chains. Keeping the fixed reference on a leg
// of its own keeps its guarantees when the Gaussian family cannot fit the
// target (a target with several modes): the first leg still brings fresh
// draws of the model's own reference to the target. log Z keeps its
// meaning log(Z1/Z0) for the model's own W0 and W1 (batch.LogZ is
// estimated along the first leg). A replica that crosses from one leg to
// the other changes reference: the block recomputes its W0 (LegChanger).
// Refusals are Variational's; the engine refuses the model in a run with
// one leg.
func Stabilized(m Model, ex Explorer, fitScans int) (Model, error) {
	return newVariational(m, ex, fitScans, false, true)
}

// StabilizedDense is Stabilized with the dense Gaussian family N(m, Σ) of
// VariationalDense on the second leg.
func StabilizedDense(m Model, ex Explorer, fitScans int) (Model, error) {
	return newVariational(m, ex, fitScans, true, true)
}

// IsStabilized reports whether m is a model of Stabilized or
// StabilizedDense, which needs a run with two legs.
func IsStabilized(m Model) bool {
	switch v := m.(type) {
	case *variationalModel:
		return v.stabilized
	case *denseVariationalModel:
		return v.stabilized
	}
	return false
}

// LegChanger is a Block whose reference differs between the two legs of a
// run (BlockSpec.SecondLeg). The two target chains have the coefficients
// (η0, η1) = (0, 1), so a swap between them is always accepted and moves
// two states across the junction of the legs; the engine then calls
// ChangeLeg(row, lane, chain) for each, with the chain it is now at, and
// keeps the W0 returned: that of the state under the reference of the
// chain's leg. A block that is not a LegChanger has the same W0 on both
// legs.
type LegChanger interface {
	Block
	ChangeLeg(row, lane, chain int) float64
}

// WithStabilized returns Stabilized(m, ex, fitScans) for the family
// DiagonalFamily (or "", the default) and StabilizedDense for
// DenseFamily, ex the model's own explorer if it has one (the funnel) and
// AutoMALA otherwise, as WithVariational chooses for the variational
// reference. A family other than those is refused with ErrUnknownFamily.
func WithStabilized(family string, m Model, fitScans int) (Model, error) {
	if family != "" && family != DiagonalFamily && family != DenseFamily {
		return nil, fmt.Errorf("models: %w: %q", ErrUnknownFamily, family)
	}
	var ex Explorer = AutoMALA{}
	if e, ok := m.(interface{ explorer() Explorer }); ok {
		ex = e.explorer()
	}
	return newVariational(m, ex, fitScans, family == DenseFamily, true)
}
