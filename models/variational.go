package models

import (
	"errors"
	"fmt"
	"math"
)

// Unconstrained is a Model whose state is Dim unconstrained real
// coordinates, given as scalar functions, and whose reference normaliser
// is known: what Variational needs. The Gaussian implements it.
type Unconstrained interface {
	Model
	// Funcs returns the model's scalar functions: W0, W1 (the same as the
	// model's blocks compute, up to rounding), an exact reference draw, and
	// the gradients if the model has them.
	Funcs() Funcs
	// LogZ0 returns log Z0 = log ∫ exp(W0(x)) dx, the log normaliser of
	// the model's own reference.
	LogZ0() float64
}

// ErrNotUnconstrained is Variational's refusal of a model that is not
// Unconstrained: its state is not unconstrained real, or its reference
// normaliser is not known.
var ErrNotUnconstrained = errors.New("the variational reference needs a model whose state is unconstrained real, with a known reference normaliser")

// Variational returns m with the variational reference of Surjanovic,
// Syed, Bouchard-Côté and Campbell (Parallel tempering with a variational
// reference, NeurIPS 2022), in its diagonal Gaussian family, explored by
// ex.
//
// Each replicate starts with the model's own reference. At the end of
// each of the first fitScans scans (the tuning rounds), every replicate
// refits its reference to N(m, diag(s²)), m and s² the mean and variance
// (divisor n−1) of each coordinate of its target chain's states after
// the scan's local explorations (moment matching); a coordinate with too
// few states, or a variance that is not finite and positive, leaves the
// replicate's reference as it was. After scan fitScans the reference is
// frozen, so that the kept scans sample one fixed annealing path; under
// batch.AutoTuning a replicate's reference is frozen earlier, with its
// path and schedule (LaneFreezer). The
// reference chain draws exactly from the fitted Gaussian, and the
// explorers see its W0 and gradient.
//
// log Z keeps its meaning log(Z1/Z0) for the model's own W0 and W1: the
// fitted reference's W0 is the Gaussian's log density plus log Z0
// (Unconstrained.LogZ0), so that it integrates to the model's Z0, and the
// stepping-stone estimate of log(Z1/Z_W0) (batch.LogZ) is log(Z1/Z0)
// whichever reference a scan used. A model that cannot give log Z0 is
// refused with ErrNotUnconstrained.
func Variational(m Model, ex Explorer, fitScans int) (Model, error) {
	return newVariational(m, ex, fitScans, false, false)
}

// newVariational is Variational (dense false) and VariationalDense
// (dense true), or with stabilized Stabilized and StabilizedDense.
func newVariational(m Model, ex Explorer, fitScans int, dense, stabilized bool) (Model, error) {
	u, ok := m.(Unconstrained)
	if !ok {
		return nil, fmt.Errorf("models: %w", ErrNotUnconstrained)
	}
	logZ0 := u.LogZ0()
	if math.IsNaN(logZ0) || math.IsInf(logZ0, 0) {
		return nil, fmt.Errorf("models: %w: log Z0 = %v", ErrNotUnconstrained, logZ0)
	}
	if fitScans < 0 {
		return nil, fmt.Errorf("models: the variational reference's fit scans must be at least 0, got %d", fitScans)
	}
	inner, err := FromFuncs(u.Funcs(), ex)
	if err != nil {
		return nil, err
	}
	family := "diagonal"
	if dense {
		family = "dense"
	}
	kind := "variational"
	if stabilized {
		kind = "stabilized"
	}
	desc := fmt.Sprintf("%s %s fit=%d logz0=%v", kind, family, fitScans, logZ0)
	if d, ok := m.(Described); ok {
		desc += " model=" + d.Description()
	}
	v := &variationalModel{inner: inner.(*funcsModel), logZ0: logZ0, fitScans: fitScans, dense: dense, stabilized: stabilized, desc: desc}
	if dense {
		return &denseVariationalModel{v}, nil
	}
	return v, nil
}

// variationalModel is the Model of Variational and VariationalDense.
type variationalModel struct {
	inner    *funcsModel
	logZ0    float64
	fitScans int
	dense    bool // N(m, Σ) (VariationalDense), not N(m, diag(s²))
	// stabilized keeps the model's own reference on the first leg and
	// puts the fitted one on the second (Stabilized).
	stabilized bool
	desc       string
}

// Observables returns the wrapped model's coordinates.
func (v *variationalModel) Observables() []string { return v.inner.Observables() }

// NumObservables returns Dim.
func (v *variationalModel) NumObservables() int { return v.inner.f.Dim }

// Description names the fit, log Z0, the wrapped model and the explorer.
func (v *variationalModel) Description() string { return v.desc + " " + v.inner.Description() }

// NewBlock allocates the wrapped block and every lane's reference, which
// starts as the model's own.
func (v *variationalModel) NewBlock(spec BlockSpec) Block {
	b := &variationalBlock{v: v, fb: v.inner.NewBlock(spec).(*funcsBlock), second: int32(spec.SecondLeg)}
	if v.stabilized {
		b.fb.second = b.second
	}
	for j := range b.lanes {
		b.lanes[j] = newVariationalLane(v, v.inner.f)
	}
	return b
}

// ErrUnknownReference is WithReference's refusal of a reference name
// other than "fixed" and "variational".
var ErrUnknownReference = errors.New("unknown reference (want fixed or variational)")

// WithReference returns m for the reference "fixed" (the model's own),
// and Variational(m, ex, fitScans) for "variational", ex the model's own
// explorer if it has one (the funnel) and AutoMALA otherwise: the choice
// of ptbatch run's --reference. fitScans is the number of tuning scans,
// Config.Scans − Config.KeepScansInEffect() for a run whose kept scans
// should sample one fixed reference.
func WithReference(name string, m Model, fitScans int) (Model, error) {
	return WithVariational(name, "", m, fitScans)
}

// The Gaussian families of the variational reference, the values of
// ptbatch run's --variational.
const (
	// DiagonalFamily is N(m, diag(s²)), Variational.
	DiagonalFamily = "diag"
	// DenseFamily is N(m, Σ), VariationalDense.
	DenseFamily = "dense"
)

var (
	// ErrUnknownFamily is WithVariational's refusal of a family other
	// than DiagonalFamily and DenseFamily.
	ErrUnknownFamily = errors.New("unknown variational family (want diag or dense)")
	// ErrFamilyWithoutVariational is WithVariational's refusal of a
	// family given with a reference other than "variational".
	ErrFamilyWithoutVariational = errors.New("a variational family applies only to the variational reference")
)

// WithVariational is WithReference with the variational reference's
// family: DiagonalFamily (or "", the default) for Variational,
// DenseFamily for VariationalDense, the choice of ptbatch run's
// --variational. A family given (not "") with the reference "fixed" is
// refused with ErrFamilyWithoutVariational.
func WithVariational(name, family string, m Model, fitScans int) (Model, error) {
	if family != "" && family != DiagonalFamily && family != DenseFamily {
		return nil, fmt.Errorf("models: %w: %q", ErrUnknownFamily, family)
	}
	switch name {
	case "fixed":
		if family != "" {
			return nil, fmt.Errorf("models: %w: family %q with reference %q", ErrFamilyWithoutVariational, family, name)
		}
		return m, nil
	case "variational":
		var ex Explorer = AutoMALA{}
		if e, ok := m.(interface{ explorer() Explorer }); ok {
			ex = e.explorer()
		}
		return newVariational(m, ex, fitScans, family == DenseFamily, false)
	}
	return nil, fmt.Errorf("models: %w: %q", ErrUnknownReference, name)
}
