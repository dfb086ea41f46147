package models

import (
	"fmt"
	"math"

	"github.com/ptbatch/ptbatch/internal/wire"
)

// Description returns "betabinomial a=… b=… successes=… failures=…".
func (m *BetaBinomial) Description() string {
	return fmt.Sprintf("betabinomial a=%s b=%s successes=%d failures=%d", fmtFloat(m.A), fmtFloat(m.B), m.Successes, m.Failures)
}

const betaBinomialStateTag = "betabinomial-block/1"

// MarshalBinary returns the block's state (models.BlockState): per row and
// lane the coefficients, the annealed shapes computed from them and the
// state p. The gamma samplers are functions of the shapes and are rebuilt.
func (b *betaBinomialBlock) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String(betaBinomialStateTag)
	w.Int(b.rows)
	for _, v := range [][]float64{b.eta0, b.eta1, b.sA, b.sB, b.p} {
		w.Float64s(v)
	}
	return w.Bytes(), nil
}

// UnmarshalBinary restores a state saved by MarshalBinary from a block of
// the same shape, rebuilding the samplers as update builds them.
func (b *betaBinomialBlock) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect(betaBinomialStateTag)
	if rows := r.Int(); r.Err() == nil && rows != b.rows {
		return fmt.Errorf("models: Beta-binomial block of %d rows, want %d", rows, b.rows)
	}
	n := len(b.p)
	eta0, eta1, sA, sB, p := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	names := []string{"eta0", "eta1", "shapes α", "shapes β", "states"}
	for i, v := range [][]float64{eta0, eta1, sA, sB, p} {
		r.Float64sInto(v, names[i])
	}
	if err := r.Close(); err != nil {
		return fmt.Errorf("models: Beta-binomial block state: %w", err)
	}
	for i := range sA {
		proper := func(x float64) bool { return x > 0 && !math.IsInf(x, 1) }
		if (proper(sA[i]) || proper(sB[i])) && !(proper(sA[i]) && proper(sB[i])) {
			return fmt.Errorf("models: Beta-binomial block state: shapes (%v, %v) of row and lane %d are neither both proper nor both improper", sA[i], sB[i], i)
		}
	}
	copy(b.eta0, eta0)
	copy(b.eta1, eta1)
	copy(b.sA, sA)
	copy(b.sB, sB)
	copy(b.p, p)
	for i := range b.sA {
		b.samplers(i)
	}
	return nil
}

var (
	_ Described  = (*BetaBinomial)(nil)
	_ BlockState = (*betaBinomialBlock)(nil)
)
