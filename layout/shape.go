package layout

import (
	"fmt"
	"unsafe"
)

// Lanes is the number of replicates stored side by side in one block: the
// width of a row of every struct-of-arrays quantity.
const Lanes = 8

// Align is the byte alignment of every buffer returned by this package.
const Align = 64

// Shape is the size of a batch: Replicates independent PT runs, each with
// Chains annealing levels, each state with Dim float64 coordinates.
type Shape struct {
	Replicates int
	Chains     int
	Dim        int
}

// Validate reports a configuration error when any extent is too small.
func (s Shape) Validate() error {
	switch {
	case s.Replicates < 1:
		return fmt.Errorf("layout: replicates must be at least 1, got %d", s.Replicates)
	case s.Chains < 2:
		return fmt.Errorf("layout: chains must be at least 2, got %d", s.Chains)
	case s.Dim < 1:
		return fmt.Errorf("layout: dim must be at least 1, got %d", s.Dim)
	}
	return nil
}

// Blocks returns the number of blocks of Lanes replicates needed to hold
// s.Replicates; the last block is padded with replicates that are computed
// but never reported.
func (s Shape) Blocks() int { return (s.Replicates + Lanes - 1) / Lanes }

// Index is the flat index of coordinate d of slot slot in lane lane of a
// block whose states have dim coordinates: (slot*dim + d)*Lanes + lane.
func Index(slot, dim, d, lane int) int { return (slot*dim+d)*Lanes + lane }

// Float64s returns a zeroed slice of n float64 whose first element is
// 64-byte aligned.
func Float64s(n int) []float64 {
	if n == 0 {
		return []float64{}
	}
	const pad = Align / 8
	buf := make([]float64, n+pad)
	off := 0
	for uintptr(unsafe.Pointer(&buf[off]))%Align != 0 {
		off++
	}
	return buf[off : off+n : off+n]
}
