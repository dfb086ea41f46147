package study

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
)

// testPlan is a small plan: the Gaussian with d = 1 and σ = 0.1 (so a few
// hundred iterations give round trips) and d = 2 as a grid value, the
// linear path with the paper's tuning against the default automatic
// tuner, two seeds, 5 replicates (not a multiple of the 8 lanes, so pieces
// cut blocks), 400 iterations.
func testPlan() Plan {
	specs := []ModelSpec{
		{Name: registry.Gaussian, Values: registry.Values{"sigma0": 0.1, "sigma1": 0.1}, Grid: []Axis{{"dim", "1"}}},
		{Name: registry.Gaussian, Values: registry.Values{"dim": 2, "sigma0": 0.1, "sigma1": 0.1}, Grid: []Axis{{"dim", "2"}}},
	}
	methods := []Method{
		{Label: "NRPT+Linear", Tuning: "paper", Chains: 10, Scans: 10},
		{Label: "auto", Chains: 10},
	}
	return NewPlan("test", specs, methods, []uint64{1, 2}, 400, 5)
}

// TestShardsCoverEveryUnitOnce checks that shards 1..n of a plan hold
// every run × replicate unit exactly once and contiguously, for n from 1
// to one more than the units (so that some shards are empty).
func TestShardsCoverEveryUnitOnce(t *testing.T) {
	p := testPlan()
	u := p.Units() // 2 specs × 2 methods × 2 seeds × 5 replicates = 40
	if u != 40 {
		t.Fatalf("Units = %d, want 40", u)
	}
	for n := 1; n <= u+1; n++ {
		var all []Piece
		for i := 1; i <= n; i++ {
			pcs, err := p.Shard(i, n)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, pcs...)
		}
		next := map[int]int{}
		for _, pc := range all {
			if pc.First != next[pc.Run] || pc.Replicates < 1 {
				t.Fatalf("n = %d: piece %+v does not continue run %d at replicate %d", n, pc, pc.Run, next[pc.Run])
			}
			next[pc.Run] += pc.Replicates
		}
		for r := range p.Runs {
			if next[r] != 5 {
				t.Fatalf("n = %d: run %d has %d of its 5 replicates", n, r, next[r])
			}
		}
	}
	if _, err := p.Shard(4, 3); err == nil {
		t.Error("shard 4/3 was accepted")
	}
}

