package models

import (
	"math/rand/v2"
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// TestMixtureBlockSameOnEveryKernelTier runs the same sweeps of the
// galaxy, the two-component mixture and a small K = 3 mixture (whose
// coefficients include improper ones) under every kernel implementation
// this CPU and build offer, and checks that states and energies agree bit
// for bit with the generic kernels'. (CI runs the package again with
// GODEBUG=cpu.avx512f=off, cpu.avx2=off and -tags purego, which changes
// the default tier the other tests see.)
func TestMixtureBlockSameOnEveryKernelTier(t *testing.T) {
	if len(kernel.Impls()) == 1 {
		t.Skip("only the generic kernels in this build")
	}
	type snap struct {
		w, mu, w0, w1 []float64
		z             []uint8
	}
	run := func(m *Mixture, rows, sweeps int) snap {
		blk := m.NewBlock(BlockSpec{Rows: rows}).(*mixBlock)
		rng := kernel.NewStream(77, 8)
		n := rows * layout.Lanes
		out := Energies{W0: make([]float64, n), W1: make([]float64, n)}
		blk.Init(rng, initRows(rows), out)
		etas := rand.New(rand.NewPCG(3, 4))
		for s := 0; s < sweeps; s++ {
			eta0, eta1 := mixEtas(etas, rows)
			blk.Explore(rng, testRows(eta0, eta1), out)
		}
		return snap{blk.w, blk.mu, out.W0, out.W1, blk.z}
	}
	for _, tc := range []struct {
		m            *Mixture
		rows, sweeps int
	}{{NewGalaxy(), 3, 12}, {NewMixture(2), 2, 3}, {mixSmall(t), 3, 20}} {
		restore, err := kernel.SetImpl("generic")
		if err != nil {
			t.Fatal(err)
		}
		want := run(tc.m, tc.rows, tc.sweeps)
		restore()
		moved := 0
		for _, w := range want.w {
			if w != 1/float64(tc.m.p.K) {
				moved++
			}
		}
		if moved == 0 {
			t.Fatalf("%s: the sweeps left every weight at its initial value", tc.m.Name())
		}
		for _, name := range kernel.Impls() {
			restore, err := kernel.SetImpl(name)
			if err != nil {
				t.Fatal(err)
			}
			got := run(tc.m, tc.rows, tc.sweeps)
			restore()
			for i, pair := range [][2][]float64{{got.w, want.w}, {got.mu, want.mu}, {got.w0, want.w0}, {got.w1, want.w1}} {
				for q := range pair[1] {
					if !sameFloat(pair[0][q], pair[1][q]) {
						t.Fatalf("%s impl=%s: value %d of %d differs: %v, generic %v", tc.m.Name(), name, q, i, pair[0][q], pair[1][q])
					}
				}
			}
			if string(got.z) != string(want.z) {
				t.Fatalf("%s impl=%s: labels differ from the generic kernels'", tc.m.Name(), name)
			}
		}
	}
}
