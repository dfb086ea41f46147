package paper

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/registry"
	"github.com/ptbatch/ptbatch/rundir"
)

// TestExperimentsArePresets checks that the experiments are the
// registry's presets in reproduce's order, and the Gaussian's exact Λ of
// the linear path, z/√π with z = (μ1 − μ0)/σ: the preset's μ0, μ1 and σ
// give z = 200 (the paper's appendix).
func TestExperimentsArePresets(t *testing.T) {
	es := Experiments()
	var names []string
	for _, e := range es {
		names = append(names, e.Name)
		if p := registry.MustPreset(e.Name); !reflect.DeepEqual(p, e.Preset) {
			t.Errorf("%s: preset %+v, want the registry's %+v", e.Name, e.Preset, p)
		}
	}
	if want := []string{"gaussian", "betabinomial", "galaxy", "mixture"}; !reflect.DeepEqual(names, want) {
		t.Errorf("experiments %v, want %v", names, want)
	}
	v := es[0].Values
	z := (v["mu1"] - v["mu0"]) / v["sigma0"]
	if got := es[0].LinearLambda; math.Abs(got-z/math.Sqrt(math.Pi)) > 1e-12 || math.Abs(z-200) > 1e-9 {
		t.Errorf("Gaussian Λ %v with z = %v, want z/√π with z = 200", got, z)
	}
	for _, e := range es[1:] {
		if !math.IsNaN(e.LinearLambda) {
			t.Errorf("%s: Λ %v, want NaN (estimated)", e.Name, e.LinearLambda)
		}
	}
}

// TestMethodConfig checks a paper method's configuration (the preset's
// scans and learning rate, the schedule tuned for NRPT, the path for
// K ≥ 2) and the automatic tuner's (batch.AutoScans scans, no learning
// rate).
func TestMethodConfig(t *testing.T) {
	e := Experiments()[1]
	m, err := e.NewModel(3)
	if err != nil {
		t.Fatal(err)
	}
	ms := Methods()
	rev := ms[0].Config(e, m, 4, 1000, 3, 2)
	want := batch.Config{Model: m, Chains: e.Chains, Replicates: 4, Algorithm: batch.Reversible, Iterations: 1000, Scans: e.Scans,
		Knots: 1, LearningRate: e.LearningRate, Seed: 3, Workers: 2}
	if !reflect.DeepEqual(rev, want) {
		t.Errorf("Reversible+Linear: %+v, want %+v", rev, want)
	}
	auto := ms[len(ms)-1].Config(e, m, 4, 1000, 3, 2)
	if auto.Tuning != batch.AutoTuning || auto.Scans != batch.AutoScans(1000) || auto.LearningRate != 0 || !auto.TunePath || auto.Knots != 4 {
		t.Errorf("ptbatch auto: %+v, want auto tuning, AutoScans(1000) scans, no learning rate, K = 4 tuned", auto)
	}
	if err := auto.Validate(); err != nil {
		t.Errorf("ptbatch auto: %v", err)
	}
}

// TestPlan checks the plan's runs: 8 methods of an experiment with the
// preset's 10 replicates (the paper's), then highdim's 9 dimensions × 2
// knots with 5, contiguous units; --replicates overrides both.
func TestPlan(t *testing.T) {
	s := Settings{Which: "all", Scale: 1, Seed: 1}
	todo, highdim, err := s.Todo()
	if err != nil || len(todo) != 4 || !highdim {
		t.Fatalf("Todo(all) = %d experiments, %v, %v", len(todo), highdim, err)
	}
	runs := s.Plan(todo[:1], true)
	if len(runs) != 8+18 || runs[0].Label != "gaussian Reversible+Linear" || runs[8].Label != "highdim d=1 K=1" || runs[25].Label != "highdim d=256 K=4" {
		t.Fatalf("plan %+v", runs)
	}
	if Units(runs) != 8*10+18*5 || runs[9].First != 8*10+5 {
		t.Errorf("units %d, run 9 first %d; want 170 and 85", Units(runs), runs[9].First)
	}
	s.Replicates = 2
	if runs := s.Plan(todo[:1], true); Units(runs) != 26*2 {
		t.Errorf("--replicates 2: %d units, want 52", Units(runs))
	}
	s.HighDims = []int{1, 16}
	if runs := s.Plan(nil, true); len(runs) != 4 || runs[3].Label != "highdim d=16 K=4" {
		t.Errorf("HighDims [1 16]: %+v", runs)
	}
	if _, _, err := (Settings{Which: "nope"}).Todo(); !errors.Is(err, ErrUnknown) {
		t.Errorf("Todo(nope): %v, want ErrUnknown", err)
	}
}

// TestScaled checks the scaled budget: the scans are kept, each scan
// keeps round(scale · iterations per scan) iterations and at least one.
func TestScaled(t *testing.T) {
	for _, c := range []struct {
		scale              float64
		iters, scans, want int
	}{{1, 50000, 500, 50000}, {0.001, 50000, 500, 500}, {0.5, 1000, 10, 500}, {0.26, 1000, 100, 300}} {
		if got := (Settings{Scale: c.scale}).Scaled(c.iters, c.scans); got != c.want {
			t.Errorf("Scaled(%d, %d) at %v = %d, want %d", c.iters, c.scans, c.scale, got, c.want)
		}
	}
}

