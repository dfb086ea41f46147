package sweep

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/study"
)

// small is a Gaussian sweep of 2 dimensions × 2 knots × 2 seeds with 3
// replicates, 40 iterations in 4 scans: small enough to run in a test.
func small() *Spec {
	return &Spec{Model: "gaussian", Dims: []int{1, 2}, Chains: []int{4}, Knots: []int{1, 2}, Seeds: []uint64{1, 2},
		Replicates: 3, Iterations: 40, Scans: 4, LearningRate: 0.2, Sigma: 0.1, Mu0: -1, Mu1: 1,
		Algorithm: "nrpt", Tuning: "paper", Given: Lists{Dims: "1,2", Chains: "4", Knots: "1,2", Seeds: "1,2"}}
}

// TestSweepConfigIsThePapers checks that a Gaussian cell's configuration
// from the study machinery is the one sweep built before it had --model
// and --tuning: the paper's tuning with --scans and --lr, the schedule
// tuned for nrpt, the spline path tuned for K ≥ 2 — so the files of a
// Gaussian sweep keep their bytes. (Moved from cmd/ptbatch.)
func TestSweepConfigIsThePapers(t *testing.T) {
	s := &Spec{Model: "gaussian", Tuning: "paper", Algorithm: "nrpt", Iterations: 600, Scans: 20, LearningRate: 0.3,
		Mu0: -1, Mu1: 1, Sigma: 0.1, Replicates: 5}
	for _, cell := range []Cell{{Dim: 3, Chains: 8, Knots: 1, Seed: 2}, {Dim: 16, Chains: 60, Knots: 4, Seed: 7}} {
		got, err := s.Config(cell, 2)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := models.NewGaussian(cell.Dim, -1, 1, 0.1, 0.1)
		want := batch.Config{Model: g, Chains: cell.Chains, Replicates: 5, Algorithm: batch.NRPT, Iterations: 600, Scans: 20,
			TuneSchedule: true, Knots: cell.Knots, TunePath: cell.Knots >= 2, LearningRate: 0.3, Seed: cell.Seed, Workers: 2}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("cell %+v: %+v, want %+v", cell, got, want)
		}
	}
}

// TestCells checks the grid's order (dimension, chains, knots, then seed
// fastest), the automatic chains ⌈15√d⌉ (15, 30 and 60 for d = 1, 4 and
// 16), the reversible sweep's linear path alone and another model's one
// dimension.
func TestCells(t *testing.T) {
	s := small()
	got := s.Cells()
	want := []Cell{{1, 4, 1, 1}, {1, 4, 1, 2}, {1, 4, 2, 1}, {1, 4, 2, 2}, {2, 4, 1, 1}, {2, 4, 1, 2}, {2, 4, 2, 1}, {2, 4, 2, 2}}
	if !slices.Equal(got, want) {
		t.Errorf("cells %v, want %v", got, want)
	}
	s.Chains, s.Dims, s.Seeds = nil, []int{1, 4, 16}, []uint64{9}
	s.Algorithm = "reversible"
	if got, want := s.Cells(), []Cell{{1, 15, 1, 9}, {4, 30, 1, 9}, {16, 60, 1, 9}}; !slices.Equal(got, want) {
		t.Errorf("auto chains, reversible: %v, want %v", got, want)
	}
	s.Model, s.Chains = "betabinomial", []int{6}
	if got, want := s.Cells(), []Cell{{1, 6, 1, 9}}; !slices.Equal(got, want) {
		t.Errorf("betabinomial: %v, want %v", got, want)
	}
	if !math.IsNaN(s.Bound(got[0])) {
		t.Errorf("betabinomial bound %v, want NaN (no closed form)", s.Bound(got[0]))
	}
	p := small().Plan(small().Cells())
	if p.Units() != 8*3 || p.Runs[5].Seed != 2 || p.Runs[5].Model.Values["dim"] != 2 {
		t.Errorf("plan: %d units, run 5 %+v; want 24 units, run 5 of d = 2 and seed 2", p.Units(), p.Runs[5])
	}
}

// TestLinearBound checks Λ of the linear path against an independent
// Monte Carlo estimate: on the linear path λ(t) = ½E|V(X) − V(X')| with X,
// X' ~ N(μ_t·1, σ²I) and V = dW_t/dt = Σ_d (x_d − m̄)Δμ/σ² (m̄ the
// midpoint), the same for every t; Λ = λ. 200,000 pairs (seed 1) give Λ
// within 1%.
func TestLinearBound(t *testing.T) {
	const dim, mu0, mu1, sigma = 3, -1.0, 1.0, 0.5
	r := rand.New(rand.NewPCG(1, 2))
	const n = 200000
	sum := 0.0
	v := func() float64 {
		s := 0.0
		for d := 0; d < dim; d++ {
			x := 0.3*mu1 + 0.7*mu0 + sigma*r.NormFloat64() // t = 0.3
			s += (x - (mu0+mu1)/2) * (mu1 - mu0) / (sigma * sigma)
		}
		return s
	}
	for i := 0; i < n; i++ {
		sum += math.Abs(v() - v())
	}
	lambda := sum / n / 2
	want := 1 / (2 + 2*lambda)
	if got := LinearBound(dim, mu0, mu1, sigma); math.Abs(got-want) > 0.01*want {
		t.Errorf("LinearBound %v, Monte Carlo %v (Λ = %v)", got, want, lambda)
	}
}

