package batch

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/diag"
	"github.com/ptbatch/ptbatch/models"
)

// TestDiagnosticsExactSamplers checks the multi-chain diagnostics of the
// models whose local moves are exact draws (models.Exact): every kept
// target state is then an independent draw of π_1 (a fresh draw, or one
// swapped in from the neighbour chain, accepted so as to keep π_1), so
// R-hat is near 1 and the bulk-ESS near the number of draws. 8 replicates
// × 2,000 kept iterations = 16,000 draws: for independent draws the
// bulk-ESS's relative standard deviation is about 2 % and R-hat's excess
// over 1 about 0.0001 ± 0.00014 (package diag's TestSpread, 8 chains of
// 2,000), so R-hat < 1.01 (the paper's threshold) and a 10 % tolerance on
// the ESS are five standard deviations or more. The Gaussian's observable
// is its first coordinate, the Beta-binomial's the success probability.
func TestDiagnosticsExactSamplers(t *testing.T) {
	g, err := models.NewGaussian(1, -1, 1, 0.3, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	bb, err := models.NewBetaBinomial(180, 840, 140000, 60000)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		model models.Model
	}{{"gaussian", g}, {"betabinomial", bb}} {
		d := new(Diagnostics)
		cfg := Config{Model: c.model, Chains: 20, Replicates: 8, Iterations: 4000, Scans: 4, TuneSchedule: true, Knots: 1, Seed: 5,
			Statistics: []Statistic{d}}
		mustRun(t, cfg)
		sums, errs := d.Summaries()
		if len(sums) != 1 || errs[0] != nil {
			t.Fatalf("%s: %d summaries, error %v", c.name, len(sums), errs)
		}
		s := sums[0]
		const draws = 8 * 2000 // replicates × the kept (last half) iterations
		if s.Chains*s.Draws != draws {
			t.Fatalf("%s: %d chains of %d draws, want %d draws", c.name, s.Chains, s.Draws, draws)
		}
		if s.Rhat >= 1.01 {
			t.Errorf("%s: R-hat %.4f, want < 1.01", c.name, s.Rhat)
		}
		if math.Abs(s.ESSBulk/draws-1) > 0.1 {
			t.Errorf("%s: bulk-ESS %.0f, want %d ± 10%%", c.name, s.ESSBulk, draws)
		}
		t.Logf("%s: R-hat %.5f, bulk-ESS %.0f, tail-ESS %.0f of %d draws", c.name, s.Rhat, s.ESSBulk, s.ESSTail, draws)
	}
}

// TestDiagnosticsErrors checks that a run with one replicate, or too few
// kept states, gives the diag error, not NaN.
func TestDiagnosticsErrors(t *testing.T) {
	g, _ := models.NewGaussian(1, -1, 1, 0.3, 0.3)
	for _, c := range []struct {
		replicates, iterations int
		want                   error
	}{{1, 400, diag.ErrTooFewChains}, {2, 20, diag.ErrTooFewDraws}} {
		d := new(Diagnostics)
		mustRun(t, Config{Model: g, Chains: 5, Replicates: c.replicates, Iterations: c.iterations, Scans: 2, Seed: 1, Statistics: []Statistic{d}})
		if _, errs := d.Summaries(); len(errs) != 1 || !errors.Is(errs[0], c.want) {
			t.Errorf("%d replicates, %d iterations: errors %v, want %v", c.replicates, c.iterations, errs, c.want)
		}
	}
}

// TestDiagnosticsMatchSamples checks that the draws kept are those Samples
// writes, for a model with two observables and Observables = 1, and that
// a checkpoint of the statistic restores them.
func TestDiagnosticsMatchSamples(t *testing.T) {
	g, _ := models.NewGaussian(2, -1, 1, 0.3, 0.3)
	d := &Diagnostics{Observables: 1, Thin: 3}
	want := make([][]float64, 3)
	s := &Samples{Thin: 3, Write: func(b, _ int, x []float64) error {
		want[b] = append(want[b], x[0])
		return nil
	}}
	mustRun(t, Config{Model: g, Chains: 6, Replicates: 3, Iterations: 600, Scans: 3, Seed: 2, Statistics: []Statistic{d, s}})
	if d.Kept() != 1 || !slices.EqualFunc(d.Draws(0), want, slices.Equal) {
		t.Fatalf("kept %d observables; draws differ from Samples'", d.Kept())
	}
	data, err := d.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var r Diagnostics
	if err := r.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(r.Draws(0), want, slices.Equal) || r.samples.rows != s.Rows() {
		t.Errorf("restored draws or rows (%d, want %d) differ", r.samples.rows, s.Rows())
	}
}

