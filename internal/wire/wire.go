// Package wire is the binary encoding of ptbatch's checkpoints: fixed-width
// little-endian numbers, float64s as their IEEE 754 bits (so NaNs, signed
// zeros and infinities round-trip exactly), and length-prefixed slices and
// strings. A Writer appends; a Reader reads in the same order and keeps the
// first error, so that a caller checks once at the end (Reader.Err), and
// never panics on short or malformed input.
package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Writer appends values to a byte slice. The zero value is ready to use.
type Writer struct {
	buf []byte
}

// Bytes returns the encoded bytes.
func (w *Writer) Bytes() []byte { return w.buf }

// Uint64 appends v, 8 bytes little-endian.
func (w *Writer) Uint64(v uint64) { w.buf = binary.LittleEndian.AppendUint64(w.buf, v) }

// Int appends v as a two's-complement 64-bit integer.
func (w *Writer) Int(v int) { w.Uint64(uint64(int64(v))) }

// Bool appends v as one byte, 0 or 1.
func (w *Writer) Bool(v bool) {
	b := byte(0)
	if v {
		b = 1
	}
	w.buf = append(w.buf, b)
}

// Float64 appends the IEEE 754 bits of v.
func (w *Writer) Float64(v float64) { w.Uint64(math.Float64bits(v)) }

// Float64s appends len(v) and then every value.
func (w *Writer) Float64s(v []float64) {
	w.Int(len(v))
	for _, x := range v {
		w.Float64(x)
	}
}

// Ints appends len(v) and then every value.
func (w *Writer) Ints(v []int) {
	w.Int(len(v))
	for _, x := range v {
		w.Int(x)
	}
}

// Int32s appends len(v) and then every value, 4 bytes each.
func (w *Writer) Int32s(v []int32) {
	w.Int(len(v))
	for _, x := range v {
		w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(x))
	}
}

// Bools appends len(v) and then every value, one byte each.
func (w *Writer) Bools(v []bool) {
	w.Int(len(v))
	for _, x := range v {
		w.Bool(x)
	}
}

// Blob appends len(v) and then v.
func (w *Writer) Blob(v []byte) {
	w.Int(len(v))
	w.buf = append(w.buf, v...)
}

// String appends len(s) and then s.
func (w *Writer) String(s string) {
	w.Int(len(s))
	w.buf = append(w.buf, s...)
}

// ErrShort is the error of a Reader that ran out of input.
var ErrShort = errors.New("wire: unexpected end of data")

// Reader reads what a Writer wrote, in the same order. After the first
// error every read returns a zero value and Err reports that error.
type Reader struct {
	buf []byte
	err error
}

// NewReader returns a Reader of b.
func NewReader(b []byte) *Reader { return &Reader{buf: b} }

// Err returns the first error met, or nil.
func (r *Reader) Err() error { return r.err }

// Fail records err (when no error is recorded yet), so that a caller can
// report a value it finds wrong through the same channel.
func (r *Reader) Fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// Failf records an error formatted as fmt.Errorf does.
func (r *Reader) Failf(format string, args ...any) { r.Fail(fmt.Errorf(format, args...)) }

// Close returns the first error, or an error if input is left over.
func (r *Reader) Close() error {
	if r.err == nil && len(r.buf) > 0 {
		r.err = fmt.Errorf("wire: %d bytes left over", len(r.buf))
	}
	return r.err
}

// take returns the next n bytes, or nil after recording ErrShort.
func (r *Reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.buf) {
		r.err = ErrShort
		return nil
	}
	b := r.buf[:n:n]
	r.buf = r.buf[n:]
	return b
}