// TestMeanCI checks the mean and 95% half-width of 1..5 against the
// closed form: mean 3, sd √2.5, t(0.975, 4) = 2.776445105 (Student t
// table), half-width 2.776445105·√2.5/√5; and NaN for one value.
func TestMeanCI(t *testing.T) {
	m, h := MeanCI([]float64{1, 2, 3, 4, 5})
	if want := 2.776445105 * math.Sqrt(2.5) / math.Sqrt(5); m != 3 || math.Abs(h-want) > 1e-8 {
		t.Errorf("MeanCI(1..5) = %v ± %v, want 3 ± %v", m, h, want)
	}
	if m, h := MeanCI([]float64{7}); m != 7 || !math.IsNaN(h) {
		t.Errorf("MeanCI(7) = %v ± %v, want 7 ± NaN", m, h)
	}
}

// TestSettingsRoundTrip checks that FromSettings rebuilds the Spec from
// its Settings, and refuses a setting that is not a number.
func TestSettingsRoundTrip(t *testing.T) {
	s := small()
	got, err := FromSettings(s.Settings())
	if err != nil || !reflect.DeepEqual(got, s) {
		t.Fatalf("FromSettings(Settings()) = %+v, %v; want %+v", got, err, s)
	}
	s.Chains, s.Given.Chains = nil, "auto"
	if got, err := FromSettings(s.Settings()); err != nil || got.Chains != nil {
		t.Errorf("chains auto: %+v, %v", got, err)
	}
	m := s.Settings()
	m["sigma"] = "x"
	if _, err := FromSettings(m); err == nil {
		t.Errorf("sigma %q accepted", m["sigma"])
	}
}

// runRows runs the units [lo, hi) of the sweep through study.Execute and
// returns their cells.csv rows and the values of each piece.
func runRows(t *testing.T, s *Spec, cells []Cell, lo, hi int) ([]byte, map[study.Piece]Values) {
	t.Helper()
	plan := s.Plan(cells)
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	vals := map[study.Piece]Values{}
	o := study.Options{NoLogZ: true, Result: func(pc study.Piece, res *batch.Result) error {
		rows, v := Rows(cells[pc.Run], pc.First, res, s.Bound(cells[pc.Run]))
		vals[pc] = v
		return w.WriteAll(rows)
	}}
	if _, err := study.Execute(context.Background(), &plan, plan.Range(lo, hi), o); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), vals
}

// TestMergeIsOneProcess runs the small sweep in one process and as 3
// shards of its 24 units, and checks that the shards' rows joined are the
// one process's bytes, and that Summaries of them gives the summary.csv
// rows SummaryRow gives of the one process's measured values.
func TestMergeIsOneProcess(t *testing.T) {
	s := small()
	cells := s.Cells()
	one, vals := runRows(t, s, cells, 0, 24)
	var joined [][]byte
	for _, r := range [][2]int{{0, 8}, {8, 16}, {16, 24}} {
		b, _ := runRows(t, s, cells, r[0], r[1])
		rows, err := SplitRows(append(Header(), b...))
		if err != nil {
			t.Fatal(err)
		}
		joined = append(joined, rows...)
	}
	if got := bytes.Join(joined, nil); !bytes.Equal(got, one) {
		t.Fatalf("shards' rows differ from one process's:\n%s\nwant\n%s", got, one)
	}
	sum, err := s.Summaries(cells, joined)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cells {
		want, _ := SummaryRow(c, vals[study.Piece{Run: i, First: 0, Replicates: 3}], s.Bound(c))
		if !slices.Equal(sum[i+1], want) {
			t.Errorf("cell %d: merged summary %q, measured %q", i, sum[i+1], want)
		}
	}
	joined[4], joined[5] = joined[5], joined[4]
	if _, err := s.Summaries(cells, joined); !errors.Is(err, ErrRows) {
		t.Errorf("rows out of order: %v, want ErrRows", err)
	}
	if _, err := SplitRows([]byte("dim,chains\n")); !errors.Is(err, ErrRows) {
		t.Errorf("wrong header: %v, want ErrRows", err)
	}
}

// TestFromConfig checks that FromConfig rebuilds the Spec from the JSON
// of its Settings (what a manifest records), and refuses JSON that is not
// a map of settings, and settings that FromSettings reads but that are not
// a Spec's own (a number written otherwise, "04" for 4 replicates).
func TestFromConfig(t *testing.T) {
	s := small()
	b, err := json.Marshal(s.Settings())
	if err != nil {
		t.Fatal(err)
	}
	if got, err := FromConfig(b); err != nil || !reflect.DeepEqual(got, s) {
		t.Fatalf("FromConfig = %+v, %v; want %+v", got, err, s)
	}
	if _, err := FromConfig([]byte(`[1,2]`)); err == nil {
		t.Error("a JSON list accepted")
	}
	m := s.Settings()
	m["replicates"] = "0" + m["replicates"]
	b, _ = json.Marshal(m)
	if _, err := FromConfig(b); err == nil {
		t.Errorf("replicates %q accepted", m["replicates"])
	}
}
