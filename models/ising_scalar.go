package models

import "math"

// Scalar returns the reference implementation: one replicate, spins as
// ±1 values, the sweep written site by site (the twin of isingSweepLine).
func (m *Ising) Scalar() Scalar { return isingScalar{m} }

// isingScalar keeps a state as its N spins, +1 or −1, site (x, y) at
// y·L + x. It draws its lane's numbers in the order described with the
// block's layout (ising_block.go).
type isingScalar struct{ m *Ising }

func (s isingScalar) Init(rng Lane, rows int) ([][]float64, []float64, []float64) {
	n := s.m.Size * s.m.Size
	states := make([][]float64, rows)
	w0, w1 := make([]float64, rows), make([]float64, rows)
	for r := range states {
		states[r] = make([]float64, n)
		for i := range states[r] {
			states[r][i] = -1
			if rng.Uniform() <= 0.5 {
				states[r][i] = 1
			}
		}
		w1[r] = s.energy(states[r])
	}
	return states, w0, w1
}

func (s isingScalar) Explore(rng Lane, states [][]float64, _, eta1 []float64, _ []int) ([]float64, []float64) {
	w0, w1 := make([]float64, len(states)), make([]float64, len(states))
	for r, st := range states {
		t := s.m.table(eta1[r])
		s.sweep(rng, st, &t)
		w1[r] = s.energy(st)
		if math.IsNaN(eta1[r]) || math.IsInf(eta1[r], 0) {
			w0[r], w1[r] = math.NaN(), math.NaN()
		}
	}
	return w0, w1
}

// sweep runs one checkerboard sweep on the spins st with the acceptance
// table t: colour 0 then 1, row by row, one 31-bit uniform per site, two
// from each output of rng (isingBits).
func (s isingScalar) sweep(rng Lane, st []float64, t *isingTable) {
	size := s.m.Size
	at := func(x, y int) float64 { return st[((y+size)%size)*size+(x+size)%size] }
	for c := 0; c < 2; c++ {
		for y := 0; y < size; y++ {
			var u uint64
			for k, x := 0, (y+c)&1; x < size; k, x = k+1, x+2 {
				si := st[y*size+x]
				n := 0 // misaligned neighbours
				for _, sj := range []float64{at(x-1, y), at(x+1, y), at(x, y-1), at(x, y+1)} {
					if sj != si {
						n++
					}
				}
				b := 0
				if si > 0 {
					b = 1
				}
				r := u & 0xffffffff >> 1 // k odd: the low half
				if k%2 == 0 {
					u = isingBits(rng)
					r = u >> 33
				}
				if int32(r) <= isingThreshold(t[b*5+n]) {
					st[y*size+x] = -si
				}
			}
		}
	}
}

// isingBits returns rng's next 64-bit output: kernel.Lane's Uint64, or,
// for a Lane without one, the 53 bits of a uniform draw (k + 1/2)·2⁻⁵³
// shifted to the top (the same bits where the lane has both, but for the
// draw that rounds to 1).
func isingBits(rng Lane) uint64 {
	if b, ok := rng.(interface{ Uint64() uint64 }); ok {
		return b.Uint64()
	}
	return uint64(rng.Uniform()*0x1p53) << 11
}

// energy returns W1 of the spins st, summing the bonds to the right and
// lower neighbour of every site.
func (s isingScalar) energy(st []float64) float64 {
	size := s.m.Size
	var bonds, mag int64
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			si := st[y*size+x]
			bonds += int64(si * st[y*size+(x+1)%size])
			bonds += int64(si * st[((y+1)%size)*size+x])
			mag += int64(si)
		}
	}
	return s.m.energy(bonds, mag)
}
