package tune

import (
	"fmt"

	"github.com/ptbatch/ptbatch/internal/wire"
)

// splineTag opens the binary form of a Spline and names its format.
const splineTag = "ptbatch-spline/1"

// MarshalBinary returns the binary form of s (encoding.BinaryMarshaler):
// the format tag "ptbatch-spline/1", the knots φ_0 … φ_K and the Adagrad
// accumulator, every float64 as its IEEE 754 bits. A spline restored from
// it by UnmarshalBinary takes exactly the steps s would have taken.
func (s *Spline) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String(splineTag)
	w.Int(s.K())
	for _, k := range s.knots {
		w.Float64(k[0])
		w.Float64(k[1])
	}
	w.Float64s(s.accum)
	return w.Bytes(), nil
}

// UnmarshalBinary sets s to the spline whose binary form is data
// (encoding.BinaryUnmarshaler). The number of segments must be s's own:
// it returns an error, and leaves s unchanged, for another K or malformed
// data.
func (s *Spline) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect(splineTag)
	if k := r.Int(); r.Err() == nil && k != s.K() {
		return fmt.Errorf("tune: spline data of %d segments, want %d", k, s.K())
	}
	knots := make([][2]float64, len(s.knots))
	for i := range knots {
		knots[i] = [2]float64{r.Float64(), r.Float64()}
	}
	accum := make([]float64, len(s.accum))
	r.Float64sInto(accum, "Adagrad accumulator")
	if err := r.Close(); err != nil {
		return fmt.Errorf("tune: spline data: %w", err)
	}
	copy(s.knots, knots)
	copy(s.accum, accum)
	return nil
}
