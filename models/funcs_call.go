package models

import (
	"errors"
	"fmt"
	"math"
)

// CallError is a failure of user code in a FromFuncs model: a panic in one
// of Funcs' functions or in an explorer, a non-finite reference draw, or a
// density that is +Inf, or NaN at a state a chain holds. The model's
// blocks panic with a *CallError, and batch's workers turn it into the
// error of New, Step or Run.
type CallError struct {
	// Func names the function: "LogReference", "LogTarget",
	// "SampleReference", "GradLogReference", "GradLogTarget", or
	// "explorer NAME".
	Func string
	// Replicate and Chain say where it was called.
	Replicate, Chain int
	// Err is what went wrong: ErrPanic, ErrNotFinite or ErrInfDensity
	// wrapped with the detail.
	Err error
}

// Error returns "models: FUNC at replicate R, chain N: ERR".
func (e *CallError) Error() string {
	return fmt.Sprintf("models: %s at replicate %d, chain %d: %v", e.Func, e.Replicate, e.Chain, e.Err)
}

// Unwrap returns Err.
func (e *CallError) Unwrap() error { return e.Err }

var (
	// ErrPanic is a panic in user code.
	ErrPanic = errors.New("panic")
	// ErrNotFinite is a reference draw with a NaN or infinite coordinate,
	// or a NaN density at a state a chain holds (a reference draw, the
	// initial state).
	ErrNotFinite = errors.New("not finite")
	// ErrInfDensity is a log density of +Inf.
	ErrInfDensity = errors.New("log density +Inf")
)

// fail panics with a *CallError of t's replicate and chain.
func (t *Target) fail(fn string, err error) {
	panic(&CallError{Func: fn, Replicate: t.replicate, Chain: t.chain, Err: err})
}

// guard, deferred around a call of user code, turns a panic into a
// *CallError naming fn (a *CallError from deeper down passes unchanged).
func (t *Target) guard(fn string) {
	r := recover()
	if r == nil {
		return
	}
	if ce, ok := r.(*CallError); ok {
		panic(ce)
	}
	if err, ok := r.(error); ok {
		t.fail(fn, fmt.Errorf("%w: %w", ErrPanic, err))
	}
	t.fail(fn, fmt.Errorf("%w: %v", ErrPanic, r))
}

// density calls a log density behind a guard; +Inf is an error.
func (t *Target) density(fn string, logp func([]float64) float64, x []float64) float64 {
	v := func() float64 {
		defer t.guard(fn)
		return logp(x)
	}()
	if math.IsInf(v, 1) {
		t.fail(fn, fmt.Errorf("%w at x = %v", ErrInfDensity, short(x)))
	}
	return v
}

func (t *Target) call0(x []float64) float64 { return t.density("LogReference", t.f.LogReference, x) }
func (t *Target) call1(x []float64) float64 { return t.density("LogTarget", t.f.LogTarget, x) }

// grad calls a user gradient behind a guard.
func (t *Target) grad(g *func(x, grad []float64), fn string, x, dst []float64) {
	defer t.guard(fn)
	(*g)(x, dst)
}

// referenceDraw overwrites x with an exact reference draw and returns its
// energies: a coordinate that is not finite, or a NaN density, is an error.
func (t *Target) referenceDraw(r Rand, x []float64) [2]float64 {
	func() {
		defer t.guard("SampleReference")
		t.f.SampleReference(r, x)
	}()
	for d, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.fail("SampleReference", fmt.Errorf("%w: x[%d] = %v", ErrNotFinite, d, v))
		}
	}
	w := [2]float64{t.call0(x), t.call1(x)}
	for i, fn := range [2]string{"LogReference", "LogTarget"} {
		if math.IsNaN(w[i]) {
			t.fail(fn, fmt.Errorf("%w: NaN at the reference draw x = %v", ErrNotFinite, short(x)))
		}
	}
	return w
}

// move runs the explorer's move behind a guard naming it (name, such as
// "explorer rwm").
func (t *Target) move(name string, s ExplorerState, r Rand, x []float64, w *[2]float64) {
	defer t.guard(name)
	s.Move(t, r, x, w)
}

// short returns x, or its first 4 coordinates and an ellipsis, for an
// error message.
func short(x []float64) string {
	if len(x) <= 4 {
		return fmt.Sprint(x)
	}
	return fmt.Sprint(x[:4])[:len(fmt.Sprint(x[:4]))-1] + " …]"
}
