package models_test

import (
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// multiMoves is the number of successive moves of the multi-move
// invariance test: a kernel that leaves the target invariant keeps it
// after any number of moves, and a small bias per move adds up.
const multiMoves = 10

// afterMoves is afterOneMove with moves successive moves of each of the
// invN exact draws, the draws taken one chain after another from one
// stream (one explorer state for all, no adaptation).
func afterMoves(t *testing.T, c invCase, ex models.Explorer, seed uint64, moves int) [][]float64 {
	t.Helper()
	tg, err := models.NewTarget(c.f, c.eta0, c.eta1)
	if err != nil {
		t.Fatal(err)
	}
	r := models.NewRand(seed, 0)
	st := ex.NewState(c.f.Dim)
	x, z := make([]float64, c.f.Dim), make([]float64, c.f.Dim)
	out := make([][]float64, c.f.Dim)
	for i := 0; i < invN; i++ {
		c.draw(r, x)
		w := tg.Energies(x)
		for k := 0; k < moves; k++ {
			st.Move(tg, r, x, &w)
		}
		c.whiten(x, z)
		for d, v := range z {
			out[d] = append(out[d], v)
		}
	}
	return out
}

// TestAutoStepExplorersKeepFunnelOverManyMoves is a stronger invariance
// test for the explorers whose step size depends on the state (autoMALA,
// autoHMC) and for HMC, on the 3-d funnel v ~ N(0, 3²), x_i | v ~
// N(0, e^v): multiMoves moves from each exact draw, the whitened states
// checked by moments and Kolmogorov–Smirnov as in the one-move test. A
// step-size selection that broke the involution (a selector run from the
// proposal that did not mirror the one run from the start) would show
// here as a drift of v's law.
func TestAutoStepExplorersKeepFunnelOverManyMoves(t *testing.T) {
	if testing.Short() {
		t.Skip("multi-move invariance: 20000 chains × 10 moves")
	}
	cases := invCases()
	fun := cases[len(cases)-1]
	for i, ex := range []models.Explorer{models.AutoMALA{}, models.HMC{Auto: true}, models.HMC{}} {
		checkStandardNormal(t, ex.Name()+" on the funnel, 10 moves", afterMoves(t, fun, ex, uint64(200+i), multiMoves))
	}
}
