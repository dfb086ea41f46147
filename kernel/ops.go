package kernel

import "github.com/ptbatch/ptbatch/layout"

// GaussEnergy evaluates, for rows of lanes, the isotropic Gaussian energies
// W0 = -Σ_d (x_d-mu0)² h0 and W1 = -Σ_d (x_d-mu1)² h1 of the states
// x_d = m + s z_d, and their first coordinate, without storing x (see
// asm.GaussEnergyGeneric for the exact operation order). len(m) == len(s)
// == len(w0) == len(w1) == len(first) == rows*layout.Lanes and
// len(z) == rows*dim*layout.Lanes.
func GaussEnergy(w0, w1, first, m, s, z []float64, dim int, mu0, mu1, h0, h1 float64) {
	n := len(m)
	if n%layout.Lanes != 0 || len(s) != n || len(w0) != n || len(w1) != n || len(first) != n || len(z) != n*dim {
		panic("kernel: slice lengths do not match")
	}
	impl.GaussEnergy(w0, w1, first, m, s, z, dim, mu0, mu1, h0, h1)
}

// SwapAlpha computes the acceptance probability of the swap of every pair
// of adjacent chains in a block and adds 1-α to rej (see
// asm.SwapAlphaGeneric): α = e^min(lr, 0) by asm.ExpNonPos (at most 1 ulp
// from the exact exponential; 0 when lr is NaN or below asm.ExpMin). The chain-indexed rows eta0, eta1, w0, w1 hold
// one row more than alpha and rej.
func SwapAlpha(alpha, rej, eta0, eta1, w0, w1 []float64) {
	n := len(alpha)
	if n%layout.Lanes != 0 || len(rej) != n || len(eta0) != n+layout.Lanes || len(eta1) != n+layout.Lanes ||
		len(w0) != n+layout.Lanes || len(w1) != n+layout.Lanes {
		panic("kernel: slice lengths do not match")
	}
	impl.SwapAlpha(alpha, rej, eta0, eta1, w0, w1)
}
