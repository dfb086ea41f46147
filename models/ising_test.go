package models

import (
	"fmt"
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// isingLaneSpins returns the spins of row r, lane j of blk as ±1 values.
func isingLaneSpins(blk *isingBlock, r, j int) []float64 {
	n := blk.m.Size * blk.m.Size
	out := make([]float64, n)
	for i, w := range blk.spins[r*n : (r+1)*n] {
		out[i] = float64(2*int(w>>(8*j)&1) - 1)
	}
	return out
}

// TestIsingBlockMatchesScalar checks the batched sweep against its scalar
// twin draw for draw: from the same seeds, every lane's spins and energies
// equal those of isingScalar bit for bit after Init and after each of 5
// sweeps, on even and odd lattices (L = 2, the smallest, where left and
// right neighbours coincide; 3 and 5, odd, where the colours meet across
// the boundary; 8), with a field, coefficients that differ by lane and by
// row (negative ones too), chains permuted between sweeps as swaps move
// them, and one lane whose η1 is NaN (no flips, NaN energies).
func TestIsingBlockMatchesScalar(t *testing.T) {
	const L = layout.Lanes
	for _, size := range []int{2, 3, 5, 8} {
		m, err := NewIsing(size, 0.6, 0.15)
		if err != nil {
			t.Fatal(err)
		}
		const rows = 4
		blk := m.NewBlock(BlockSpec{FirstReplicate: 16, Rows: rows}).(*isingBlock)
		out := Energies{W0: make([]float64, rows*L), W1: make([]float64, rows*L)}
		rng, ref := kernel.NewStream(7, 16), kernel.NewStream(7, 16)
		blk.Init(rng, initRows(rows), out)
		scalars := make([][][]float64, L)
		w0s, w1s := make([][]float64, L), make([][]float64, L)
		for j := 0; j < L; j++ {
			scalars[j], w0s[j], w1s[j] = m.Scalar().Init(ref.Lane(j), rows)
		}
		compareIsing(t, fmt.Sprintf("L=%d init", size), blk, out, scalars, w0s, w1s)
		for sweep := 0; sweep < 5; sweep++ {
			eta0, eta1 := make([]float64, rows*L), make([]float64, rows*L)
			rs := testRows(eta0, eta1)
			for i := range eta1 {
				r, j := i/L, i%L
				rs.Chain[i] = int32((r + sweep + j) % rows) // a permutation of the chains per lane
				eta1[i] = float64(rs.Chain[i])/float64(rows-1)*(1-0.05*float64(j)) - 0.1*float64(sweep%2)
			}
			eta1[2*L+5] = math.NaN()
			blk.Explore(rng, rs, out)
			for j := 0; j < L; j++ {
				e1 := make([]float64, rows)
				for r := range e1 {
					e1[r] = eta1[r*L+j]
				}
				w0s[j], w1s[j] = m.Scalar().Explore(ref.Lane(j), scalars[j], make([]float64, rows), e1, nil)
			}
			compareIsing(t, fmt.Sprintf("L=%d sweep %d", size, sweep), blk, out, scalars, w0s, w1s)
			if !math.IsNaN(out.W1[2*L+5]) || !math.IsNaN(out.W0[2*L+5]) {
				t.Fatalf("L=%d: energies (%v, %v) for a NaN coefficient, want NaN", size, out.W0[2*L+5], out.W1[2*L+5])
			}
		}
	}
}

// compareIsing fails unless the block's spins and energies equal the
// scalar reference's bit for bit.
func compareIsing(t *testing.T, what string, blk *isingBlock, out Energies, scalars [][][]float64, w0s, w1s [][]float64) {
	t.Helper()
	const L = layout.Lanes
	for j := 0; j < L; j++ {
		for r := 0; r < blk.rows; r++ {
			i := r*L + j
			got := isingLaneSpins(blk, r, j)
			for k := range got {
				if got[k] != scalars[j][r][k] {
					t.Fatalf("%s: lane %d row %d site %d: block spin %v, scalar %v", what, j, r, k, got[k], scalars[j][r][k])
				}
			}
			if math.Float64bits(out.W0[i]) != math.Float64bits(w0s[j][r]) || math.Float64bits(out.W1[i]) != math.Float64bits(w1s[j][r]) {
				t.Fatalf("%s: lane %d row %d: block energies (%v, %v), scalar (%v, %v)", what, j, r, out.W0[i], out.W1[i], w0s[j][r], w1s[j][r])
			}
		}
	}
}

// TestIsingBlockState checks that a block restored from MarshalBinary
// continues exactly as the saved one: after a save, one more sweep of the
// saved block and of a restored one (another block of the same shape,
// initialised from another seed) from copies of one stream gives equal
// spins and energies; and that a corrupt word is refused.
func TestIsingBlockState(t *testing.T) {
	const L, rows = layout.Lanes, 3
	m, err := NewIsing(6, 0.44, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := Energies{W0: make([]float64, rows*L), W1: make([]float64, rows*L)}
	eta1 := make([]float64, rows*L)
	for i := range eta1 {
		eta1[i] = float64(i/L) / (rows - 1)
	}
	rs := testRows(make([]float64, rows*L), eta1)
	saved := m.NewBlock(BlockSpec{Rows: rows}).(*isingBlock)
	rng := kernel.NewStream(3, 0)
	saved.Init(rng, initRows(rows), out)
	saved.Explore(rng, rs, out)
	data, err := saved.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	restored := m.NewBlock(BlockSpec{Rows: rows}).(*isingBlock)
	restored.Init(kernel.NewStream(4, 0), initRows(rows), Energies{W0: make([]float64, rows*L), W1: make([]float64, rows*L)})
	if err := restored.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	state, _ := rng.MarshalBinary()
	rng2 := new(kernel.Stream)
	if err := rng2.UnmarshalBinary(state); err != nil {
		t.Fatal(err)
	}
	out2 := Energies{W0: make([]float64, rows*L), W1: make([]float64, rows*L)}
	saved.Explore(rng, rs, out)
	restored.Explore(rng2, rs, out2)
	for i := range out.W1 {
		if out.W1[i] != out2.W1[i] {
			t.Fatalf("row and lane %d: energy %v after restoring, %v without", i, out2.W1[i], out.W1[i])
		}
	}
	for i := range saved.spins {
		if saved.spins[i] != restored.spins[i] {
			t.Fatalf("word %d: %#x after restoring, %#x without", i, restored.spins[i], saved.spins[i])
		}
	}
	data[len(data)-1] = 2 // a byte of spins that is neither 0 nor 1
	if err := restored.UnmarshalBinary(data); err == nil {
		t.Error("a corrupt word of spins was accepted")
	}
}