// TestSettingsRoundTrip checks that FromSettings rebuilds the Settings
// from their Values, and refuses a bad scale and an unknown experiment.
func TestSettingsRoundTrip(t *testing.T) {
	s := Settings{Which: "betabinomial", Replicates: 3, Scale: 0.002, Seed: 18446744073709551615}
	got, err := FromSettings(s.Values())
	if err != nil || !reflect.DeepEqual(got, s) {
		t.Fatalf("FromSettings(Values()) = %+v, %v; want %+v", got, err, s)
	}
	for k, v := range map[string]string{"scale": "2", "arg0": "nope", "replicates": "-1", "seed": "x"} {
		m := s.Values()
		m[k] = v
		if _, err := FromSettings(m); err == nil {
			t.Errorf("%s %q accepted", k, v)
		}
	}
}

// TestHighDim checks the Figure 5 configuration of d = 16: ⌈15·4⌉ = 60
// chains, 500 scans, K = 4 tuned with learning rate 0.2, on the Gaussian
// pair of dimension 16.
func TestHighDim(t *testing.T) {
	g, err := HighDimModel(16)
	if err != nil {
		t.Fatal(err)
	}
	s := Settings{Scale: 0.01, Seed: 5}
	cfg := s.HighDimConfig(g, 16, 4, 1)
	want := batch.Config{Model: g, Chains: 60, Replicates: 5, Iterations: 500, Scans: 500, TuneSchedule: true, Knots: 4,
		TunePath: true, LearningRate: 0.2, Seed: 5, Workers: 1}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("d = 16: %+v, want %+v", cfg, want)
	}
	if err := cfg.Validate(); err != nil {
		t.Error(err)
	}
}

// TestFromConfig checks that FromConfig rebuilds the Settings from the
// JSON of their Values (what a manifest records), and refuses JSON that
// is not a map of settings, and a scale FromSettings reads but that is not
// the Settings' own form ("0.0020" for 0.002).
func TestFromConfig(t *testing.T) {
	s := Settings{Which: "betabinomial", Replicates: 3, Scale: 0.002, Seed: 7}
	b, err := json.Marshal(s.Values())
	if err != nil {
		t.Fatal(err)
	}
	if got, err := FromConfig(b); err != nil || !reflect.DeepEqual(got, s) {
		t.Fatalf("FromConfig = %+v, %v; want %+v", got, err, s)
	}
	if _, err := FromConfig([]byte(`"gaussian"`)); err == nil {
		t.Error("a JSON string accepted")
	}
	m := s.Values()
	m["scale"] = "0.0020"
	b, _ = json.Marshal(m)
	if _, err := FromConfig(b); err == nil {
		t.Errorf("scale %q accepted", m["scale"])
	}
}

// TestRunWithin checks the shares of reproduce's runs over shards: for 1
// to 7 shards of the 26-run plan of TestPlan (rundir.Share's contiguous
// ranges of its 170 units), each run's replicates are covered once, in
// order, by the shards that hold any, and a shard's shares add up to its
// units.
func TestRunWithin(t *testing.T) {
	s := Settings{Which: "gaussian", Scale: 1, Seed: 1}
	todo, _, err := s.Todo()
	if err != nil {
		t.Fatal(err)
	}
	runs := s.Plan(todo, true)
	units := Units(runs)
	for n := 1; n <= 7; n++ {
		next := make([]int, len(runs)) // each run's next replicate
		for i := 1; i <= n; i++ {
			first, end := rundir.Share(i, n, units)
			held := 0
			for k, r := range runs {
				lo, hi := r.Within(first, end)
				if lo == hi {
					continue
				}
				if lo != next[k] {
					t.Fatalf("%d shards: shard %d holds run %d from replicate %d, want %d", n, i, k, lo, next[k])
				}
				next[k], held = hi, held+hi-lo
			}
			if held != end-first {
				t.Errorf("%d shards: shard %d holds %d replicates, want its %d units", n, i, held, end-first)
			}
		}
		for k, r := range runs {
			if next[k] != r.Replicates {
				t.Errorf("%d shards: run %d covered to %d of %d", n, k, next[k], r.Replicates)
			}
		}
	}
}

// TestMethodsAtOnce checks when an experiment's methods run at the same
// time: never on one worker, nor when every run's blocks are full and
// divide evenly among the workers; otherwise as many as workers, at most
// the 8 methods.
func TestMethodsAtOnce(t *testing.T) {
	for _, c := range []struct{ reps, workers, want int }{
		{10, 1, 1}, {16, 2, 1}, {32, 4, 1}, {64, 2, 1},
		{10, 2, 2}, {8, 2, 2}, {24, 2, 2}, {3, 4, 4}, {10, 16, 8},
	} {
		if got := methodsAtOnce(c.reps, c.workers); got != c.want {
			t.Errorf("methodsAtOnce(%d, %d) = %d, want %d", c.reps, c.workers, got, c.want)
		}
	}
}

// TestSplitPacks checks how an experiment's seven paper methods are
// split into packed jobs: with 10 replicates each, 4 and 3 methods (5
// and 4 blocks, the 9 of one pack) on 2 or 4 workers and one pack on 1;
// with 1 or 3 replicates one pack, since a split would take more blocks
// (7 lanes in 1 block, 21 in 3); with 2, 4 and 3 methods (8 and 6 lanes).
func TestSplitPacks(t *testing.T) {
	for _, c := range []struct {
		reps, workers int
		want          []int
	}{{10, 2, []int{4, 3}}, {10, 4, []int{4, 3}}, {10, 1, []int{7}}, {1, 2, []int{7}}, {3, 2, []int{7}}, {2, 2, []int{4, 3}}} {
		var members []*job
		for range 7 {
			members = append(members, &job{p: slot{cfg: batch.Config{Replicates: c.reps}}})
		}
		var got []int
		for _, g := range splitPacks(members, c.workers) {
			got = append(got, len(g))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%d replicates, %d workers: groups of %v methods, want %v", c.reps, c.workers, got, c.want)
		}
	}
}
