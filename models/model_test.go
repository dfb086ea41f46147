package models

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// The models implement the optional interfaces their doc comments promise.
var (
	_ Exact      = (*Gaussian)(nil)
	_ Named      = (*Gaussian)(nil)
	_ Referenced = (*Gaussian)(nil)
	_ Exact      = (*BetaBinomial)(nil)
	_ Named      = (*BetaBinomial)(nil)
	_ Referenced = (*BetaBinomial)(nil)
	_ Named      = (*Mixture)(nil)
	_ Referenced = (*Mixture)(nil)
)

// testRows returns the inputs of a move with coefficients eta0, eta1
// (rows×Lanes) and every row r at chain r.
func testRows(eta0, eta1 []float64) Rows {
	if len(eta0) != len(eta1) {
		panic("testRows: coefficient lengths differ")
	}
	chain := make([]int32, len(eta0))
	for i := range chain {
		chain[i] = int32(i / layout.Lanes)
	}
	return Rows{Eta0: eta0, Eta1: eta1, Chain: chain}
}

// initRows returns the inputs of Init for a block of rows rows: the
// reference coefficients (1, 0) and every row r at chain r.
func initRows(rows int) Rows {
	eta0, eta1 := make([]float64, rows*layout.Lanes), make([]float64, rows*layout.Lanes)
	for i := range eta0 {
		eta0[i] = 1
	}
	return testRows(eta0, eta1)
}

// observe returns the observables of row r, lane j of blk, a block of m.
func observe(m Model, blk Block, r, j int) []float64 {
	dst := make([]float64, len(m.Observables()))
	blk.Observe(dst, r, j)
	return dst
}

// TestObservables checks the names and the Exact flag of every model.
func TestObservables(t *testing.T) {
	g, err := NewGaussian(3, -1, 2, 0.3, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		m     Model
		names string
		exact bool
	}{
		{g, "[x0 x1 x2]", true},
		{paperBetaBinomial(t), "[p]", true},
		{NewGalaxy(), "[mu0 mu1 mu2 mu3 mu4 mu5 w0 w1 w2 w3 w4 w5]", false},
		{NewMixture(7), "[mu0 mu1 w0 w1]", false},
		{mixOne(t), "[mu0 w0]", false},
	}
	for _, c := range cases {
		if got := fmt.Sprint(c.m.Observables()); got != c.names {
			t.Errorf("%T: observables %s, want %s", c.m, got, c.names)
		}
		if IsExact(c.m) != c.exact {
			t.Errorf("%T: IsExact = %v, want %v", c.m, IsExact(c.m), c.exact)
		}
	}
}

// TestObserveMatchesScalarState runs a block and the scalar reference in
// lockstep (lane j of the block against the scalar on lane j of the same
// stream) through Init and several explores with coefficients that vary by
// row, lane and sweep, some improper, and checks that Observe returns the
// scalar state's observables bit for bit: every coordinate for the
// Gaussian (only its last two rows, the ones an Exact model is asked
// about), p for the beta-binomial, and the means then the weights of the
// scalar state (w_0 … w_{K-1}, μ_0 … μ_{K-1}, labels) for the mixture.
func TestObserveMatchesScalarState(t *testing.T) {
	const L = layout.Lanes
	gauss := func(dim int) *Gaussian {
		g, err := NewGaussian(dim, -1, 2, 0.3, 0.2)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	same := func(x []float64) []float64 { return x }
	galaxy := NewGalaxy()
	k := galaxy.p.K
	mixObs := func(x []float64) []float64 { // (w, μ, z) → (μ, w)
		return append(append([]float64(nil), x[k:2*k]...), x[:k]...)
	}
	cases := []struct {
		name         string
		m            Referenced
		rows, sweeps int
		lastTwo      bool // only the last two rows can be observed
		obs          func(x []float64) []float64
	}{
		{"gaussian/dim=3", gauss(3), 5, 4, true, same},
		{"gaussian/dim=1", gauss(1), 5, 4, true, same},
		{"gaussian/dim=600", gauss(600), 3, 2, true, same}, // one row per chunk
		{"betabinomial", paperBetaBinomial(t), 5, 4, false, same},
		{"galaxy", galaxy, 3, 6, false, mixObs},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			const seed, first = 99, 8
			m, rows := tc.m, tc.rows
			blk := m.NewBlock(BlockSpec{FirstReplicate: first, Rows: rows})
			rng := kernel.NewStream(seed, first)
			ref := kernel.NewStream(seed, first)
			sc := m.Scalar()
			out := newEnergies(rows * L)
			states := make([][][]float64, L)
			w0s, w1s := make([][]float64, L), make([][]float64, L)
			numObs := len(m.Observables())
			proper, improper := 0, 0
			compare := func(what string) {
				t.Helper()
				lo := 0
				if tc.lastTwo {
					lo = max(rows-2, 0)
				}
				for j := 0; j < L; j++ {
					for r := 0; r < rows; r++ {
						i := r*L + j
						if !sameFloat(out.W0[i], w0s[j][r]) || !sameFloat(out.W1[i], w1s[j][r]) {
							t.Fatalf("%s row %d lane %d: energies (%v, %v), scalar (%v, %v): not in lockstep",
								what, r, j, out.W0[i], out.W1[i], w0s[j][r], w1s[j][r])
						}
						if r < lo {
							continue
						}
						if math.IsNaN(out.W0[i]) {
							improper++
						} else {
							proper++
						}
						got, want := observe(m, blk, r, j), tc.obs(states[j][r])
						if len(got) != numObs || len(want) != numObs {
							t.Fatalf("%s row %d lane %d: %d observables, scalar %d, want %d", what, r, j, len(got), len(want), numObs)
						}
						for d := range got {
							if math.Float64bits(got[d]) != math.Float64bits(want[d]) {
								t.Fatalf("%s row %d lane %d: observable %d (%s) = %v, scalar state %v",
									what, r, j, d, m.Observables()[d], got[d], want[d])
							}
						}
					}
				}
			}
			blk.Init(rng, initRows(rows), out)
			for j := 0; j < L; j++ {
				states[j], w0s[j], w1s[j] = sc.Init(ref.Lane(j), rows)
			}
			compare("init")
			etaRNG := rand.New(rand.NewPCG(5, 6))
			for sweep := 0; sweep < tc.sweeps; sweep++ {
				eta0, eta1 := mixEtas(etaRNG, rows)
				blk.Explore(rng, testRows(eta0, eta1), out)
				for j := 0; j < L; j++ {
					e0, e1 := make([]float64, rows), make([]float64, rows)
					for r := range e0 {
						e0[r], e1[r] = eta0[r*L+j], eta1[r*L+j]
					}
					w0s[j], w1s[j] = sc.Explore(ref.Lane(j), states[j], e0, e1, nil)
				}
				compare(fmt.Sprintf("sweep %d", sweep))
			}
			if proper == 0 || improper == 0 {
				t.Errorf("observed %d proper and %d improper lane-rows, want some of each", proper, improper)
			}
		})
	}
}
