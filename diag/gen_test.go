package diag

import "math"

// splitMix is SplitMix64 (Steele, Lea and Flood 2014), a generator whose
// output is fixed by its definition, so that the arrays of the reference
// test are the same for every Go version (math/rand's normal variates are
// not promised to be).
type splitMix uint64

func (s *splitMix) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// uniform returns a uniform variate in (0, 1).
func (s *splitMix) uniform() float64 { return (float64(s.next()>>11) + 0.5) / (1 << 53) }

// normal returns a standard normal variate (Box–Muller, cosine branch).
func (s *splitMix) normal() float64 {
	u, v := s.uniform(), s.uniform()
	return math.Sqrt(-2*math.Log(u)) * math.Cos(2*math.Pi*v)
}

// ar1 returns m chains of n draws of the AR(1) series x_i = ρx_{i−1} +
// √(1−ρ²)ε_i (stationary, unit variance: x_0 ~ N(0, 1)), chain j shifted by
// offset·j, from seed.
func ar1(seed uint64, m, n int, rho, offset float64) [][]float64 {
	g := splitMix(seed)
	out := make([][]float64, m)
	sd := math.Sqrt(1 - rho*rho)
	for j := range out {
		x := g.normal()
		out[j] = make([]float64, n)
		for i := range out[j] {
			out[j][i] = x + offset*float64(j)
			x = rho*x + sd*g.normal()
		}
	}
	return out
}
