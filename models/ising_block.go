package models

import (
	"math"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// Layout of an Ising block: the spins of row r are N = L² words, site
// (x, y) at r·N + y·L + x, and byte j of a word (bits 8j to 8j+7) holds
// lane j's spin, 1 for +1 and 0 for −1. One word thus holds a site of all
// layout.Lanes replicates, and the counting of a site's misaligned
// neighbours is done for every lane at once, bytewise (no byte exceeds
// 9, so no carry crosses a byte).
//
// Order of a lane's random numbers, the same for the block and the scalar
// reference (isingScalar):
//   - Init: for each row in order, for each site in row-major order, one
//     uniform u; the spin is +1 when u ≤ 1/2 (probability exactly 1/2 for
//     the draws ((k + 1/2)·2⁻⁵³) of kernel.Stream).
//   - Explore: for each row in order, for colour c = 0 then 1, for each
//     lattice row y = 0, …, L−1, the sites x ≡ y + c (mod 2) in increasing
//     order, site k of the line taking a 31-bit uniform r: the top 31 bits
//     of a new 64-bit output when k is even, bits 1 to 31 of the same
//     output when k is odd (kernel.Stream.IsingLine); the spin flips when
//     r ≤ its threshold (isingThreshold of its table entry), with
//     probability ⌈p·2³¹⌉/2³¹ for the entry p = min(1, exp(η1·ΔW1)): the
//     model's Metropolis acceptance is p rounded up to a multiple of 2⁻³¹.
//
// Every lane draws the same count whatever its coefficients, so a
// replicate's draws never depend on its lane or on the other lanes.

// laneBytes has 1 in every byte: the +1 spin of every lane.
const laneBytes = 0x0101010101010101

// NewBlock allocates a block of spec.Rows lattices × layout.Lanes
// replicates.
func (m *Ising) NewBlock(spec BlockSpec) Block {
	const L = layout.Lanes
	n := m.Size * m.Size
	b := &isingBlock{
		m:     m,
		rows:  spec.Rows,
		spins: make([]uint64, spec.Rows*n),
		bonds: make([]int64, spec.Rows*L),
		mag:   make([]int64, spec.Rows*L),
		tabs:  make([]isingTable, spec.Rows),
		keys:  make([]float64, spec.Rows),
		u:     layout.Float64s(m.Size * L),
	}
	for i := range b.keys {
		b.keys[i] = math.NaN() // no table computed yet
	}
	return b
}

type isingBlock struct {
	m          *Ising
	rows       int
	spins      []uint64     // rows × N words, see the layout above
	bonds, mag []int64      // per row and lane: Σ_<ij> s_i s_j and Σ s_i
	tabs       []isingTable // per chain: acceptance table computed at keys[c]
	keys       []float64    // per chain: the η1 of tabs[c] (NaN: none)
	q          [80]int32    // scratch: the thresholds of one row's lanes (asm.IsingLineGeneric)
	xor        [4]uint64    // scratch: kernel.IsingXor's sums (isingCount)
	u          []float64    // scratch: the uniforms of one lattice row (Init)
}

// isingThreshold returns the 31-bit threshold of an acceptance p in
// [0, 1]: a uniform r on {0, …, 2³¹−1} is at most ⌈p·2³¹⌉ − 1 with
// probability ⌈p·2³¹⌉/2³¹, which is 1 for p = 1 and 0 for p = 0; NaN gives
// −1 (never). p·2³¹ and its ceiling are exact in float64.
func isingThreshold(p float64) int32 {
	if !(p > 0) {
		return -1
	}
	return int32(math.Ceil(math.Min(p, 1)*(1<<31)) - 1)
}

// Observe writes the mean spin and the mean bond of row row, lane lane.
func (b *isingBlock) Observe(dst []float64, row, lane int) {
	n := float64(b.m.Size * b.m.Size)
	i := row*layout.Lanes + lane
	dst[0] = float64(b.mag[i]) / n
	if len(dst) > 1 {
		dst[1] = float64(b.bonds[i]) / (2 * n)
	}
}

// Init draws every row from the reference, uniform independent spins.
func (b *isingBlock) Init(rng *kernel.Stream, rows Rows, out Energies) {
	const L = layout.Lanes
	size := b.m.Size
	half := math.Float64bits(0.5)
	for r := 0; r < b.rows; r++ {
		sp := b.spins[r*size*size : (r+1)*size*size]
		for y := 0; y < size; y++ {
			rng.Uniform(b.u)
			for x := 0; x < size; x++ {
				var w uint64
				for j := 0; j < L; j++ {
					w |= (1 ^ (half-math.Float64bits(b.u[x*L+j]))>>63) << (8 * j)
				}
				sp[y*size+x] = w
			}
		}
	}
	b.energies(rows, out)
}

// Explore runs one checkerboard Metropolis sweep on every row r, lane j,
// targeting exp(Eta1[r·L+j]·W1) (W0 = 0, so Eta0 plays no part), and
// writes the energies of the new states. A row with a non-finite η1 keeps
// its spins (its draws are made and wasted) and gets NaN energies.
func (b *isingBlock) Explore(rng *kernel.Stream, rows Rows, out Energies) {
	const L = layout.Lanes
	n := b.rows * L
	if len(rows.Eta1) != n || len(out.W0) != n || len(out.W1) != n {
		panic("models: slice lengths do not match")
	}
	size := b.m.Size
	for r := 0; r < b.rows; r++ {
		b.laneTables(r, rows)
		sp := b.spins[r*size*size : (r+1)*size*size]
		for c := 0; c < 2; c++ {
			for y := 0; y < size; y++ {
				row := sp[y*size : (y+1)*size]
				up := sp[((y+size-1)%size)*size:][:size]
				down := sp[((y+1)%size)*size:][:size]
				rng.IsingLine(row, up, down, (y+c)&1, &b.q)
			}
		}
	}
	b.energies(rows, out)
}

// laneTables sets b.q to the thresholds of row r's lanes, recomputing a
// chain's table when its coefficient changed (once a scan for the
// engine's coefficients). A lane whose Chain is missing or out of range
// uses the slot's own cache entry r; any lane gets the table of its own η1,
// whatever the cache holds.
func (b *isingBlock) laneTables(r int, rows Rows) {
	const L = layout.Lanes
	for j := 0; j < L; j++ {
		i := r*L + j
		c := r
		if rows.Chain != nil && int(rows.Chain[i]) >= 0 && int(rows.Chain[i]) < b.rows {
			c = int(rows.Chain[i])
		}
		if eta := rows.Eta1[i]; b.keys[c] != eta {
			b.tabs[c], b.keys[c] = b.m.table(eta), eta
		}
		for k, p := range b.tabs[c][:10] {
			b.q[k*L+j] = isingThreshold(p)
		}
	}
}

// energies recounts every row's bond sum and magnetisation from its spins
// and writes W0 = 0 and W1 = β·bonds + h·mag, NaN both for a lane whose η1
// is not finite.
func (b *isingBlock) energies(rows Rows, out Energies) {
	const L = layout.Lanes
	n := b.m.Size * b.m.Size
	for r := 0; r < b.rows; r++ {
		isingCount(b.spins[r*n:(r+1)*n], b.m.Size, b.bonds[r*L:(r+1)*L], b.mag[r*L:(r+1)*L], &b.xor)
		for j := 0; j < L; j++ {
			i := r*L + j
			out.W0[i], out.W1[i] = 0, b.m.energy(b.bonds[i], b.mag[i])
			if math.IsNaN(rows.Eta1[i]) || math.IsInf(rows.Eta1[i], 0) {
				out.W0[i], out.W1[i] = math.NaN(), math.NaN()
			}
		}
	}
}

// isingCount writes, per lane j, the bond sum Σ_<ij> s_i s_j = 2N − 2·(the
// misaligned bonds) to bonds[j] and the magnetisation Σ s_i = 2·(the +1
// spins) − N to mag[j] of the lattice sp. With the lattice read as one
// flat array of N words, the lower bonds are sp[i] vs sp[(i+L) mod N], the
// right bonds sp[i] vs sp[i+1], but at the end of a row, where the right
// neighbour is the row's first site: those L are corrected one by one.
func isingCount(sp []uint64, size int, bonds, mag []int64, d *[4]uint64) {
	const L = layout.Lanes
	n := len(sp)
	var mis, up [L]int64
	isingXorSum(&mis, sp[:n-size], sp[size:], d)
	isingXorSum(&mis, sp[n-size:], sp[:size], d)
	isingXorSum(&mis, sp[:n-1], sp[1:], d)
	for y := 0; y < size; y++ {
		e := y*size + size - 1 // the row's last site
		if e+1 < n {
			isingAddBytes(&mis, sp[e]^sp[e+1], -1)
		}
		isingAddBytes(&mis, sp[e]^sp[y*size], 1)
	}
	for i := 0; i < n; i += len(isingZeros) {
		isingXorSum(&up, sp[i:min(i+len(isingZeros), n)], isingZeros[:], d)
	}
	for j := 0; j < L; j++ {
		bonds[j] = 2*int64(n) - 2*mis[j]
		mag[j] = 2*up[j] - int64(n)
	}
}

// isingZeros is a span of words of −1 spins, the second operand that makes
// isingXorSum count the +1 spins.
var isingZeros [1020]uint64

// isingXorSum adds to acc[j], per lane j, the count of i < len(a) where
// byte j of a[i] and b[i] differ (len(b) ≥ len(a)), by kernel.IsingXor on
// spans of at most 1020 words and the last few words one by one. d is
// the kernel's scratch (a local array, handed to the kernel's dispatch,
// would be allocated at every call).
func isingXorSum(acc *[layout.Lanes]int64, a, b []uint64, d *[4]uint64) {
	for len(a) >= 4 {
		k := min(len(a), 1020) &^ 3
		*d = [4]uint64{} // the kernel adds to it
		kernel.IsingXor(d, a[:k], b[:k])
		for _, w := range d {
			isingAddBytes(acc, w, 1)
		}
		a, b = a[k:], b[k:]
	}
	for i := range a {
		isingAddBytes(acc, a[i]^b[i], 1)
	}
}

// isingAddBytes adds sign·(byte j of w) to acc[j] for every lane j.
func isingAddBytes(acc *[layout.Lanes]int64, w uint64, sign int64) {
	for j := range acc {
		acc[j] += sign * int64(w>>(8*j)&0xff)
	}
}
