package models

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/ptbatch/ptbatch/internal/wire"
)

// Description returns the mixture's name and parameters, and the number of
// observations with the SHA-256 of their IEEE 754 bits (little-endian, in
// order).
func (m *Mixture) Description() string {
	h := sha256.New()
	var b [8]byte
	for _, y := range m.p.Data {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(y))
		h.Write(b[:])
	}
	p := m.p
	return fmt.Sprintf("mixture name=%s k=%d sigma=%s prior-mean=%s prior-sd=%s alpha=%s data=%d sha256:%x",
		p.Name, p.K, fmtFloat(p.Sigma), fmtFloat(p.PriorMean), fmtFloat(p.PriorSD), fmtFloat(p.Alpha), len(p.Data), h.Sum(nil))
}

const mixtureStateTag = "mixture-block/1"

// MarshalBinary returns the block's state (models.BlockState): every row's
// weights, their logs, means and labels. The rest of the block is scratch
// of the row being swept.
func (b *mixBlock) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String(mixtureStateTag)
	w.Int(b.rows)
	w.Int(b.k)
	w.Int(b.n)
	w.Float64s(b.w)
	w.Float64s(b.logw)
	w.Float64s(b.mu)
	w.Blob(b.z)
	return w.Bytes(), nil
}

// UnmarshalBinary restores a state saved by MarshalBinary from a block of
// the same shape.
func (b *mixBlock) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect(mixtureStateTag)
	if rows, k, n := r.Int(), r.Int(), r.Int(); r.Err() == nil && (rows != b.rows || k != b.k || n != b.n) {
		return fmt.Errorf("models: mixture block of %d rows, %d components, %d observations; want %d, %d, %d", rows, k, n, b.rows, b.k, b.n)
	}
	w, logw, mu := make([]float64, len(b.w)), make([]float64, len(b.logw)), make([]float64, len(b.mu))
	r.Float64sInto(w, "weights")
	r.Float64sInto(logw, "log weights")
	r.Float64sInto(mu, "means")
	z := r.Blob()
	if r.Err() == nil && len(z) != len(b.z) {
		r.Failf("models: %d labels, want %d", len(z), len(b.z))
	}
	if err := r.Close(); err != nil {
		return fmt.Errorf("models: mixture block state: %w", err)
	}
	for i, l := range z {
		if int(l) >= b.k {
			return fmt.Errorf("models: mixture block state: label %d at %d, want below %d", l, i, b.k)
		}
	}
	copy(b.w, w)
	copy(b.logw, logw)
	copy(b.mu, mu)
	copy(b.z, z)
	return nil
}

var (
	_ Described  = (*Mixture)(nil)
	_ BlockState = (*mixBlock)(nil)
)
