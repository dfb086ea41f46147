package layout

import (
	"testing"
	"unsafe"
)

// TestBuffersAreAligned checks the 64-byte alignment, length, capacity and
// zeroing of the allocators over many sizes.
func TestBuffersAreAligned(t *testing.T) {
	for n := 0; n < 200; n++ {
		f := Float64s(n)
		if len(f) != n || cap(f) != n {
			t.Fatalf("n=%d: len/cap %d/%d", n, len(f), cap(f))
		}
		if n == 0 {
			continue
		}
		if p := uintptr(unsafe.Pointer(&f[0])); p%Align != 0 {
			t.Errorf("Float64s(%d) at %#x, not %d-byte aligned", n, p, Align)
		}
		for i := range f {
			if f[i] != 0 {
				t.Fatalf("n=%d: element %d not zero", n, i)
			}
		}
	}
}

// TestIndexIsRowMajorWithLanesInnermost checks that Index enumerates a
// block slot by slot, coordinate by coordinate, lane innermost, with no
// gaps or overlaps.
func TestIndexIsRowMajorWithLanesInnermost(t *testing.T) {
	const slots, dim = 5, 3
	next := 0
	for s := 0; s < slots; s++ {
		for d := 0; d < dim; d++ {
			for j := 0; j < Lanes; j++ {
				if got := Index(s, dim, d, j); got != next {
					t.Fatalf("Index(%d, %d, %d, %d) = %d, want %d", s, dim, d, j, got, next)
				}
				next++
			}
		}
	}
}

// TestShapeValidate checks the errors for bad extents and the block count.
func TestShapeValidate(t *testing.T) {
	if err := (Shape{Replicates: 10, Chains: 2, Dim: 1}).Validate(); err != nil {
		t.Errorf("valid shape: %v", err)
	}
	for _, s := range []Shape{{0, 2, 1}, {1, 1, 1}, {1, 2, 0}} {
		if (s).Validate() == nil {
			t.Errorf("%+v: no error", s)
		}
	}
	for r, want := range map[int]int{1: 1, 8: 1, 9: 2, 16: 2, 17: 3} {
		if got := (Shape{Replicates: r, Chains: 2, Dim: 1}).Blocks(); got != want {
			t.Errorf("Blocks(%d replicates) = %d, want %d", r, got, want)
		}
	}
}