// TestErrorBars checks ErrorBars on independent normal draws, where both
// standard errors estimate σ/√(R·n): with 64 replicates of 1,000 draws
// the between-replicate one has a relative standard deviation of
// 1/√(2·63) ≈ 9 %, the per-replicate one (a sum over 64 batch-means
// estimates) about 1 %, so their ratio is within 30 % of 1 (three standard
// deviations); and on replicates shifted apart, where only the between
// one sees the shift.
func TestErrorBars(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	draws := func(shift float64) [][]float64 {
		out := make([][]float64, 64)
		for b := range out {
			out[b] = make([]float64, 1000)
			for i := range out[b] {
				out[b][i] = rng.NormFloat64() + shift*float64(b%2)
			}
		}
		return out
	}
	d := &Diagnostics{draws: [][][]float64{draws(0), draws(1)}}
	per, between := d.ErrorBars(0)
	if want := 1 / math.Sqrt(64*1000); math.Abs(per/want-1) > 0.05 || math.Abs(between/per-1) > 0.3 {
		t.Errorf("i.i.d.: per-replicate se %.5f, between %.5f; want both near %.5f", per, between, want)
	}
	per, between = d.ErrorBars(1)
	if between < 3*per {
		t.Errorf("replicates 1 apart: between se %.5f, per-replicate %.5f; want the between 3× larger", between, per)
	}
}

// TestKeepDraws checks the bounded store on the series 0, 1, …, n−1: what
// it keeps is every S-th state from the first, S the least power of two
// with ⌈n/S⌉ < 2·max (it halves on reaching 2·max), so between max and
// 2·max−1 states once n ≥ max; all of them for max = 0.
func TestKeepDraws(t *testing.T) {
	for _, c := range []struct{ n, max int }{{10, 0}, {10, 5}, {9, 5}, {1000, 5}, {1023, 16}, {1024, 16}, {3, 5}} {
		x := make([]float64, c.n)
		for i := range x {
			x[i] = float64(i)
		}
		got := KeepDraws(x, c.max)
		s := 1
		for c.max > 0 && (c.n+s-1)/s >= 2*c.max {
			s *= 2
		}
		var want []float64
		for i := 0; i < c.n; i += s {
			want = append(want, float64(i))
		}
		if !slices.Equal(got, want) {
			t.Errorf("n %d, max %d: kept %v, want every %d-th: %v", c.n, c.max, got, s, want)
		}
	}
}

// TestDiagnosticsMaxDraws checks that a Diagnostics with MaxDraws keeps
// what KeepDraws keeps of the states Samples writes, and that a
// checkpoint restores the store and goes on the same way.
func TestDiagnosticsMaxDraws(t *testing.T) {
	g, _ := models.NewGaussian(1, -1, 1, 0.3, 0.3)
	cfg := Config{Model: g, Chains: 6, Replicates: 3, Iterations: 1200, Scans: 4, Seed: 2}
	all := make([][]float64, 3)
	s := &Samples{Write: func(b, _ int, x []float64) error {
		all[b] = append(all[b], x[0])
		return nil
	}}
	d := &Diagnostics{MaxDraws: 70}
	cfg.Statistics = []Statistic{d, s}
	mustRun(t, cfg)
	for b, x := range all {
		if got, want := d.Draws(0)[b], KeepDraws(x, 70); !slices.Equal(got, want) || len(got) < 70 || len(got) >= 140 {
			t.Fatalf("replicate %d: kept %d states, KeepDraws %d of %d", b, len(got), len(want), len(x))
		}
	}
	// Stop after 3 scans, checkpoint, restore, finish: the same draws.
	d2 := &Diagnostics{MaxDraws: 70}
	cfg.Statistics = []Statistic{d2}
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for e.Scans() < 3 {
		if err := e.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	data, err := e.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	d3 := &Diagnostics{MaxDraws: 70}
	cfg.Statistics = []Statistic{d3}
	e2, err := Restore(cfg, data)
	if err != nil {
		t.Fatal(err)
	}
	for !e2.Done() {
		if err := e2.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.EqualFunc(d3.Draws(0), d.Draws(0), slices.Equal) {
		t.Error("draws after a checkpoint differ from the uninterrupted run's")
	}
}
