package layout

import (
	"errors"
	"fmt"
	"math"
	"unsafe"
)

// Lanes is the number of replicates stored side by side in one block: the
// width of a row of every struct-of-arrays quantity.
const Lanes = 8

// Align is the byte alignment of every buffer returned by this package.
const Align = 64

// maxFloat64s is the largest length Float64s accepts: (n + Align/8)·8
// bytes fit in an int.
const maxFloat64s = math.MaxInt/8 - Align/8

// Shape is the size of a batch: Replicates independent PT runs, each with
// Chains annealing levels, each state with Dim float64 coordinates.
type Shape struct {
	Replicates int
	Chains     int
	Dim        int
}

// ErrTooSmall reports an extent of a Shape below its minimum.
var ErrTooSmall = errors.New("layout: extent too small")

// ShapeError is the error Shape.Validate returns for the first extent it
// refuses: Field names it ("Replicates", "Chains" or "Dim"), Value is its
// value and Why says why. It unwraps to ErrTooSmall when the extent is
// below its minimum and to ErrOverflow when the batch it gives has more
// bytes than an int can count.
type ShapeError struct {
	Field string
	Value int
	Why   string
	Err   error
}

// Error returns "layout: <Field> = <Value>: <Why>".
func (e *ShapeError) Error() string {
	return fmt.Sprintf("layout: %s = %d: %s", e.Field, e.Value, e.Why)
}

// Unwrap returns ErrTooSmall or ErrOverflow.
func (e *ShapeError) Unwrap() error { return e.Err }

// Validate returns a *ShapeError for the first extent that is too small
// (Replicates < 1, Chains < 2, Dim < 1) or that makes the states of the
// batch overflow an int, counted in bytes as
//
//	Blocks() × Chains × Dim × Lanes × 8
//
// and built up coordinate first (one slot's row of Dim coordinates, a
// block's Chains slots, the Blocks() blocks), so that the error names the
// extent whose factor first overflows. A valid Shape's element counts
// (Elements, BlockElements, Blocks()×Lanes) and their byte counts all fit
// in an int, and so does every Index inside it.
func (s Shape) Validate() error {
	small := func(field string, v, least int) error {
		return &ShapeError{field, v, fmt.Sprintf("must be at least %d", least), ErrTooSmall}
	}
	switch {
	case s.Replicates < 1:
		return small("Replicates", s.Replicates, 1)
	case s.Chains < 2:
		return small("Chains", s.Chains, 2)
	case s.Dim < 1:
		return small("Dim", s.Dim, 1)
	}
	over := func(field string, v int, what string) error {
		return &ShapeError{field, v, "too large: " + what + " overflows int", ErrOverflow}
	}
	slot, ok := MulInt(s.Dim, Lanes*8)
	if !ok {
		return over("Dim", s.Dim, fmt.Sprintf("a slot of %d coordinates × %d lanes × 8 bytes", s.Dim, Lanes))
	}
	block, ok := MulInt(slot, s.Chains)
	if !ok {
		return over("Chains", s.Chains, fmt.Sprintf("a block of %d chains × %d coordinates × %d lanes × 8 bytes", s.Chains, s.Dim, Lanes))
	}
	if _, ok := MulInt(block, s.Blocks()); !ok {
		return over("Replicates", s.Replicates, fmt.Sprintf("%d blocks × %d chains × %d coordinates × %d lanes × 8 bytes", s.Blocks(), s.Chains, s.Dim, Lanes))
	}
	return nil
}

// Blocks returns the number of blocks of Lanes replicates needed to hold
// s.Replicates, ⌈Replicates/Lanes⌉ (0 when Replicates < 1); the last block
// is padded with replicates that are computed but never reported. It does
// not overflow, even for Replicates = math.MaxInt.
func (s Shape) Blocks() int {
	if s.Replicates < 1 {
		return 0
	}
	return (s.Replicates-1)/Lanes + 1
}

// BlockElements returns the number of float64 values the states of one
// block occupy, Chains × Dim × Lanes (Chains slots of Dim rows of Lanes
// values), or the error of Validate. It is what a memory estimate
// multiplies by Blocks().
func (s Shape) BlockElements() (int, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	return s.Chains * s.Dim * Lanes, nil // Validate checked it fits
}

// Elements returns the number of float64 values the states of the whole
// batch occupy, Blocks() × Chains × Dim × Lanes (padding replicates
// included), or the error of Validate. Elements()×8 bytes also fits in an
// int.
func (s Shape) Elements() (int, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	return s.Blocks() * s.Chains * s.Dim * Lanes, nil // Validate checked it fits
}

// Index is the flat index of coordinate d of slot slot in lane lane of a
// block whose states have dim coordinates: (slot*dim + d)*Lanes + lane. It
// does not check its arguments; inside a valid Shape (0 ≤ slot < Chains,
// 0 ≤ d < Dim) it cannot overflow.
func Index(slot, dim, d, lane int) int { return (slot*dim+d)*Lanes + lane }

// Float64s returns a zeroed slice of n float64 whose first element is
// 64-byte aligned. It panics with "layout: Float64s length out of range"
// when n is negative or n float64 and their alignment padding have more
// bytes than an int can count.
//
// Every value is written before it returns: the runtime does not write
// memory it takes fresh from the system, whose pages would otherwise be
// mapped at their first use (a page fault each, microseconds on a virtual
// machine, in a block's first iteration or end of a scan) and, on a NUMA
// machine, on the node of the CPU that first uses them rather than of the
// one that allocates (the worker that builds a block).
func Float64s(n int) []float64 {
	if n < 0 || n > maxFloat64s {
		panic("layout: Float64s length out of range")
	}
	if n == 0 {
		return []float64{}
	}
	const pad = Align / 8
	buf := make([]float64, n+pad)
	clear(buf)
	off := 0
	for uintptr(unsafe.Pointer(&buf[off]))%Align != 0 {
		off++
	}
	return buf[off : off+n : off+n]
}
