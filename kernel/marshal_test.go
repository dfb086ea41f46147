package kernel

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"math"
	"testing"
)

var (
	_ encoding.BinaryMarshaler   = (*Stream)(nil)
	_ encoding.BinaryUnmarshaler = (*Stream)(nil)
	_ encoding.BinaryAppender    = (*Stream)(nil)
)

// moreDraws draws a fixed mixture of numbers from s: fills of even and odd
// numbers of rows, lanes drawn alone (which puts the lanes out of step)
// and gamma variates, and returns them all.
func moreDraws(s *Stream) []float64 {
	var all []float64
	for _, rows := range []int{1, 2, 3, 8, 17} {
		u := make([]float64, rows*L)
		s.Uniform(u)
		z := make([]float64, rows*L)
		s.Normal(z)
		all = append(append(all, u...), z...)
		for j := 0; j < L; j += 3 {
			all = append(all, s.LaneUniform(j), s.LaneNormal(j), s.Lane(j).Gamma(0.4))
		}
	}
	return all
}

// TestStreamMarshalRoundTrip checks that a stream marshalled mid-way and
// unmarshalled into a fresh Stream continues with bit-identical uniform,
// normal and lane draws, and that the form is the documented one.
func TestStreamMarshalRoundTrip(t *testing.T) {
	forEachImpl(t, func(name string) {
		s := NewStream(7, 16)
		moreDraws(s)
		odd := make([]float64, 3*L)
		s.Normal(odd) // fills the tail buffer
		data, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if len(data) != 402 || string(data[:18]) != "ptbatch-xoshiro8/1" {
			t.Fatalf("%s: MarshalBinary gave %d bytes starting %q", name, len(data), data[:min(18, len(data))])
		}
		if got := binary.LittleEndian.Uint64(data[18:]); got != s.state[0] {
			t.Errorf("%s: first state word %#x, want word 0 of lane 0 %#x", name, got, s.state[0])
		}
		if got := binary.LittleEndian.Uint64(data[18+8*(4*L+1):]); got != math.Float64bits(s.tail[1]) {
			t.Errorf("%s: second tail value bits %#x, want %#x", name, got, math.Float64bits(s.tail[1]))
		}
		appended, err := s.AppendBinary([]byte("x"))
		if err != nil || !bytes.Equal(appended, append([]byte("x"), data...)) {
			t.Errorf("%s: AppendBinary did not append the MarshalBinary form (err %v)", name, err)
		}

		r := new(Stream)
		if err := r.UnmarshalBinary(data); err != nil {
			t.Fatalf("%s: UnmarshalBinary: %v", name, err)
		}
		if *r != *s {
			t.Fatalf("%s: unmarshalled stream differs from the original", name)
		}
		again, _ := r.MarshalBinary()
		if !bytes.Equal(again, data) {
			t.Errorf("%s: marshalling the unmarshalled stream changed the form", name)
		}
		want, got := moreDraws(s), moreDraws(r)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%s: draw %d after the round trip = %v, original %v", name, i, got[i], want[i])
			}
		}
	})
}

// TestStreamUnmarshalRefusesCorruptInput checks that UnmarshalBinary
// refuses wrong lengths, versions and the all-zero state, and leaves the
// stream as it was.
func TestStreamUnmarshalRefusesCorruptInput(t *testing.T) {
	good, err := NewStream(3, 0).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	for _, c := range []struct {
		what string
		data []byte
	}{
		{"nil", nil},
		{"empty", []byte{}},
		{"version only", []byte("ptbatch-xoshiro8/1")},
		{"one byte short", good[:len(good)-1]},
		{"one byte long", append(bytes.Clone(good), 0)},
		{"twice", append(bytes.Clone(good), good...)},
		{"version 2", edit(func(b []byte) []byte { b[17] = '2'; return b })},
		{"other lane count", edit(func(b []byte) []byte { b[15] = '4'; return b })},
		{"no version", good[18:]},
		{"lane 5 all zero", edit(func(b []byte) []byte {
			for w := 0; w < 4; w++ {
				clear(b[18+8*(w*L+5):][:8])
			}
			return b
		})},
	} {
		s := NewStream(11, 8)
		before := *s
		if err := s.UnmarshalBinary(c.data); err == nil {
			t.Errorf("%s: UnmarshalBinary accepted %d bytes", c.what, len(c.data))
		} else {
			t.Logf("%s: %v", c.what, err)
		}
		if *s != before {
			t.Errorf("%s: the refused input changed the stream", c.what)
		}
	}
	// A single zero word is a valid state.
	b := edit(func(b []byte) []byte { clear(b[18:][:8]); return b })
	if err := new(Stream).UnmarshalBinary(b); err != nil {
		t.Errorf("a lane with one zero word was refused: %v", err)
	}
}
