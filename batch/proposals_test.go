package batch

import (
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// truncated is a 2-d user model whose target is −Inf where x0 > 1 (a
// NaN there would be refused at the reference draws, which reach it):
// every proposal there is an invalid one.
func truncated(t *testing.T) models.Model {
	t.Helper()
	m, err := models.FromFuncs(models.Funcs{
		Dim:          2,
		LogReference: func(x []float64) float64 { return -(x[0]*x[0] + x[1]*x[1]) / 2 },
		LogTarget: func(x []float64) float64 {
			if x[0] > 1 {
				return math.Inf(-1)
			}
			return -(x[0]*x[0] + x[1]*x[1]) / 2
		},
		SampleReference: func(r models.Rand, x []float64) { x[0], x[1] = r.Normal(), r.Normal() },
	}, models.RandomWalk{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestProposalsCountsPerChain checks Proposals on a user model with
// RandomWalk (one proposal per move): every chain but the reference,
// whose moves are exact draws, made one proposal per iteration; the
// invalid ones are where the target has weight (chains above 0), and the
// totals equal the model's own models.ProposalReport, for 1 and 3
// workers alike.
func TestProposalsCountsPerChain(t *testing.T) {
	const chains, replicates, iterations = 6, 11, 300
	for _, workers := range []int{1, 3} {
		m := truncated(t)
		p := new(Proposals)
		cfg := Config{Model: m, Chains: chains, Replicates: replicates, Iterations: iterations, Scans: 3, Knots: 1, Seed: 5,
			Workers: workers, Statistics: []Statistic{p}}
		mustRun(t, cfg)
		if !p.Counted() {
			t.Fatal("a FromFuncs model's proposals were not counted")
		}
		props, bad := p.Proposed(), p.Invalid()
		if len(props) != replicates || len(bad) != replicates {
			t.Fatalf("%d and %d replicates, want %d", len(props), len(bad), replicates)
		}
		var sumP, sumBad int64
		for b := range props {
			for n := range props[b] {
				want := iterations // one RandomWalk move per iteration
				if n == 0 {
					want = 0 // exact reference draws
				}
				if props[b][n] != want {
					t.Errorf("workers %d: replicate %d chain %d made %d proposals, want %d", workers, b, n, props[b][n], want)
				}
				if bad[b][n] < 0 || bad[b][n] > props[b][n] {
					t.Errorf("replicate %d chain %d: %d invalid of %d", b, n, bad[b][n], props[b][n])
				}
				sumP += int64(props[b][n])
				sumBad += int64(bad[b][n])
			}
		}
		rep, _ := models.ProposalReport(m, replicates)
		if sumP != rep.Proposals || sumBad != rep.Invalid || sumBad == 0 {
			t.Errorf("workers %d: %d proposals, %d invalid; the model reports %d and %d (and some must be invalid)",
				workers, sumP, sumBad, rep.Proposals, rep.Invalid)
		}
	}
}

// TestProposalsOfOtherModels checks that a model without explorers (the
// Gaussian's exact draws) is not counted.
func TestProposalsOfOtherModels(t *testing.T) {
	g, _ := models.NewGaussian(1, -1, 1, 0.5, 0.5)
	p := new(Proposals)
	mustRun(t, Config{Model: g, Chains: 4, Replicates: 3, Iterations: 40, Scans: 2, Knots: 1, Seed: 1, Statistics: []Statistic{p}})
	if p.Counted() {
		t.Error("the Gaussian's exact draws counted as proposals")
	}
}

// TestAddProposals checks that AddProposals adds a Proposals to the
// statistics of a FromFuncs model's configuration, and nothing to the
// Gaussian's, whose configuration stays as it was.
func TestAddProposals(t *testing.T) {
	cfg := Config{Model: truncated(t)}
	if p := AddProposals(&cfg); p == nil || len(cfg.Statistics) != 1 || cfg.Statistics[0] != Statistic(p) {
		t.Errorf("FromFuncs model: AddProposals = %v, statistics %v", p, cfg.Statistics)
	}
	g, _ := models.NewGaussian(1, -1, 1, 0.5, 0.5)
	cfg = Config{Model: g}
	if p := AddProposals(&cfg); p != nil || cfg.Statistics != nil {
		t.Errorf("Gaussian: AddProposals = %v, statistics %v", p, cfg.Statistics)
	}
}
