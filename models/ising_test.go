package models

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
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
// right neighbours coincide; 3, 5 and 37, odd, where the colours meet across
// the boundary, 37 with 1369 words, more than one span of the count
// kernel; 8), with a field, coefficients that differ by lane and by
// row (negative ones too), chains permuted between sweeps as swaps move
// them, and one lane whose η1 is NaN (no flips, NaN energies); in every
// kernel tier this CPU and build offer (the block's line and count kernels
// differ by tier, the scalar reference does not).
func TestIsingBlockMatchesScalar(t *testing.T) {
	for _, name := range kernel.Impls() {
		restore, err := kernel.SetImpl(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run("impl="+name, testIsingBlockMatchesScalar)
		restore()
	}
}

func testIsingBlockMatchesScalar(t *testing.T) {
	const L = layout.Lanes
	for _, size := range []int{2, 3, 5, 8, 37} {
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

// TestIsingKaufmanMatchesEnumeration checks Kaufman's closed form against
// the direct sum over the 2^N configurations at zero field on every
// lattice from 1 × 1 to 4 × 4, square and not (rows ≠ cols exercises the
// roles of m and n), below, near and above the critical coupling
// K_c = ln(1 + √2)/2 = 0.4407 (Kramers–Wannier), to 1e-12 relative: both
// are exact, and only rounding separates them.
func TestIsingKaufmanMatchesEnumeration(t *testing.T) {
	for _, k := range []float64{0.05, 0.3, 0.4406867935097715, 0.44, 0.6, 1.5} {
		for rows := 1; rows <= 4; rows++ {
			for cols := 1; cols <= 4; cols++ {
				want := enumerateRect(rows, cols, k, 0)
				got := IsingKaufmanLogZ(rows, cols, k)
				if math.Abs(got-want) > 1e-12*math.Abs(want) {
					t.Errorf("K=%v %d×%d: Kaufman log Z %.15g, enumeration %.15g", k, rows, cols, got, want)
				}
			}
		}
	}
	if got, want := IsingKaufmanLogZ(3, 5, 0), 15*math.Ln2; got != want {
		t.Errorf("K=0: log Z %v, want 15 log 2 = %v", got, want)
	}
}

// enumerateRect is log Σ_s exp(K·Σ_<ij> s_i s_j + h·Σ_i s_i) on the
// periodic rows × cols lattice, each site bonded to its right and lower
// neighbour, summed over all configurations (the plainest possible
// oracle).
func enumerateRect(rows, cols int, k, h float64) float64 {
	n := rows * cols
	terms := make([]float64, 0, 1<<n)
	for cfg := 0; cfg < 1<<n; cfg++ {
		spin := func(x, y int) float64 { return float64(2*(cfg>>((y%rows)*cols+x%cols)&1) - 1) }
		e := 0.0
		for y := 0; y < rows; y++ {
			for x := 0; x < cols; x++ {
				e += k*spin(x, y)*(spin(x+1, y)+spin(x, y+1)) + h*spin(x, y)
			}
		}
		terms = append(terms, e)
	}
	hi := slices.Max(terms)
	sum := 0.0
	for _, v := range terms {
		sum += math.Exp(v - hi)
	}
	return hi + math.Log(sum)
}

// TestIsingExactLogZ checks the model's oracle log(Z1/Z0) = log Z1 − N·log 2
// against the plain enumeration of enumerateRect on L = 2, 3, 4: at zero
// field (Kaufman's form), at non-zero field (the model's own counting
// enumeration), and at negative β (the sublattice flip on even L, the
// enumeration on odd L); and that it is NaN where nothing exact is known
// (L = 5 with a field, 2^25 configurations).
func TestIsingExactLogZ(t *testing.T) {
	for size := 2; size <= 4; size++ {
		for _, c := range [][2]float64{{0.3, 0}, {0.44, 0}, {0.6, 0}, {0.44, 0.1}, {0.3, -0.7}, {-0.5, 0}, {-0.5, 0.2}} {
			m, err := NewIsing(size, c[0], c[1])
			if err != nil {
				t.Fatal(err)
			}
			want := enumerateRect(size, size, c[0], c[1]) - float64(size*size)*math.Ln2
			if got := m.ExactLogZ(); math.Abs(got-want) > 1e-12*math.Abs(want) {
				t.Errorf("L=%d β=%v h=%v: ExactLogZ %.15g, enumeration %.15g", size, c[0], c[1], got, want)
			}
		}
	}
	m, err := NewIsing(5, 0.3, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.ExactLogZ(); !math.IsNaN(got) {
		t.Errorf("L=5 h=0.1: ExactLogZ %v, want NaN (no exact value)", got)
	}
}

// isingMoments returns the exact means of the bond sum and of the
// magnetisation of the periodic size × size lattice at (β, h), summed
// over all configurations.
func isingMoments(size int, beta, h float64) (bonds, mag float64) {
	n := size * size
	var z float64
	for cfg := 0; cfg < 1<<n; cfg++ {
		spin := func(x, y int) float64 { return float64(2*(cfg>>((y%size)*size+x%size)&1) - 1) }
		b, m := 0.0, 0.0
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				b += spin(x, y) * (spin(x+1, y) + spin(x, y+1))
				m += spin(x, y)
			}
		}
		w := math.Exp(beta*b + h*m)
		z += w
		bonds += w * b
		mag += w * m
	}
	return bonds / z, mag / z
}

// TestIsingSweepInvariant checks that the sweeps sample the tempered Ising
// measure: 32 independent chains (4 rows × 8 lanes) of 4000 sweeps each
// on the 4 × 4 torus, started from the reference, at η1 = 1 (β = 0.44,
// h = 0.1) in rows 0 and 1 and η1 = 0.5 (the tempered target, β = 0.22,
// h = 0.05) in rows 2 and 3, the first 500 sweeps dropped; the mean bond
// sum and magnetisation over the chains of each η1 lie within 4.5
// standard errors (across the 16 chains, which are independent) of their
// exact values by enumeration (isingMoments).
func TestIsingSweepInvariant(t *testing.T) {
	const L, rows, sweeps, burn = layout.Lanes, 4, 16000, 500
	m, err := NewIsing(4, 0.44, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	blk := m.NewBlock(BlockSpec{Rows: rows}).(*isingBlock)
	out := Energies{W0: make([]float64, rows*L), W1: make([]float64, rows*L)}
	rng := kernel.NewStream(5, 0)
	blk.Init(rng, initRows(rows), out)
	eta1 := make([]float64, rows*L)
	for i := range eta1 {
		eta1[i] = 1 - 0.5*float64(i/(2*L))
	}
	rs := testRows(make([]float64, rows*L), eta1)
	sumB, sumM := make([]float64, rows*L), make([]float64, rows*L)
	for s := 0; s < sweeps; s++ {
		blk.Explore(rng, rs, out)
		if s >= burn {
			for i := range sumB {
				sumB[i] += float64(blk.bonds[i])
				sumM[i] += float64(blk.mag[i])
			}
		}
	}
	for half, eta := range []float64{1, 0.5} {
		wantB, wantM := isingMoments(4, 0.44*eta, 0.1*eta)
		var bs, ms []float64
		for i := half * 2 * L; i < (half+1)*2*L; i++ {
			bs = append(bs, sumB[i]/(sweeps-burn))
			ms = append(ms, sumM[i]/(sweeps-burn))
		}
		for _, c := range []struct {
			what string
			x    []float64
			want float64
		}{{"bond sum", bs, wantB}, {"magnetisation", ms, wantM}} {
			mean, se := meanAndSE(c.x)
			t.Logf("η1=%v %s: %.4f ± %.4f, exact %.4f (%.2f se)", eta, c.what, mean, se, c.want, (mean-c.want)/se)
			if !(math.Abs(mean-c.want) <= 4.5*se) {
				t.Errorf("η1=%v: mean %s %.4f ± %.4f, exact %.4f", eta, c.what, mean, se, c.want)
			}
		}
	}
}

// meanAndSE returns the mean of x and its standard error sd/√n.
func meanAndSE(x []float64) (mean, se float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(x)-1) / float64(len(x)))
}

// TestIsingKaufmanLargeLattice checks Kaufman's form where enumeration
// cannot reach, on the 128 × 128 and 512 × 512 tori (MaxIsingSize), against
// Onsager's free energy of the infinite lattice (Onsager 1944),
//
//	f = log 2 + (1/8π²) ∫∫_[0,2π]² log(cosh² 2K − sinh 2K·(cos θ1 + cos θ2)) dθ1 dθ2,
//
// away from the critical coupling: log Z − N·f must be 0 at K = 0.3
// (disordered) and log 2 at K = 0.6 (ordered: the torus has two ordered
// states, + and −, each of weight exp(N·f)), to 1e-8. The finite-size
// corrections decay as exp(−L/ξ) with a correlation length ξ of a few
// sites, and the periodic integrand is smooth, so the midpoint rule on
// 400² points is exact to rounding (1e-16 relative, times N ≤ 2.6e5).
// (Measured before the log 2 was known: log Z/N − f = 4.2e-5 at L = 128
// and 2.6e-6 at 512, both log 2/N.)
func TestIsingKaufmanLargeLattice(t *testing.T) {
	const grid = 400
	for _, c := range []struct{ k, offset float64 }{{0.3, 0}, {0.6, math.Ln2}} {
		c2, s2 := math.Cosh(2*c.k)*math.Cosh(2*c.k), math.Sinh(2*c.k)
		sum := 0.0
		for i := 0; i < grid; i++ {
			for j := 0; j < grid; j++ {
				a, b := 2*math.Pi*(float64(i)+0.5)/grid, 2*math.Pi*(float64(j)+0.5)/grid
				sum += math.Log(c2 - s2*(math.Cos(a)+math.Cos(b)))
			}
		}
		f := math.Ln2 + sum/(2*grid*grid)
		for _, size := range []int{128, 512} {
			n := float64(size * size)
			if got := IsingKaufmanLogZ(size, size, c.k) - n*f; math.Abs(got-c.offset) > 1e-8 {
				t.Errorf("K=%v L=%d: Kaufman log Z − N·f = %.12g, want %.12g", c.k, size, got, c.offset)
			}
		}
	}
}

// TestIsingCountLargeLattices checks isingCount, which sums the lattice
// flat in spans of the kernel (kernel.IsingXor, at most 1020 words) and
// corrects the row ends, against a direct count of every lane's bonds and
// magnetisation on random spins of odd and even lattices whose words
// number below, near and above the span (L = 2, 31, 32, 37, 64, 101), in
// every kernel tier.
func TestIsingCountLargeLattices(t *testing.T) {
	for _, name := range kernel.Impls() {
		restore, err := kernel.SetImpl(name)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(25, 0))
		for _, size := range []int{2, 31, 32, 37, 64, 101} {
			n := size * size
			sp := make([]uint64, n)
			for i := range sp {
				sp[i] = rng.Uint64() & laneBytes
			}
			bonds, mag := make([]int64, layout.Lanes), make([]int64, layout.Lanes)
			isingCount(sp, size, bonds, mag, new([4]uint64))
			for j := 0; j < layout.Lanes; j++ {
				spin := func(x, y int) int64 {
					return 2*int64(sp[(y%size)*size+x%size]>>(8*j)&1) - 1
				}
				var b, m int64
				for y := 0; y < size; y++ {
					for x := 0; x < size; x++ {
						b += spin(x, y) * (spin(x+1, y) + spin(x, y+1))
						m += spin(x, y)
					}
				}
				if bonds[j] != b || mag[j] != m {
					t.Fatalf("%s L=%d lane %d: bonds %d mag %d, direct count %d %d", name, size, j, bonds[j], mag[j], b, m)
				}
			}
		}
		restore()
	}
}
