package layout

import (
	"errors"
	"math"
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
	for _, c := range []struct {
		s     Shape
		field string
		value int
	}{
		{Shape{0, 2, 1}, "Replicates", 0},
		{Shape{-5, 2, 1}, "Replicates", -5},
		{Shape{1, 1, 1}, "Chains", 1},
		{Shape{1, 2, 0}, "Dim", 0},
		{Shape{1, 2, math.MinInt}, "Dim", math.MinInt},
	} {
		err := c.s.Validate()
		var se *ShapeError
		if !errors.As(err, &se) || se.Field != c.field || se.Value != c.value || !errors.Is(err, ErrTooSmall) {
			t.Errorf("%+v: error %v, want a *ShapeError for %s = %d wrapping ErrTooSmall", c.s, err, c.field, c.value)
		}
	}
	for r, want := range map[int]int{-1: 0, 0: 0, 1: 1, 8: 1, 9: 2, 16: 2, 17: 3,
		// ⌈MaxInt/8⌉ = (2^63-1+7)/8 = 2^60, which (MaxInt+7)/8 would overflow.
		math.MaxInt: 1 << 60} {
		if got := (Shape{Replicates: r, Chains: 2, Dim: 1}).Blocks(); got != want {
			t.Errorf("Blocks(%d replicates) = %d, want %d", r, got, want)
		}
	}
}

// TestShapeValidateRefusesOverflow checks that a shape whose byte count
// Blocks × Chains × Dim × Lanes × 8 exceeds MaxInt = 2^63-1 is refused,
// naming the extent whose factor first overflows (Dim, then Chains, then
// Replicates), including the sizes of issue 13 that wrapped to 0:
// dim 2^62 with 2 chains (8·2·2^62 = 2^66 elements) and dim 2^61
// (2^61·64 bytes = 2^67 per slot).
func TestShapeValidateRefusesOverflow(t *testing.T) {
	for _, c := range []struct {
		s     Shape
		field string
	}{
		{Shape{Replicates: 1, Chains: 2, Dim: 4611686018427387904}, "Dim"},
		{Shape{Replicates: 1, Chains: 2, Dim: 2305843009213693952}, "Dim"},
		{Shape{Replicates: 1, Chains: 2, Dim: math.MaxInt}, "Dim"},
		// 2^57 coordinates × 64 bytes = 2^63 > MaxInt.
		{Shape{Replicates: 1, Chains: 2, Dim: 1 << 57}, "Dim"},
		// 2^56 × 64 = 2^62 bytes a slot fits; two slots make 2^63.
		{Shape{Replicates: 1, Chains: 2, Dim: 1 << 56}, "Chains"},
		{Shape{Replicates: 1, Chains: math.MaxInt, Dim: 1}, "Chains"},
		// 2 chains × 64 bytes = 2^7 a block; 2^56 blocks make 2^63.
		{Shape{Replicates: 1 << 59, Chains: 2, Dim: 1}, "Replicates"},
		{Shape{Replicates: math.MaxInt, Chains: 2, Dim: 1}, "Replicates"},
		// The flags of issue 13 together: a block is 10^9 × 64 × 10^8 =
		// 6.4·10^18 bytes ≤ MaxInt ≈ 9.22·10^18; 1.25·10^8 blocks overflow.
		{Shape{Replicates: 1000000000, Chains: 100000000, Dim: 1000000000}, "Replicates"},
	} {
		err := c.s.Validate()
		var se *ShapeError
		if !errors.As(err, &se) || se.Field != c.field || !errors.Is(err, ErrOverflow) {
			t.Errorf("%+v: error %v, want a *ShapeError for %s wrapping ErrOverflow", c.s, err, c.field)
			continue
		}
		if _, err := c.s.Elements(); err == nil {
			t.Errorf("%+v: Elements gave no error", c.s)
		}
		if _, err := c.s.BlockElements(); err == nil {
			t.Errorf("%+v: BlockElements gave no error", c.s)
		}
	}
	// The largest shapes that fit: 2^55 coordinates × 64 bytes × 2 chains
	// = 2^62 bytes; 2^55 blocks of 2 chains × 64 bytes = 2^62 bytes.
	for _, s := range []Shape{{1, 2, 1 << 55}, {1 << 58, 2, 1}} {
		if err := s.Validate(); err != nil {
			t.Errorf("%+v: %v, want valid", s, err)
		}
	}
}

// TestElementsCountsTheStates checks Elements and BlockElements against
// the states a block holds: Chains slots of Dim rows of Lanes values, and
// ⌈Replicates/Lanes⌉ blocks (9 replicates make 2 padded blocks).
func TestElementsCountsTheStates(t *testing.T) {
	s := Shape{Replicates: 9, Chains: 3, Dim: 5}
	if got, err := s.BlockElements(); err != nil || got != 3*5*Lanes {
		t.Errorf("BlockElements = %d, %v; want %d", got, err, 3*5*Lanes)
	}
	if got, err := s.Elements(); err != nil || got != 2*3*5*Lanes {
		t.Errorf("Elements = %d, %v; want %d", got, err, 2*3*5*Lanes)
	}
	// The last Index of a block is BlockElements-1.
	if got := Index(s.Chains-1, s.Dim, s.Dim-1, Lanes-1); got != 3*5*Lanes-1 {
		t.Errorf("last Index = %d, want %d", got, 3*5*Lanes-1)
	}
	if _, err := (Shape{0, 2, 1}).Elements(); !errors.Is(err, ErrTooSmall) {
		t.Errorf("Elements of 0 replicates: %v, want ErrTooSmall", err)
	}
}
