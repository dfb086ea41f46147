package tune

import (
	"fmt"

	"github.com/ptbatch/ptbatch/internal/wire"
)

// autoTag opens the binary form of an Auto and names its format.
const autoTag = "ptbatch-auto/1"

// MarshalBinary returns the binary form of a (encoding.BinaryMarshaler):
// the format tag "ptbatch-auto/1", the options, the Rprop state, the open
// round's accumulators and the progress of the tuning, every float64 as
// its IEEE 754 bits. A tuner restored from it by UnmarshalBinary takes
// exactly the decisions a would have taken. Scratch is left out.
func (a *Auto) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String(autoTag)
	w.Int(a.opts.Budget)
	w.Int(a.opts.FirstRound)
	w.Bool(a.opts.Path)
	w.Bool(a.opts.Schedule)
	w.Float64s(a.step)
	w.Float64s(a.sign)
	w.Float64s(a.lastSign)
	w.Ints(a.same)
	w.Int(a.iters)
	w.Float64s(a.mean)
	w.Float64s(a.m2)
	w.Float64s(a.rejSum)
	w.Int(a.roundLen)
	w.Int(a.used)
	w.Int(a.rounds)
	w.Int(a.flat)
	w.Float64s(a.pastSKL[:])
	w.Float64s(a.pastVar[:])
	w.Bool(a.frozen)
	return w.Bytes(), nil
}

// UnmarshalBinary sets a to the tuner whose binary form is data
// (encoding.BinaryUnmarshaler). The options and the numbers of chains and
// knots must be a's own: it returns an error, and leaves a unchanged, for
// others or malformed data.
func (a *Auto) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect(autoTag)
	// The updater's buffers are not part of the tuner's state.
	opts := AutoOptions{Budget: r.Int(), FirstRound: r.Int(), Path: r.Bool(), Schedule: r.Bool(), Updater: a.opts.Updater}
	if r.Err() == nil && opts != a.opts {
		return fmt.Errorf("tune: automatic tuner data with options %+v, want %+v", opts, a.opts)
	}
	b := &Auto{
		step:     make([]float64, len(a.step)),
		sign:     make([]float64, len(a.sign)),
		lastSign: make([]float64, len(a.lastSign)),
		same:     make([]int, len(a.same)),
		mean:     make([]float64, len(a.mean)),
		m2:       make([]float64, len(a.m2)),
		rejSum:   make([]float64, len(a.rejSum)),
	}
	r.Float64sInto(b.step, "Rprop steps")
	r.Float64sInto(b.sign, "Rprop signs")
	r.Float64sInto(b.lastSign, "gradient signs")
	r.IntsInto(b.same, "rounds of the same sign")
	b.iters = r.Int()
	r.Float64sInto(b.mean, "round means")
	r.Float64sInto(b.m2, "round sums of products")
	r.Float64sInto(b.rejSum, "round rejections")
	b.roundLen, b.used, b.rounds, b.flat = r.Int(), r.Int(), r.Int(), r.Int()
	r.Float64sInto(b.pastSKL[:], "past SKL estimates")
	r.Float64sInto(b.pastVar[:], "past SKL variances")
	b.frozen = r.Bool()
	if err := r.Close(); err != nil {
		return fmt.Errorf("tune: automatic tuner data: %w", err)
	}
	if b.iters < 0 || b.roundLen < 1 || b.used < 0 || b.rounds < 0 || b.flat < 0 {
		return fmt.Errorf("tune: automatic tuner data: round of %d iterations, %d done, %d used in %d rounds, %d flat",
			b.roundLen, b.iters, b.used, b.rounds, b.flat)
	}
	copy(a.step, b.step)
	copy(a.sign, b.sign)
	copy(a.lastSign, b.lastSign)
	copy(a.same, b.same)
	copy(a.mean, b.mean)
	copy(a.m2, b.m2)
	copy(a.rejSum, b.rejSum)
	a.iters, a.roundLen, a.used, a.rounds, a.flat = b.iters, b.roundLen, b.used, b.rounds, b.flat
	a.pastSKL, a.pastVar, a.frozen = b.pastSKL, b.pastVar, b.frozen
	return nil
}