// Uint64 reads 8 bytes little-endian.
func (r *Reader) Uint64() uint64 {
	b := r.take(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

// Int reads what Writer.Int wrote; a value that does not fit an int is an
// error.
func (r *Reader) Int() int {
	v := int64(r.Uint64())
	if int64(int(v)) != v {
		r.Failf("wire: integer %d out of range", v)
		return 0
	}
	return int(v)
}

// Bool reads one byte, which must be 0 or 1.
func (r *Reader) Bool() bool {
	b := r.take(1)
	if b == nil {
		return false
	}
	if b[0] > 1 {
		r.Failf("wire: boolean byte %d", b[0])
	}
	return b[0] == 1
}

// Float64 reads the IEEE 754 bits of a float64.
func (r *Reader) Float64() float64 { return math.Float64frombits(r.Uint64()) }

// length reads a length prefix of elements of size bytes each, which the
// input must still hold.
func (r *Reader) length(size int) int {
	n := r.Int()
	if r.err == nil && (n < 0 || n > len(r.buf)/size) {
		r.err = ErrShort
		return 0
	}
	return n
}

// Float64s reads a slice written by Writer.Float64s; an empty one is
// returned as nil (as are those of Ints, Int32s and Bools).
func (r *Reader) Float64s() []float64 { return readSlice(r, 8, r.Float64) }

// Ints reads a slice written by Writer.Ints.
func (r *Reader) Ints() []int { return readSlice(r, 8, r.Int) }

// Int32s reads a slice written by Writer.Int32s.
func (r *Reader) Int32s() []int32 { return readSlice(r, 4, r.int32) }

// Bools reads a slice written by Writer.Bools.
func (r *Reader) Bools() []bool { return readSlice(r, 1, r.Bool) }

// int32 reads one value written by Writer.Int32s.
func (r *Reader) int32() int32 {
	b := r.take(4)
	if b == nil {
		return 0
	}
	return int32(binary.LittleEndian.Uint32(b))
}

// readSlice reads a length-prefixed slice of values of size bytes each,
// every one by elem; an empty or unreadable one is nil.
func readSlice[T any](r *Reader, size int, elem func() T) []T {
	n := r.length(size)
	if r.err != nil || n == 0 {
		return nil
	}
	v := make([]T, n)
	for i := range v {
		v[i] = elem()
	}
	return v
}

// Blob reads a byte slice written by Writer.Blob; it shares the input's
// memory.
func (r *Reader) Blob() []byte {
	n := r.length(1)
	return r.take(n)
}

// String reads a string written by Writer.String.
func (r *Reader) String() string { return string(r.Blob()) }

// Float64sInto reads a slice written by Writer.Float64s into dst, whose
// length it must have.
func (r *Reader) Float64sInto(dst []float64, what string) { readInto(r, dst, 8, what, r.Float64) }

// Int32sInto reads a slice written by Writer.Int32s into dst, whose length
// it must have.
func (r *Reader) Int32sInto(dst []int32, what string) { readInto(r, dst, 4, what, r.int32) }

// BoolsInto reads a slice written by Writer.Bools into dst, whose length it
// must have.
func (r *Reader) BoolsInto(dst []bool, what string) { readInto(r, dst, 1, what, r.Bool) }

// IntsInto reads a slice written by Writer.Ints into dst, whose length it
// must have.
func (r *Reader) IntsInto(dst []int, what string) { readInto(r, dst, 8, what, r.Int) }

// readInto reads a length-prefixed slice of values of size bytes each into
// dst, every one by elem, after checking that it has len(dst) values (what
// names the slice in the error).
func readInto[T any](r *Reader, dst []T, size int, what string, elem func() T) {
	n := r.length(size)
	if r.err == nil && n != len(dst) {
		r.Failf("wire: %s has %d values, want %d", what, n, len(dst))
	}
	if r.err != nil {
		return
	}
	for i := range dst {
		dst[i] = elem()
	}
}

// Expect reads a string and records an error unless it is want: a tag that
// names what follows.
func (r *Reader) Expect(want string) {
	if got := r.String(); r.err == nil && got != want {
		r.Failf("wire: found %q where %q was expected", got, want)
	}
}
