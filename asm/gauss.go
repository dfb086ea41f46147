package asm

import "math"

// GaussEnergyGeneric evaluates the isotropic Gaussian energies of states
// drawn as x = m + s z, coordinate by coordinate, without storing x. For
// row r and lane j (i = r*8+j) and coordinates d = 0..dim-1 taken in order
// from z[(r*dim+d)*8+j]:
//
//	x := FMA(s[i], z, m[i])
//	acc0 = FMA(x-mu0, x-mu0, acc0); acc1 = FMA(x-mu1, x-mu1, acc1)
//	w0[i] = -acc0*h0; w1[i] = -acc1*h1; first[i] = x at d = 0
//
// where h_k = 1/(2σ_k²). len(m) is rows*8; len(z) is rows*dim*8.
func GaussEnergyGeneric(w0, w1, first, m, s, z []float64, dim int, mu0, mu1, h0, h1 float64) {
	for i := range m {
		r, j := i/lanes, i%lanes
		acc0, acc1 := 0.0, 0.0
		base := r*dim*lanes + j
		for d := 0; d < dim; d++ {
			x := math.FMA(s[i], z[base+d*lanes], m[i])
			d0, d1 := x-mu0, x-mu1
			acc0 = math.FMA(d0, d0, acc0)
			acc1 = math.FMA(d1, d1, acc1)
		}
		w0[i] = -acc0 * h0
		w1[i] = -acc1 * h1
		first[i] = math.FMA(s[i], z[base], m[i])
	}
}
