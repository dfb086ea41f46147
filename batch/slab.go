package batch

import "github.com/ptbatch/ptbatch/layout"

// slab hands out zeroed float64 slices, each starting on a layout.Align
// boundary and capped at its length (an append copies it out rather than
// running into the next), from one layout.Float64s allocation: newBlock
// takes a block's arrays of floats from one slab instead of one
// allocation each, which cuts New's calls into the allocator and the
// spans it asks the heap for.
type slab struct{ free []float64 }

// slabLen returns the room a slice of n float64 takes in a slab: n
// rounded up to whole layout.Align lines.
func slabLen(n int) int {
	const w = layout.Align / 8
	return (n + w - 1) / w * w
}

// newSlab returns a slab of n float64, n the sum of slabLen of the slices
// it will hand out, every value written (layout.Float64s).
func newSlab(n int) slab { return slab{free: layout.Float64s(n)} }

// take returns the slab's next n float64. A slab sized too small is a bug
// in its caller's sum, and take panics rather than hand out less.
func (s *slab) take(n int) []float64 {
	m := slabLen(n)
	if m > len(s.free) {
		panic("batch: a block's slab is smaller than its arrays")
	}
	r := s.free[:n:n]
	s.free = s.free[m:]
	return r
}

// carve sets each dst[i] to a slice of length n and capacity k (k ≥ n)
// of one allocation of len(dst)·k elements, so that the slices share one
// allocation and an append past k copies one out rather than running
// into the next.
func carve[T any](dst [][]T, n, k int) {
	all := make([]T, len(dst)*k)
	for i := range dst {
		dst[i] = all[i*k : i*k+n : (i+1)*k]
	}
}
