package batch

import (
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/models"
)

// brokenModel wraps the Gaussian and overwrites the energies of chain
// broken with NaN (W0) and -Inf (W1), as a model with an invalid state
// would.
type brokenModel struct {
	*models.Gaussian
	broken int
}

type brokenBlock struct {
	models.Block
	broken int
}

func (m brokenModel) NewBlock(spec models.BlockSpec) models.Block {
	return brokenBlock{m.Gaussian.NewBlock(spec), m.broken}
}

func (b brokenBlock) Explore(rng *kernel.Stream, rows models.Rows, out models.Energies) {
	b.Block.Explore(rng, rows, out)
	for j := 0; j < lanes; j++ {
		out.W0[b.broken*lanes+j] = math.NaN()
		out.W1[b.broken*lanes+j] = math.Inf(-1)
	}
}

// TestNonFiniteEnergiesAreRejections checks that NaN and -Inf log densities
// make every swap touching that chain a rejection (r = 1), counted, with no
// crash, and leave the other pairs alone.
func TestNonFiniteEnergiesAreRejections(t *testing.T) {
	g, _ := models.NewGaussian(1, -1, 1, 0.5, 0.5)
	cfg := Config{Model: brokenModel{g, 3}, Chains: 8, Replicates: 8, Iterations: 200, Scans: 2, Knots: 1, Seed: 1}
	res := mustRun(t, cfg)
	sum := res.Summary()
	for n, r := range sum.Rejection {
		touches := n == 2 || n == 3
		if touches && r != 1 {
			t.Errorf("pair %d touches the broken chain: rejection %v, want 1", n, r)
		}
		if !touches && !(r < 1) {
			t.Errorf("pair %d: rejection %v, want < 1", n, r)
		}
	}
	if sum.RoundTripRate != 0 {
		t.Errorf("round trips through a chain that rejects everything: rate %v", sum.RoundTripRate)
	}
}
