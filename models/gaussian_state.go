package models

import (
	"fmt"
	"strconv"

	"github.com/ptbatch/ptbatch/internal/wire"
)

// fmtFloat formats x in its shortest form that parses back to x exactly.
func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Description returns "gaussian dim=… mu0=… mu1=… sigma0=… sigma1=…".
func (g *Gaussian) Description() string {
	return fmt.Sprintf("gaussian dim=%d mu0=%s mu1=%s sigma0=%s sigma1=%s",
		g.Dim, fmtFloat(g.Mu0), fmtFloat(g.Mu1), fmtFloat(g.Sigma0), fmtFloat(g.Sigma1))
}

const gaussianStateTag = "gaussian-block/1"

// MarshalBinary returns the block's state (models.BlockState): per row and
// lane the annealed mean and sd with the coefficients they were computed
// for, the first coordinate, and the normals of the last two rows, from
// which Observe rebuilds the target chain's state.
func (b *gaussianBlock) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String(gaussianStateTag)
	w.Int(b.rows)
	w.Int(b.g.Dim)
	for _, v := range [][]float64{b.m, b.s, b.eta0, b.eta1, b.first, b.zTop} {
		w.Float64s(v)
	}
	return w.Bytes(), nil
}

// UnmarshalBinary restores a state saved by MarshalBinary from a block of
// the same shape.
func (b *gaussianBlock) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect(gaussianStateTag)
	if rows, dim := r.Int(), r.Int(); r.Err() == nil && (rows != b.rows || dim != b.g.Dim) {
		return fmt.Errorf("models: Gaussian block of %d rows in dimension %d, want %d rows in dimension %d", rows, dim, b.rows, b.g.Dim)
	}
	names := []string{"means", "sds", "eta0", "eta1", "first coordinates", "normals"}
	for i, v := range [][]float64{b.m, b.s, b.eta0, b.eta1, b.first, b.zTop} {
		r.Float64sInto(v, names[i])
	}
	if err := r.Close(); err != nil {
		return fmt.Errorf("models: Gaussian block state: %w", err)
	}
	b.epoch = 0 // compare the restored coefficients on the next move
	return nil
}

var (
	_ Described  = (*Gaussian)(nil)
	_ BlockState = (*gaussianBlock)(nil)
)
