package kernel

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/ptbatch/ptbatch/layout"
)

// streamVersion opens the binary form of a Stream and names its format:
// the generator, the number of lanes and the format number.
const streamVersion = "ptbatch-xoshiro8/1"

// streamBinaryLen is the length of the binary form: the version, then
// 4·Lanes state words and 2·Lanes tail values of 8 bytes each.
const streamBinaryLen = len(streamVersion) + 8*(4*layout.Lanes+2*layout.Lanes)

// The version string spells out eight lanes.
var (
	_ [layout.Lanes - 8]struct{}
	_ [8 - layout.Lanes]struct{}
)

// AppendBinary appends the binary form of s to b (encoding.BinaryAppender)
// and returns the extended slice. The form is the version string
// "ptbatch-xoshiro8/1", then the 4·layout.Lanes xoshiro256++ state words in
// memory order (word w of lane j at position w·layout.Lanes+j), then the
// 2·layout.Lanes float64 values of the buffer of odd last rows of Normal as
// their IEEE 754 bits, each 8 bytes little-endian: 402 bytes in all. (The
// buffer holds the unused sine half of the last odd row; no later draw
// reads it, but it is kept so that a round trip restores s exactly.)
func (s *Stream) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, streamVersion...)
	for _, w := range s.state {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	for _, v := range s.tail {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b, nil
}

// MarshalBinary returns the binary form of s (encoding.BinaryMarshaler),
// as AppendBinary writes it. A Stream restored from it by UnmarshalBinary
// draws exactly the numbers s would have drawn.
func (s *Stream) MarshalBinary() ([]byte, error) {
	return s.AppendBinary(make([]byte, 0, streamBinaryLen))
}

// UnmarshalBinary sets s to the stream whose binary form (see AppendBinary)
// is data (encoding.BinaryUnmarshaler). It returns an error and leaves s
// unchanged when data is not 402 bytes long, does not start with the
// version string "ptbatch-xoshiro8/1", or gives some lane the all-zero
// state, which xoshiro256++ can neither reach nor leave.
func (s *Stream) UnmarshalBinary(data []byte) error {
	if len(data) < len(streamVersion) || string(data[:len(streamVersion)]) != streamVersion {
		return errors.New("kernel: not a stream in the format " + streamVersion)
	}
	if len(data) != streamBinaryLen {
		return fmt.Errorf("kernel: stream data of %d bytes, want %d", len(data), streamBinaryLen)
	}
	var t Stream
	p := data[len(streamVersion):]
	for i := range t.state {
		t.state[i] = binary.LittleEndian.Uint64(p[8*i:])
	}
	p = p[8*len(t.state):]
	for i := range t.tail {
		t.tail[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
	}
	for j := 0; j < layout.Lanes; j++ {
		if t.state[j]|t.state[layout.Lanes+j]|t.state[2*layout.Lanes+j]|t.state[3*layout.Lanes+j] == 0 {
			return fmt.Errorf("kernel: stream data gives lane %d the all-zero xoshiro256++ state", j)
		}
	}
	*s = t
	return nil
}
