package wire

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// TestRoundTrip writes one of every kind of value, reads them back in
// order and compares bits (a NaN payload and -0 included); then checks that
// every shorter prefix of the data reads with an error and no panic.
func TestRoundTrip(t *testing.T) {
	nan := math.Float64frombits(0x7ff8000000000123)
	var w Writer
	w.Uint64(1<<63 + 5)
	w.Int(-7)
	w.Bool(true)
	w.Float64(nan)
	w.Float64s([]float64{math.Copysign(0, -1), math.Inf(1), 2.5})
	w.Ints([]int{-1, 0, 1 << 40})
	w.Int32s([]int32{-3, 1 << 30})
	w.Bools([]bool{false, true, true})
	w.Blob([]byte{0, 255})
	w.String("tag/1")
	w.Float64s(nil)
	data := w.Bytes()

	read := func(data []byte) (*Reader, []any) {
		r := NewReader(data)
		got := []any{r.Uint64(), r.Int(), r.Bool(), math.Float64bits(r.Float64())}
		f := r.Float64s()
		bits := make([]uint64, len(f))
		for i, x := range f {
			bits[i] = math.Float64bits(x)
		}
		got = append(got, bits, r.Ints(), r.Int32s(), r.Bools(), r.Blob(), r.String(), r.Float64s() == nil)
		return r, got
	}
	r, got := read(data)
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	want := []any{uint64(1<<63 + 5), -7, true, uint64(0x7ff8000000000123),
		[]uint64{math.Float64bits(math.Copysign(0, -1)), math.Float64bits(math.Inf(1)), math.Float64bits(2.5)},
		[]int{-1, 0, 1 << 40}, []int32{-3, 1 << 30}, []bool{false, true, true}, []byte{0, 255}, "tag/1", true}
	for i := range want {
		if !equal(got[i], want[i]) {
			t.Errorf("value %d: got %v, want %v", i, got[i], want[i])
		}
	}
	for n := 0; n < len(data); n++ {
		if r, _ := read(data[:n]); !errors.Is(r.Close(), ErrShort) {
			t.Errorf("prefix of %d bytes: %v, want ErrShort", n, r.Close())
		}
	}
	if err := NewReader(append(data, 0)).Close(); err == nil {
		t.Error("left-over byte not reported")
	}
}

func equal(a, b any) bool {
	switch a := a.(type) {
	case []uint64:
		return slices.Equal(a, b.([]uint64))
	case []int:
		return slices.Equal(a, b.([]int))
	case []int32:
		return slices.Equal(a, b.([]int32))
	case []bool:
		return slices.Equal(a, b.([]bool))
	case []byte:
		return slices.Equal(a, b.([]byte))
	}
	return a == b
}

// TestIntoAndExpect checks that reads into fixed-size slices refuse
// another length, and that Expect refuses another tag.
func TestIntoAndExpect(t *testing.T) {
	var w Writer
	w.Float64s([]float64{1, 2})
	r := NewReader(w.Bytes())
	r.Float64sInto(make([]float64, 3), "x")
	if r.Err() == nil {
		t.Error("two values read into three")
	}
	w = Writer{}
	w.String("a/1")
	r = NewReader(w.Bytes())
	r.Expect("a/2")
	if r.Err() == nil {
		t.Error("tag a/1 accepted for a/2")
	}
	w = Writer{}
	w.Int(1 << 50) // a length no input holds
	r = NewReader(w.Bytes())
	if r.Float64s(); !errors.Is(r.Err(), ErrShort) {
		t.Errorf("huge length: %v", r.Err())
	}
}