// writeAll returns the bytes of the cells and the summary of cells.
func writeAll(t *testing.T, p *Plan, cells []Cell) []byte {
	var b bytes.Buffer
	sums := Summarize(cells)
	if err := errors.Join(WriteCells(&b, p, cells), WriteSummary(&b, p, sums), WriteSummaryJSON(&b, p, sums)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestShardsMergeToOneProcess runs the plan in one process and as 3
// shards (with 1 and 2 workers, which must not matter), merges the
// shards' cells after a round trip through their CSV, and checks that the
// cells and the written files are the same bits.
func TestShardsMergeToOneProcess(t *testing.T) {
	p := testPlan()
	one, shards := oneAndShards(t, &p)
	merged, err := Merge(&p, shards[2], shards[0], shards[1]) // any order
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, merged) {
		t.Fatal("merged cells differ from one process's")
	}
	if !bytes.Equal(writeAll(t, &p, one), writeAll(t, &p, merged)) {
		t.Error("merged files differ from one process's")
	}
	if _, err := Merge(&p, shards[0], shards[1]); err == nil {
		t.Error("a merge without shard 3 was accepted")
	}
	if _, err := Merge(&p, shards[0], shards[0], shards[1], shards[2]); err == nil {
		t.Error("a merge with shard 1 twice was accepted")
	}
}

// oneAndShards runs p in one process (1 worker) and as shards 1..3 of 3
// (2 workers), and returns the one process's cells and each shard's cells
// after a round trip through their CSV.
func oneAndShards(t *testing.T, p *Plan) (one []Cell, shards [][]Cell) {
	t.Helper()
	one, err := Execute(context.Background(), p, p.Pieces(), Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		pcs, _ := p.Shard(i, 3)
		cs, err := Execute(context.Background(), p, pcs, Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteCells(&b, p, cs); err != nil {
			t.Fatal(err)
		}
		back, err := ReadCells(&b, p)
		if err != nil {
			t.Fatal(err)
		}
		shards = append(shards, back)
	}
	return one, shards
}

// memCheckpoints is an in-memory Checkpoints.
type memCheckpoints map[string][]byte

func (m memCheckpoints) Save(k string, d []byte) error { m[k] = append([]byte(nil), d...); return nil }
func (m memCheckpoints) Load(k string) ([]byte, error) { return m[k], nil }

// TestInterruptAndResume interrupts a study from its progress callback
// (at scan 3 of its third piece, so two pieces are done and one is
// checkpointed mid-way), resumes it with the finished pieces' cells
// (Skip) and the checkpoint, and checks that the cells are those of an
// uninterrupted run, bit for bit.
func TestInterruptAndResume(t *testing.T) {
	p := testPlan()
	pcs, _ := p.Shard(1, 2)
	want, err := Execute(context.Background(), &p, pcs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ck := memCheckpoints{}
	done := map[Piece][]Cell{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := Options{Checkpoints: ck, CheckpointEvery: 2,
		Done: func(pc Piece, cs []Cell) error { done[pc] = cs; return nil },
		Skip: func(pc Piece) ([]Cell, bool, error) { cs, ok := done[pc]; return cs, ok, nil },
		Progress: func(pr Progress) {
			if pr.Piece == 2 && pr.Scan == 3 {
				cancel()
			}
		}}
	_, err = Execute(ctx, &p, pcs, o)
	if !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.Canceled) || len(done) != 2 || ck[CheckpointKey(pcs[2])] == nil {
		t.Fatalf("interrupted: %v, %d pieces done, checkpoint %v; want ErrInterrupted, 2, a checkpoint of piece 3", err, len(done), ck[CheckpointKey(pcs[2])] != nil)
	}
	o.Progress = nil
	got, err := Execute(context.Background(), &p, pcs, o)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("the resumed study's cells differ from the uninterrupted one's")
	}
}

// TestMethodDefaultsAreDefaultConfig checks that a Method with only a
// label runs batch.DefaultConfig, and that the paper's tuning takes the
// paper's 150 scans and the linear path.
func TestMethodDefaultsAreDefaultConfig(t *testing.T) {
	m, _ := models.NewGaussian(1, -1, 1, 0.01, 0.01)
	run := Run{Model: ModelSpec{Name: registry.Gaussian}, Method: Method{Label: "default"}, Seed: batch.DefaultSeed,
		Iterations: 3000, Replicates: batch.DefaultReplicates}
	got, err := run.Config(m)
	if err != nil {
		t.Fatal(err)
	}
	if want := batch.DefaultConfig(m, 3000); !reflect.DeepEqual(got, want) {
		t.Errorf("Config = %+v, want DefaultConfig %+v", got, want)
	}
	run.Method.Tuning = "paper"
	run.Iterations = 45000
	if got, err = run.Config(m); err != nil || got.Scans != 150 || got.Knots != 1 || got.TunePath || got.Tuning != batch.PaperTuning {
		t.Errorf("paper: %v, scans %d, knots %d; want 150 scans on the linear path", err, got.Scans, got.Knots)
	}
	run.Method.Algorithm = "sideways"
	if _, err := run.Config(m); err == nil {
		t.Error("algorithm sideways was accepted")
	}
}

// TestIntervalKnownAnswer checks the interval of 1..5 against its closed
// form: mean 3, s = √2.5, t_{0.975, 4} = 2.7764451051977987 (the t table's
// 2.776), half-width 2.7764451051977987·√2.5/√5 = 1.9632431614775607, so
// (1.0367568385224393, 4.963243161477561).
func TestIntervalKnownAnswer(t *testing.T) {
	iv := interval([]float64{1, 2, 3, 4, 5})
	if iv.Mean != 3 || math.Abs(iv.Lo-1.0367568385224393) > 1e-12 || math.Abs(iv.Hi-4.963243161477561) > 1e-12 {
		t.Errorf("interval(1..5) = %+v, want 3 in (1.0367568385224393, 4.963243161477561)", iv)
	}
	if iv := interval([]float64{7}); iv.Mean != 7 || !math.IsNaN(iv.Lo) {
		t.Errorf("interval of one value = %+v, want 7 and NaN bounds", iv)
	}
}

// TestIntervalCoverage draws 4000 samples of 5 normal values (PCG seed
// 1, 2) and counts how often the interval holds the true mean 0: Student's
// interval is exact for normal data, so the count is Binomial(4000,
// 0.95) with sd √(4000·0.95·0.05) = 13.8; ±5 sd is [3731, 3869].
func TestIntervalCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	hits := 0
	for range 4000 {
		xs := make([]float64, 5)
		for i := range xs {
			xs[i] = rng.NormFloat64()
		}
		if iv := interval(xs); iv.Lo <= 0 && 0 <= iv.Hi {
			hits++
		}
	}
	if hits < 3731 || hits > 3869 {
		t.Errorf("the 95%% interval held the mean in %d of 4000 samples, want 3800 ± 69", hits)
	}
}

// TestPlanJSONRoundTrip checks that ReadPlan reads back what WritePlan
// wrote.
func TestPlanJSONRoundTrip(t *testing.T) {
	p := testPlan()
	on := true
	p.Runs[0].Method.TuneSchedule = &on
	var b bytes.Buffer
	if err := WritePlan(&b, &p); err != nil {
		t.Fatal(err)
	}
	q, err := ReadPlan(&b)
	if err != nil || !reflect.DeepEqual(&p, q) {
		t.Errorf("ReadPlan: %v; the plan differs", err)
	}
}

// TestReadCellsRefusesAnotherPlan checks that cells written for one plan
// are refused when read for a plan whose run 0 has another seed.
func TestReadCellsRefusesAnotherPlan(t *testing.T) {
	p := testPlan()
	cells := []Cell{{Run: 0, Replicate: 1, RoundTrips: 3, TailRate: 0.25, Barrier: 1.5, LogZ: -0.5}}
	var b bytes.Buffer
	if err := WriteCells(&b, &p, cells); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if got, err := ReadCells(strings.NewReader(text), &p); err != nil || !reflect.DeepEqual(got, cells) {
		t.Fatalf("ReadCells of its own plan: %v, %v", got, err)
	}
	q := testPlan()
	q.Runs[0].Seed = 99
	if _, err := ReadCells(strings.NewReader(text), &q); err == nil {
		t.Error("cells of seed 1 were read for a plan of seed 99")
	}
}

// TestResultHookSeesEachPiece checks that Options.Result receives every
// piece's engine result, with the piece's replicates, and that the cells
// Execute returns are those results' round trips.
func TestResultHookSeesEachPiece(t *testing.T) {
	p := testPlan()
	pcs, _ := p.Shard(2, 3)
	var trips []int
	o := Options{Result: func(pc Piece, res *batch.Result) error {
		if res.Config.FirstReplicate != pc.First || res.Config.Replicates != pc.Replicates || res.Interrupted {
			t.Errorf("piece %+v: result of replicates %d+%d", pc, res.Config.FirstReplicate, res.Config.Replicates)
		}
		trips = append(trips, res.RoundTrips...)
		return nil
	}}
	cells, err := Execute(context.Background(), &p, pcs, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(trips) != len(cells) {
		t.Fatalf("%d round trips from the results, %d cells", len(trips), len(cells))
	}
	for i, c := range cells {
		if c.RoundTrips != trips[i] {
			t.Errorf("cell %d: %d round trips, the result has %d", i, c.RoundTrips, trips[i])
		}
	}
}

// TestNoLogZChangesNothingElse checks that leaving the log Z estimate out
// (Options.NoLogZ) gives NaN log Z and the same round trips, rates and
// barriers bit for bit: a statistic observes and draws nothing.
func TestNoLogZChangesNothingElse(t *testing.T) {
	p := testPlan()
	pcs, _ := p.Shard(1, 4)
	with, err := Execute(context.Background(), &p, pcs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	without, err := Execute(context.Background(), &p, pcs, Options{NoLogZ: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := range with {
		w, o := with[i], without[i]
		if !math.IsNaN(o.LogZ) || math.IsNaN(w.LogZ) {
			t.Fatalf("cell %d: log Z %v with, %v without", i, w.LogZ, o.LogZ)
		}
		w.LogZ, o.LogZ = 0, 0
		if w != o {
			t.Errorf("cell %d: %+v with log Z, %+v without", i, w, o)
		}
	}
}
