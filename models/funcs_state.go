package models

import (
	"fmt"
	"strings"

	"github.com/ptbatch/ptbatch/internal/wire"
)

// Description returns "funcs dim=… names=… explorer=…" with the
// explorer's settings. The functions of Funcs cannot be described: a
// checkpoint of a FromFuncs model is restored into a run whose model has
// the same dimension, names and explorer settings, and it is the caller's
// part to give it the same functions.
func (m *funcsModel) Description() string {
	return fmt.Sprintf("funcs dim=%d names=%s explorer=%s", m.f.Dim, strings.Join(m.Observables(), ","), describeExplorer(m.ex))
}

// describeExplorer returns an explorer's name and settings as its lanes
// use them (defaults filled in).
func describeExplorer(ex Explorer) string {
	switch l := ex.newLane(1).(type) {
	case *rwLane:
		return fmt.Sprintf("%s step=%s acceptance=%s moves=%d", ex.Name(), fmtFloat(l.step0), fmtFloat(l.target), l.moves)
	case *sliceLane:
		return fmt.Sprintf("%s width=%s max-steps=%d passes=%d", ex.Name(), fmtFloat(l.width), l.maxSteps, l.passes)
	}
	return fmt.Sprintf("%s %T%+v", ex.Name(), ex, ex)
}

const funcsStateTag = "funcs-block/1"

// MarshalBinary returns the block's state (models.BlockState): every
// row's state and energies, and every lane's explorer state (a random
// walk's step sizes and the open scan's counts of proposals and
// acceptances per chain). It returns an error for an explorer whose state
// it cannot save.
func (b *funcsBlock) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String(funcsStateTag)
	w.Int(b.rows)
	w.Int(b.m.f.Dim)
	w.Float64s(b.x)
	for _, e := range b.w {
		w.Float64(e[0])
		w.Float64(e[1])
	}
	for j, l := range b.lanes {
		switch l := l.(type) {
		case *rwLane:
			w.String("random-walk")
			w.Float64s(l.step)
			w.Ints(l.tries)
			w.Ints(l.accs)
		case *sliceLane:
			w.String("slice")
		default:
			return nil, fmt.Errorf("models: the state of explorer lane %d (%T) cannot be saved", j, l)
		}
	}
	return w.Bytes(), nil
}

// UnmarshalBinary restores a state saved by MarshalBinary from a block of
// the same shape and explorer.
func (b *funcsBlock) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect(funcsStateTag)
	if rows, dim := r.Int(), r.Int(); r.Err() == nil && (rows != b.rows || dim != b.m.f.Dim) {
		return fmt.Errorf("models: funcs block of %d rows in dimension %d, want %d rows in dimension %d", rows, dim, b.rows, b.m.f.Dim)
	}
	x := make([]float64, len(b.x))
	r.Float64sInto(x, "states")
	w := make([][2]float64, len(b.w))
	for i := range w {
		w[i] = [2]float64{r.Float64(), r.Float64()}
	}
	var lanes [len(b.lanes)]explorerLane
	for j, l := range b.lanes {
		switch l := l.(type) {
		case *rwLane:
			r.Expect("random-walk")
			c := *l
			c.step, c.tries, c.accs = r.Float64s(), r.Ints(), r.Ints()
			if r.Err() == nil && (len(c.tries) != len(c.step) || len(c.accs) != len(c.step)) {
				r.Failf("random-walk lane %d: %d step sizes, %d and %d counts", j, len(c.step), len(c.tries), len(c.accs))
			}
			lanes[j] = &c
		case *sliceLane:
			r.Expect("slice")
			lanes[j] = l
		default:
			return fmt.Errorf("models: the state of explorer lane %d (%T) cannot be restored", j, l)
		}
	}
	if err := r.Close(); err != nil {
		return fmt.Errorf("models: funcs block state: %w", err)
	}
	copy(b.x, x)
	copy(b.w, w)
	b.lanes = lanes
	return nil
}

var (
	_ Described  = (*funcsModel)(nil)
	_ BlockState = (*funcsBlock)(nil)
)
