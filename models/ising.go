package models

import (
	"fmt"
	"math"
)

// The ranges NewIsing accepts. MaxIsingSize bounds the lattice so that a
// row of a block, L² words of 8 bytes, stays below 2 MiB; MaxIsingCoupling
// bounds |β| and |h| so that the energies, at most (2|β| + |h|)·L² in
// magnitude, and the log acceptances of the tempered moves stay far inside
// float64 and every acceptance test stays meaningful (exp(−8·50) is
// still a normal float64).
const (
	MinIsingSize     = 2   // smallest side L
	MaxIsingSize     = 512 // largest side L
	MaxIsingCoupling = 50  // largest |β| and |h|
)

// Ising is the 2-D ferromagnetic Ising model on the periodic Size × Size
// lattice (a torus, N = Size² sites, 2N bonds: each site to its right and
// lower neighbour), spins s_i = ±1. Its target is the Ising measure at
// inverse temperature Beta and external field Field,
//
//	π_1(s) ∝ exp(W1(s)),  W1(s) = β·Σ_<ij> s_i s_j + h·Σ_i s_i,
//
// and its reference the uniform measure on the 2^N configurations (the
// Ising measure at β = 0, h = 0), W0(s) = 0, sampled exactly. The annealed
// density exp(η0·W0 + η1·W1) = exp(η1·W1) is the Ising measure at (η1·β,
// η1·h); on the linear path it is the model at inverse temperature t·β.
// Z0 = 2^N, Z1 = Σ_s exp(W1(s)) is the Ising partition function, and a
// run's log Z estimate is log(Z1/Z0) (see ExactLogZ).
//
// Local exploration is one checkerboard sweep of single-spin Metropolis
// moves (Metropolis et al. 1953): first the sites with x+y even, then those
// with x+y odd, row by row, each site once, one 31-bit uniform per site
// and replicate, two from each 64-bit output of the replicate's stream,
// and the acceptance min(1, exp(η1·ΔW1)) rounded up to a multiple of 2⁻³¹
// (see the layout in ising_block.go for the order of the draws and
// isingThreshold). The state is not an exact draw: Ising is not Exact.
type Ising struct {
	Size  int     // L, the side of the lattice
	Beta  float64 // β, the coupling of the target
	Field float64 // h, the external field of the target
}

// NewIsing returns the Ising model on the L × L torus at inverse
// temperature beta and field h, or an error naming the first bad
// parameter (L must lie in [MinIsingSize, MaxIsingSize], |beta| and |h| at
// most MaxIsingCoupling).
func NewIsing(size int, beta, field float64) (*Ising, error) {
	switch {
	case size < MinIsingSize || size > MaxIsingSize:
		return nil, fmt.Errorf("lattice size must be in [%d, %d], got %d", MinIsingSize, MaxIsingSize, size)
	case !(math.Abs(beta) <= MaxIsingCoupling):
		return nil, fmt.Errorf("beta must be in [-%d, %d], got %v", MaxIsingCoupling, MaxIsingCoupling, beta)
	case !(math.Abs(field) <= MaxIsingCoupling):
		return nil, fmt.Errorf("field must be in [-%d, %d], got %v", MaxIsingCoupling, MaxIsingCoupling, field)
	}
	return &Ising{Size: size, Beta: beta, Field: field}, nil
}

// Name returns "ising".
func (m *Ising) Name() string { return "ising" }

// Description returns "ising size=… beta=… field=…".
func (m *Ising) Description() string {
	return fmt.Sprintf("ising size=%d beta=%s field=%s", m.Size, fmtFloat(m.Beta), fmtFloat(m.Field))
}

// Observables returns "m", the mean spin Σ s_i / N, and "e", the mean bond
// Σ_<ij> s_i s_j / (2N).
func (m *Ising) Observables() []string { return []string{"m", "e"} }

// energy returns W1 = β·bonds + h·mag for the bond sum Σ_<ij> s_i s_j and
// the magnetisation Σ s_i.
func (m *Ising) energy(bonds, mag int64) float64 {
	return math.FMA(m.Beta, float64(bonds), m.Field*float64(mag))
}

// isingTable is the Metropolis acceptance table of one annealed density
// exp(η1·W1): entry b·5 + k, for a spin b (1 for +1, 0 for −1) with k of
// its 4 neighbours of the opposite sign, is min(1, exp(η1·ΔW1)) for
// flipping it, where
//
//	ΔW1 = −2β·s_i·Σ_j s_j − 2h·s_i = −2β·(4 − 2k) − 2h·s_i
//
// (s_j = s_i for the 4 − k aligned neighbours, −s_i for the others).
// Entries 10 to 15 are unused (0). A non-finite η1 gives NaN entries.
type isingTable [16]float64

// table returns the acceptance table at coefficient eta1.
func (m *Ising) table(eta1 float64) isingTable {
	var t isingTable
	for b := 0; b < 2; b++ {
		s := float64(2*b - 1)
		for k := 0; k <= 4; k++ {
			dw := -2*m.Beta*float64(4-2*k) - 2*m.Field*s
			lp := eta1 * dw
			switch {
			case math.IsNaN(lp) || math.IsInf(eta1, 0):
				t[b*5+k] = math.NaN()
			case lp >= 0:
				t[b*5+k] = 1
			default:
				t[b*5+k] = math.Exp(lp)
			}
		}
	}
	return t
}
