package models

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/ptbatch/ptbatch/internal/wire"
	"github.com/ptbatch/ptbatch/layout"
)

const isingStateTag = "ising-block/1"

// MarshalBinary returns the block's state (models.BlockState): the spins,
// word by word. The bond sums and magnetisations are recounted from them,
// and the acceptance tables are recomputed from the next move's
// coefficients.
func (b *isingBlock) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.String(isingStateTag)
	w.Int(b.rows)
	w.Int(b.m.Size)
	buf := make([]byte, 0, 8*len(b.spins))
	for _, s := range b.spins {
		buf = binary.LittleEndian.AppendUint64(buf, s)
	}
	w.Blob(buf)
	return w.Bytes(), nil
}

// UnmarshalBinary restores a state saved by MarshalBinary from a block of
// the same shape; it refuses words with a byte other than 0 or 1.
func (b *isingBlock) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	r.Expect(isingStateTag)
	if rows, size := r.Int(), r.Int(); r.Err() == nil && (rows != b.rows || size != b.m.Size) {
		return fmt.Errorf("models: Ising block of %d rows on a %d×%[2]d lattice, want %d rows on %d×%[4]d", rows, size, b.rows, b.m.Size)
	}
	buf := r.Blob()
	if err := r.Close(); err != nil {
		return fmt.Errorf("models: Ising block state: %w", err)
	}
	if len(buf) != 8*len(b.spins) {
		return fmt.Errorf("models: Ising block state: %d bytes of spins, want %d", len(buf), 8*len(b.spins))
	}
	for i := range b.spins {
		s := binary.LittleEndian.Uint64(buf[8*i:])
		if s&^laneBytes != 0 {
			return fmt.Errorf("models: Ising block state: word %d (%#x) is not a word of spins", i, s)
		}
		b.spins[i] = s
	}
	n := b.m.Size * b.m.Size
	for row := 0; row < b.rows; row++ {
		isingCount(b.spins[row*n:(row+1)*n], b.m.Size, b.bonds[row*layout.Lanes:(row+1)*layout.Lanes], b.mag[row*layout.Lanes:(row+1)*layout.Lanes], &b.xor)
	}
	for c := range b.keys {
		b.keys[c] = math.NaN()
	}
	return nil
}

var (
	_ Described  = (*Ising)(nil)
	_ Referenced = (*Ising)(nil)
	_ Named      = (*Ising)(nil)
	_ BlockState = (*isingBlock)(nil)
)
