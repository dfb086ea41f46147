package models

import (
	"math"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// paddingRun inits a block of m with spec and sweeps it sweeps times from
// the stream (seed, 0) under coefficients that differ by row and lane
// (the linear path at t = (r + j/8)/rows, and in row 1 lane 1 the improper
// (-1, 0)), and returns every sweep's energies and the final observables
// of every row and lane.
func paddingRun(m Model, spec BlockSpec, sweeps int, seed uint64) (w0, w1, obs []float64) {
	const lanes = layout.Lanes
	rows := spec.Rows
	blk := m.NewBlock(spec)
	rng := kernel.NewStream(seed, spec.FirstReplicate)
	n := rows * lanes
	out := Energies{W0: make([]float64, n), W1: make([]float64, n)}
	eta0, eta1 := make([]float64, n), make([]float64, n)
	for r := 0; r < rows; r++ {
		for j := 0; j < lanes; j++ {
			t := (float64(r) + float64(j)/lanes) / float64(rows)
			eta0[r*lanes+j], eta1[r*lanes+j] = 1-t, t
		}
	}
	eta0[lanes+1], eta1[lanes+1] = -1, 0
	blk.Init(rng, initRows(rows), out)
	in := testRows(eta0, eta1)
	for s := 0; s < sweeps; s++ {
		blk.Explore(rng, in, out)
		w0, w1 = append(w0, out.W0...), append(w1, out.W1...)
	}
	for r := 0; r < rows; r++ {
		for j := 0; j < lanes; j++ {
			obs = append(obs, observe(m, blk, r, j)...)
		}
	}
	return w0, w1, obs
}

// checkPadding checks that a block of m with padding lanes gives its real
// lanes the energies and states, bit for bit, of a block without (whose
// lanes are all real), and its padding lanes finite energies or lane 0's.
func checkPadding(t *testing.T, m Model, name string, rows, sweeps int) {
	t.Helper()
	const lanes = layout.Lanes
	a0, a1, aObs := paddingRun(m, BlockSpec{FirstReplicate: 8, Rows: rows}, sweeps, 5)
	nObs := len(m.Observables())
	for _, pad := range []int{1, 3, 6, 7} {
		b0, b1, bObs := paddingRun(m, BlockSpec{FirstReplicate: 8, Rows: rows, Padding: pad}, sweeps, 5)
		real := lanes - pad
		moved := false
		for i := range a0 {
			j, row0 := i%lanes, i-i%lanes
			if j >= real {
				if !slices.Equal([]float64{b0[i], b1[i]}, []float64{b0[row0], b1[row0]}) {
					t.Fatalf("%s padding %d: energies of padding lane %d at %d are %v, %v, not lane 0's %v, %v", name, pad, j, i, b0[i], b1[i], b0[row0], b1[row0])
				}
				continue
			}
			if math.Float64bits(a0[i]) != math.Float64bits(b0[i]) || math.Float64bits(a1[i]) != math.Float64bits(b1[i]) {
				t.Fatalf("%s padding %d: energies of lane %d at %d are %v, %v, want %v, %v", name, pad, j, i, b0[i], b1[i], a0[i], a1[i])
			}
			moved = moved || (i >= len(a0)-rows*lanes && a0[i] != a0[i%(rows*lanes)])
		}
		if !moved {
			t.Errorf("%s padding %d: the real lanes' energies never moved; the comparison is empty", name, pad)
		}
		for q := 0; q < len(aObs); q += nObs {
			if j := q / nObs % lanes; j < real && !slices.Equal(aObs[q:q+nObs], bObs[q:q+nObs]) {
				t.Fatalf("%s padding %d: observables of lane %d differ: %v, want %v", name, pad, j, bObs[q:q+nObs], aObs[q:q+nObs])
			}
		}
	}
}

// TestMixturePaddingLanes checks the mixture blocks (the galaxy, K = 6,
// and the two-component mixture, K = 2) with padding lanes against
// blocks without.
func TestMixturePaddingLanes(t *testing.T) {
	checkPadding(t, NewGalaxy(), "galaxy", 6, 30)
	checkPadding(t, NewMixture(1), "mixture", 6, 30)
}

// TestFuncsPaddingLanes checks the blocks of FromFuncs (lane by lane),
// FromBatch (side by side) and a variational reference with padding
// lanes against blocks without.
func TestFuncsPaddingLanes(t *testing.T) {
	funnel, err := NewFunnel(3, 3, RandomWalk{})
	if err != nil {
		t.Fatal(err)
	}
	logistic, err := NewLogistic(SimulateLogistic(40, 2, 9), 3, MALA{})
	if err != nil {
		t.Fatal(err)
	}
	diag, err := Variational(logistic, MALA{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	checkPadding(t, funnel, "funnel", 5, 20)
	checkPadding(t, logistic, "logistic", 5, 20)
	checkPadding(t, diag, "variational logistic", 5, 20)
}
