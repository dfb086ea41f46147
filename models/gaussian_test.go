package models

import (
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// TestGaussianBlockMatchesScalar checks that the batched block, under
// every kernel implementation this CPU offers, and the scalar reference
// (plain Go, one lane at a time) give the same energies and first
// coordinates (the kernel's) bit for bit, lane by lane, and that Observe
// gives every coordinate of the last two rows, for dimensions that exercise
// whole and split Box–Muller pairs and several normal fills per call.
func TestGaussianBlockMatchesScalar(t *testing.T) {
	for _, impl := range kernel.Impls() {
		restore, err := kernel.SetImpl(impl)
		if err != nil {
			t.Fatal(err)
		}
		t.Run("impl="+impl, testGaussianBlockMatchesScalar)
		restore()
	}
}

func testGaussianBlockMatchesScalar(t *testing.T) {
	const L = layout.Lanes
	for _, dim := range []int{1, 3, 8, 257, 600} {
		g, err := NewGaussian(dim, -1, 2, 0.3, 0.2)
		if err != nil {
			t.Fatal(err)
		}
		rows := 7
		blk := g.NewBlock(BlockSpec{FirstReplicate: 16, Rows: rows})
		first := blk.(*gaussianBlock).first // x_0 of every row, as the kernel writes it
		rng := kernel.NewStream(42, 16)
		out := Energies{W0: layout.Float64s(rows * L), W1: layout.Float64s(rows * L)}
		x := make([]float64, dim)
		eta0 := layout.Float64s(rows * L)
		eta1 := layout.Float64s(rows * L)
		for i := range eta0 {
			t := float64(i%rows) / float64(rows-1)
			eta0[i], eta1[i] = 1-t, t+0.01*float64(i/rows)
		}
		blk.Init(rng, initRows(rows), out)
		ref := kernel.NewStream(42, 16)
		scalars := make([][][]float64, L)
		for j := 0; j < L; j++ {
			scalars[j], _, _ = g.Scalar().Init(ref.Lane(j), rows)
		}
		for sweep := 0; sweep < 3; sweep++ {
			blk.Explore(rng, testRows(eta0, eta1), out)
			for j := 0; j < L; j++ {
				e0 := make([]float64, rows)
				e1 := make([]float64, rows)
				for r := 0; r < rows; r++ {
					e0[r], e1[r] = eta0[r*L+j], eta1[r*L+j]
				}
				w0, w1 := g.Scalar().Explore(ref.Lane(j), scalars[j], e0, e1, nil)
				for r := 0; r < rows; r++ {
					i := r*L + j
					if math.Float64bits(w0[r]) != math.Float64bits(out.W0[i]) ||
						math.Float64bits(w1[r]) != math.Float64bits(out.W1[i]) ||
						math.Float64bits(scalars[j][r][0]) != math.Float64bits(first[i]) {
						t.Fatalf("dim %d sweep %d lane %d row %d: block (%v, %v, %v), scalar (%v, %v, %v)",
							dim, sweep, j, r, out.W0[i], out.W1[i], first[i], w0[r], w1[r], scalars[j][r][0])
					}
					if r < rows-2 {
						continue // the Gaussian observes only its last two rows
					}
					blk.Observe(x, r, j)
					for d := range x {
						if math.Float64bits(scalars[j][r][d]) != math.Float64bits(x[d]) {
							t.Fatalf("dim %d sweep %d lane %d row %d: observed x%d = %v, scalar %v",
								dim, sweep, j, r, d, x[d], scalars[j][r][d])
						}
					}
				}
			}
		}
	}
}

// TestGaussianAnnealedClosedForm checks the annealed mean and sd against
// the product of Gaussian densities: N(μ0, σ0²)^η0 N(μ1, σ1²)^η1 has
// precision η0/σ0² + η1/σ1² and the precision-weighted mean.
func TestGaussianAnnealedClosedForm(t *testing.T) {
	g, _ := NewGaussian(1, -1, 1, 0.5, 0.25)
	m, s, ok := g.Annealed(1, 0)
	if !ok || m != -1 || math.Abs(s-0.5) > 1e-15 {
		t.Errorf("η=(1,0): got N(%v, %v²), want the reference N(-1, 0.5²)", m, s)
	}
	m, s, ok = g.Annealed(0, 1)
	if !ok || m != 1 || math.Abs(s-0.25) > 1e-15 {
		t.Errorf("η=(0,1): got N(%v, %v²), want the target N(1, 0.25²)", m, s)
	}
	// η = (1/2, 1/2): precision 0.5·4 + 0.5·16 = 10, mean (2·(-1) + 8·1)/10 = 0.6.
	m, s, ok = g.Annealed(0.5, 0.5)
	if !ok || math.Abs(m-0.6) > 1e-15 || math.Abs(s-1/math.Sqrt(10)) > 1e-15 {
		t.Errorf("η=(½,½): got N(%v, %v²), want N(0.6, 0.1)", m, s)
	}
	if _, _, ok := g.Annealed(-1, 0); ok {
		t.Error("η=(-1,0) has negative precision but was accepted")
	}
}

func TestNewGaussianRejectsBadValues(t *testing.T) {
	for _, c := range []struct {
		dim              int
		mu0, mu1, s0, s1 float64
	}{{0, -1, 1, 1, 1}, {1, math.NaN(), 1, 1, 1}, {1, -1, math.Inf(1), 1, 1}, {1, -1, 1, 0, 1}, {1, -1, 1, 1, -1}, {1, -1, 1, math.Inf(1), 1}} {
		if _, err := NewGaussian(c.dim, c.mu0, c.mu1, c.s0, c.s1); err == nil {
			t.Errorf("NewGaussian(%v) accepted bad input", c)
		}
	}
}
