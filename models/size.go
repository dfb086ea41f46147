package models

import (
	"errors"
	"math/bits"
	"unsafe"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// Sizer is an optional interface of a Model: BlockBytes returns the number
// of bytes NewBlock(BlockSpec{Rows: rows}) allocates, scratch included,
// together with what Init allocates for a moment, without allocating
// anything. It returns ErrSizeOverflow when the count does not fit in an
// int64, so that a caller can refuse a run before allocating it (see
// batch.EstimateMemory). The count is an estimate: it counts every slice of
// the block, not the Go runtime's rounding of allocation sizes.
type Sizer interface {
	BlockBytes(rows int) (int64, error)
}

// ObservableCounter is an optional interface of a Model whose observables
// can be counted without listing their names (a d-dimensional Gaussian
// has d of them, and listing a billion names allocates gigabytes).
type ObservableCounter interface {
	// NumObservables returns len(Observables()).
	NumObservables() int
}

// NumObservables returns the number of m's observables: NumObservables()
// when m is an ObservableCounter, len(m.Observables()) otherwise.
func NumObservables(m Model) int {
	if c, ok := m.(ObservableCounter); ok {
		return c.NumObservables()
	}
	return len(m.Observables())
}

// ErrSizeOverflow reports a size that does not fit in an int64.
var ErrSizeOverflow = errors.New("models: size overflows int64")

// sizeCount adds up byte counts with overflow checks; after the first
// overflow it stays overflowed.
type sizeCount struct {
	n    uint64
	over bool
}

// add adds the product of the factors (layout.Mul: exact, or an
// overflow), each of which must be at least 0.
func (c *sizeCount) add(factors ...int) {
	p, err := layout.Mul(factors...)
	if err != nil {
		c.over = true
		return
	}
	sum, carry := bits.Add64(c.n, uint64(p), 0)
	if carry != 0 || sum > 1<<63-1 {
		c.over = true
		return
	}
	c.n = sum
}

// float64s adds a layout.Float64s buffer of the product of the factors:
// its elements and the alignment padding.
func (c *sizeCount) float64s(factors ...int) {
	c.add(append(factors, 8)...)
	c.add(layout.Align)
}

func (c *sizeCount) result() (int64, error) {
	if c.over {
		return 0, ErrSizeOverflow
	}
	return int64(c.n), nil
}

// BlockBytes returns the bytes of a Gaussian block of rows rows: the
// per-row means, sds, cached coefficients and first coordinates, the
// normals of one fill and of the last two rows, and Init's coefficients.
func (g *Gaussian) BlockBytes(rows int) (int64, error) {
	const L = layout.Lanes
	var c sizeCount
	c.add(int(unsafe.Sizeof(gaussianBlock{})))
	for i := 0; i < 5+2; i++ { // m, s, eta0, eta1, first; Init's eta0, eta1
		c.float64s(rows, L)
	}
	c.float64s(2, g.Dim, L) // zTop
	c.float64s(min(GaussianChunkRows(max(g.Dim, 1)), rows), g.Dim, L)
	return c.result()
}

// NumObservables returns Dim.
func (g *Gaussian) NumObservables() int { return g.Dim }

// BlockBytes returns the bytes of a Beta-binomial block of rows rows: the
// per-row coefficients, shapes, gamma samplers, Marsaglia–Tsang shapes,
// kinds and states, the first attempts, ratios and logarithms of one chunk
// of rows, and Init's coefficients.
func (m *BetaBinomial) BlockBytes(rows int) (int64, error) {
	const L = layout.Lanes
	var c sizeCount
	c.add(int(unsafe.Sizeof(betaBinomialBlock{})))
	for i := 0; i < 5+2; i++ { // eta0, eta1, sA, sB, p; Init's eta0, eta1
		c.float64s(rows, L)
	}
	c.add(2, rows, L, int(unsafe.Sizeof(kernel.GammaSampler{}))) // gsA, gsB
	c.float64s(2, rows, L)                                       // conc
	c.add(rows, L)                                               // kind
	chunk := min(bbChunkRows, max(rows, 0))
	for i := 0; i < 6; i++ { // z, u, g, pq, lpq, lb
		c.float64s(2, chunk, L)
	}
	return c.result()
}

// NumObservables returns 1: p.
func (m *BetaBinomial) NumObservables() int { return 1 }

// BlockBytes returns the bytes of a mixture block of rows rows: the
// weights, log weights and means of every row, the labels of every row
// (a byte per observation), and the scratch of a row's sweep.
func (m *Mixture) BlockBytes(rows int) (int64, error) {
	const L = layout.Lanes
	k, n := m.p.K, len(m.p.Data)
	var c sizeCount
	c.add(int(unsafe.Sizeof(mixBlock{})))
	for i := 0; i < 3; i++ { // w, mu, logw
		c.float64s(rows, k, L)
	}
	c.add(rows, n, L)        // z
	for i := 0; i < 3; i++ { // normals, gz, gu
		c.float64s(k, L)
	}
	c.float64s(n, k, L)             // e
	c.float64s(n, L)                // inv
	c.float64s(n, L)                // u
	c.add(n, L)                     // zs
	c.float64s(max(2*k, 3), L)      // coef
	c.float64s(max(3*k, k+1, 3), L) // acc8
	for i := 0; i < 4; i++ {        // conc, gam, wRows, lwRows
		c.float64s(k, L)
	}
	c.add(k, 1+4)       // used, kept
	c.float64s(2*k + 1) // lv, tv
	// Per lane: 19 rows of K float64 and the live list (newMixLane), with
	// room for a few more rows of scratch.
	c.add(L, 32, k, 8)
	c.add(L, k, 4)
	return c.result()
}

// NumObservables returns 2K: the means and the weights.
func (m *Mixture) NumObservables() int { return 2 * m.p.K }
