package benchmarks

import (
	"math"
	"math/rand/v2"
)

// ScalarIsing is the plain scalar Go checkerboard Metropolis sampler that
// the batched Ising sweeps (models.Ising) are compared with: one replicate
// of the zero-field Ising model on the periodic size × size lattice at
// inverse temperature beta, spins in an []int8, the acceptance
// probabilities exp(−2β·s_i·Σ_j s_j) in a table indexed by the neighbour
// sum, and one uniform from math/rand/v2's PCG (seeded with (seed, 0)) per
// attempt. It runs sweeps sweeps (colour 0 then 1, each site once) from
// uniform random spins and returns the mean over the sweeps of the bond
// sum Σ_<ij> s_i s_j, so that its work cannot be optimised away and its
// result can be checked.
func ScalarIsing(size int, beta float64, sweeps int, seed uint64) float64 {
	rng := rand.NewPCG(seed, 0)
	uniform := func() float64 { return float64(rng.Uint64()>>11) * 0x1p-53 }
	s := make([]int8, size*size)
	for i := range s {
		s[i] = 1
		if uniform() < 0.5 {
			s[i] = -1
		}
	}
	// accept[s_i·Σ_j s_j + 4] = min(1, exp(−2β·s_i·Σ_j s_j)).
	var accept [9]float64
	for k := -4; k <= 4; k++ {
		accept[k+4] = min(1, math.Exp(-2*beta*float64(k)))
	}
	total := 0.0
	for sw := 0; sw < sweeps; sw++ {
		for c := 0; c < 2; c++ {
			for y := 0; y < size; y++ {
				up, down := ((y+size-1)%size)*size, ((y+1)%size)*size
				row := y * size
				for x := (y + c) & 1; x < size; x += 2 {
					left, right := x-1, x+1
					if left < 0 {
						left = size - 1
					}
					if right == size {
						right = 0
					}
					si := s[row+x]
					k := int(si) * int(s[row+left]+s[row+right]+s[up+x]+s[down+x])
					if uniform() < accept[k+4] {
						s[row+x] = -si
					}
				}
			}
		}
		total += float64(isingBonds(s, size))
	}
	return total / float64(sweeps)
}

// isingBonds returns Σ_<ij> s_i s_j over the bonds of every site to its
// right and lower neighbour.
func isingBonds(s []int8, size int) int {
	b := 0
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			b += int(s[y*size+x]) * int(s[y*size+(x+1)%size]+s[((y+1)%size)*size+x])
		}
	}
	return b
}
