package models

import (
	"fmt"
	"strings"

	"github.com/ptbatch/ptbatch/internal/wire"
)

// Description returns "funcs dim=… names=… explorer=…" with the
// explorer's settings, and "gradients" when the model has them. The
// functions of Funcs cannot be described: a checkpoint of a FromFuncs
// model is restored into a run whose model has the same dimension, names
// and explorer settings, and it is the caller's part to give it the same
// functions.
func (m *funcsModel) Description() string {
	d := fmt.Sprintf("funcs dim=%d names=%s explorer=%s", m.f.Dim, strings.Join(m.Observables(), ","), describeExplorer(m.ex))
	if m.f.GradLogReference != nil {
		d += " gradients"
	}
	return d
}

// describeExplorer returns an explorer's name and settings as its states
// use them (defaults filled in); an explorer of the user's is described
// by its Go type and fields.
func describeExplorer(ex Explorer) string {
	if s, ok := ex.(interface{ settings() string }); ok {
		return ex.Name() + " " + s.settings()
	}
	return fmt.Sprintf("%s %T%+v", ex.Name(), ex, ex)
}

const funcsStateTag = "funcs-block/2"

// MarshalBinary returns the block's state (models.BlockState): every
// row's state and energies, the scans ended, and per lane and chain the
// open scan's proposal counts and the explorer's state.
func (b *funcsBlock) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String(funcsStateTag)
	w.Int(b.rows)
	w.Int(b.m.f.Dim)
	w.String(b.m.ex.Name())
	w.Int(b.scans)
	w.Float64s(b.x)
	for _, e := range b.w {
		w.Float64(e[0])
		w.Float64(e[1])
	}
	for j := range b.recs {
		for n, rec := range b.recs[j] {
			data, err := rec.state.MarshalBinary()
			if err != nil {
				return nil, fmt.Errorf("models: explorer %s at lane %d, chain %d: %w", b.m.ex.Name(), j, n, err)
			}
			w.Int(rec.proposals)
			w.Int(rec.invalid)
			w.Blob(data)
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
	r.Expect(b.m.ex.Name())
	scans := r.Int()
	x := make([]float64, len(b.x))
	r.Float64sInto(x, "states")
	w := make([][2]float64, len(b.w))
	for i := range w {
		w[i] = [2]float64{r.Float64(), r.Float64()}
	}
	var recs [len(b.recs)][]chainRecord
	for j := range recs {
		recs[j] = b.m.newRecords(b.rows)
		for n := range recs[j] {
			recs[j][n].proposals, recs[j][n].invalid = r.Int(), r.Int()
			blob := r.Blob()
			if r.Err() != nil {
				break
			}
			if err := recs[j][n].state.UnmarshalBinary(blob); err != nil {
				r.Failf("explorer %s at lane %d, chain %d: %v", b.m.ex.Name(), j, n, err)
			}
		}
	}
	if err := r.Close(); err != nil {
		return fmt.Errorf("models: funcs block state: %w", err)
	}
	b.scans = scans
	copy(b.x, x)
	copy(b.w, w)
	b.recs = recs
	return nil
}

var (
	_ Described  = (*funcsModel)(nil)
	_ BlockState = (*funcsBlock)(nil)
)
