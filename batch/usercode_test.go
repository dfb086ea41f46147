package batch

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/models"
)

// userFuncs is a 2-d model with reference N(0, I) and target N(1, I/4),
// whose LogTarget and SampleReference the test may replace.
func userFuncs() models.Funcs {
	return models.Funcs{
		Dim:          2,
		LogReference: func(x []float64) float64 { return -0.5 * (x[0]*x[0] + x[1]*x[1]) },
		LogTarget:    func(x []float64) float64 { return -2 * ((x[0]-1)*(x[0]-1) + (x[1]-1)*(x[1]-1)) },
		SampleReference: func(r models.Rand, x []float64) {
			x[0], x[1] = r.Normal(), r.Normal()
		},
	}
}

// userCfg is a small run of m on two workers (so that the failure happens
// on a worker goroutine, not the caller's) with 20 replicates in 3 blocks.
func userCfg(m models.Model) Config {
	return Config{Model: m, Chains: 6, Replicates: 20, Iterations: 400, Scans: 4, Knots: 1, Seed: 9, Workers: 2}
}

// wantCallError checks that err is a *models.CallError of function fn
// wrapping want, at a replicate and chain of the run, and returns it.
func wantCallError(t *testing.T, err error, fn string, want error, cfg Config) *models.CallError {
	t.Helper()
	var ce *models.CallError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v, want a *models.CallError", err)
	}
	if ce.Func != fn || !errors.Is(err, want) {
		t.Errorf("error %v: function %q, want %q wrapping %v", err, ce.Func, fn, want)
	}
	if ce.Replicate < 0 || ce.Replicate >= cfg.Replicates || ce.Chain < 0 || ce.Chain >= cfg.Chains {
		t.Errorf("error %v: replicate %d, chain %d outside the run's %d replicates and %d chains", err, ce.Replicate, ce.Chain, cfg.Replicates, cfg.Chains)
	}
	if msg := err.Error(); !strings.Contains(msg, fn) || !strings.Contains(msg, "replicate") || !strings.Contains(msg, "chain") {
		t.Errorf("message %q does not name the function, replicate and chain", msg)
	}
	return ce
}

// build returns FromFuncs(f, ex) or fails the test.
func build(t *testing.T, f models.Funcs, ex models.Explorer) models.Model {
	t.Helper()
	m, err := models.FromFuncs(f, ex)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestUserPanicIsAnError checks that a panic in LogTarget, raised only
// away from the reference draws (x0 > 2.5, which the target N(1, 1/4)
// reaches by exploration), ends Step with a CallError naming LogTarget,
// a replicate and a chain instead of killing the process, and that the
// engine then refuses every later Step with the same error, and a
// checkpoint.
func TestUserPanicIsAnError(t *testing.T) {
	f := userFuncs()
	target := f.LogTarget
	f.LogTarget = func(x []float64) float64 {
		if x[0] > 2.5 {
			panic("user bug")
		}
		return target(x)
	}
	f.SampleReference = func(r models.Rand, x []float64) { x[0], x[1] = min(r.Normal(), 2), r.Normal() }
	cfg := userCfg(build(t, f, models.RandomWalk{}))
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var stepErr error
	for !e.Done() && stepErr == nil {
		stepErr = e.Step(context.Background())
	}
	ce := wantCallError(t, stepErr, "LogTarget", models.ErrPanic, cfg)
	if ce.Chain == 0 {
		t.Errorf("chain 0 draws from the reference, which never panics here: %v", stepErr)
	}
	if again := e.Step(context.Background()); again != stepErr {
		t.Errorf("Step after a failure: %v, want the failure %v again", again, stepErr)
	}
	if _, err := e.MarshalBinary(); err == nil || !strings.Contains(err.Error(), "LogTarget") {
		t.Errorf("checkpoint after a failure: %v, want a refusal naming the failure", err)
	}
}

// TestUserFailuresAtInit checks the failures New meets in the initial
// reference draws: a panic in LogTarget, NaN from SampleReference, NaN
// everywhere in LogTarget, and a panic in SampleReference. The first block
// fails first at its lane 0, row 0, so the error is at replicate 0 and
// chain 0 whatever the workers' timing.
func TestUserFailuresAtInit(t *testing.T) {
	cases := []struct {
		name, fn string
		want     error
		edit     func(*models.Funcs)
	}{
		{"panic in LogTarget", "LogTarget", models.ErrPanic, func(f *models.Funcs) {
			f.LogTarget = func([]float64) float64 { panic(errors.New("boom")) }
		}},
		{"NaN from SampleReference", "SampleReference", models.ErrNotFinite, func(f *models.Funcs) {
			f.SampleReference = func(r models.Rand, x []float64) { x[0], x[1] = r.Normal(), math.NaN() }
		}},
		{"Inf from SampleReference", "SampleReference", models.ErrNotFinite, func(f *models.Funcs) {
			f.SampleReference = func(r models.Rand, x []float64) { x[0], x[1] = math.Inf(-1), r.Normal() }
		}},
		{"NaN LogTarget", "LogTarget", models.ErrNotFinite, func(f *models.Funcs) {
			f.LogTarget = func([]float64) float64 { return math.NaN() }
		}},
		{"+Inf LogReference", "LogReference", models.ErrInfDensity, func(f *models.Funcs) {
			f.LogReference = func([]float64) float64 { return math.Inf(1) }
		}},
		{"panic in SampleReference", "SampleReference", models.ErrPanic, func(f *models.Funcs) {
			f.SampleReference = func(models.Rand, []float64) { panic("no draws") }
		}},
	}
	for _, c := range cases {
		f := userFuncs()
		c.edit(&f)
		cfg := userCfg(build(t, f, models.SliceSampler{}))
		_, err := Run(context.Background(), cfg, nil)
		ce := wantCallError(t, err, c.fn, c.want, cfg)
		if ce.Replicate != 0 || ce.Chain != 0 {
			t.Errorf("%s: %v, want replicate 0, chain 0", c.name, err)
		}
	}
}

// TestUserInfDensityIsAnError checks that +Inf from LogTarget at a
// proposal (x0 > 2.5 only, never at the capped reference draws) is an
// error, not an accepted move to an infinite density.
func TestUserInfDensityIsAnError(t *testing.T) {
	f := userFuncs()
	target := f.LogTarget
	f.LogTarget = func(x []float64) float64 {
		if x[0] > 2.5 {
			return math.Inf(1)
		}
		return target(x)
	}
	f.SampleReference = func(r models.Rand, x []float64) { x[0], x[1] = min(r.Normal(), 2), r.Normal() }
	cfg := userCfg(build(t, f, models.RandomWalk{}))
	_, err := Run(context.Background(), cfg, nil)
	wantCallError(t, err, "LogTarget", models.ErrInfDensity, cfg)
}

// panicExplorer is a user explorer whose Move panics at chain 3.
type panicExplorer struct{}

func (panicExplorer) Name() string                      { return "panicky" }
func (panicExplorer) NewState(int) models.ExplorerState { return panicState{} }

type panicState struct{}

func (panicState) Move(t *models.Target, _ models.Rand, _ []float64, _ *[2]float64) {
	if t.Chain() == 3 {
		var s []int
		_ = s[t.Chain()] // an index out of range, as a user's bug would
	}
}
func (panicState) EndScan()                       {}
func (panicState) MarshalBinary() ([]byte, error) { return nil, nil }
func (panicState) UnmarshalBinary([]byte) error   { return nil }

// TestUserExplorerPanicIsAnError checks that a runtime panic inside a
// user's explorer is a CallError naming the explorer at chain 3.
func TestUserExplorerPanicIsAnError(t *testing.T) {
	cfg := userCfg(build(t, userFuncs(), panicExplorer{}))
	_, err := Run(context.Background(), cfg, nil)
	if ce := wantCallError(t, err, "explorer panicky", models.ErrPanic, cfg); ce.Chain != 3 {
		t.Errorf("%v: want chain 3", err)
	}
}

// TestInvalidProposalsAreCounted checks that NaN at proposals stays a
// rejection, counted: the reference draws integers and the target is NaN
// off the integers, so every random-walk proposal (a continuous draw) is
// invalid, the states never move from their integer draws, and every
// chain but the reference (which draws, never proposes) of every
// replicate warns at every scan.
func TestInvalidProposalsAreCounted(t *testing.T) {
	f := userFuncs()
	f.SampleReference = func(r models.Rand, x []float64) { x[0], x[1] = math.Round(r.Normal()), math.Round(r.Normal()) }
	f.LogTarget = func(x []float64) float64 {
		if x[0] != math.Round(x[0]) || x[1] != math.Round(x[1]) {
			return math.NaN()
		}
		return -0.5 * (x[0]*x[0] + x[1]*x[1])
	}
	m := build(t, f, models.RandomWalk{})
	cfg := userCfg(m)
	mustRun(t, cfg)
	c, ok := models.ProposalReport(m, cfg.Replicates)
	if !ok {
		t.Fatal("no proposal report for a FromFuncs model")
	}
	// Every iteration explores chains 1…5 of every replicate with one
	// proposal each (RandomWalk's default Moves = 1).
	want := int64(cfg.Iterations * (cfg.Chains - 1) * cfg.Replicates)
	if c.Proposals != want || c.Invalid != want {
		t.Errorf("proposals %d, invalid %d; want %d of each", c.Proposals, c.Invalid, want)
	}
	if n := cfg.Scans * (cfg.Chains - 1) * cfg.Replicates; len(c.Warnings) != n {
		t.Errorf("%d warnings, want one per scan, replicate and non-reference chain: %d", len(c.Warnings), n)
	}
	if w := c.Warnings[0]; w.Scan != 1 || w.Replicate != 0 || w.Chain != 1 || w.Proposals != cfg.Iterations/cfg.Scans {
		t.Errorf("first warning %+v, want scan 1, replicate 0, chain 1, %d proposals", w, cfg.Iterations/cfg.Scans)
	}
}

// panicModel is a built-in model whose blocks panic in their second
// Explore: a model bug that is not user code of FromFuncs.
type panicModel struct{ models.Model }

func (m panicModel) NewBlock(spec models.BlockSpec) models.Block {
	return &panicBlock{Block: m.Model.NewBlock(spec)}
}

type panicBlock struct {
	models.Block
	calls int
}

func (b *panicBlock) Explore(rng *kernel.Stream, rows models.Rows, out models.Energies) {
	if b.calls++; b.calls == 2 {
		panic("model bug")
	}
	b.Block.Explore(rng, rows, out)
}

// TestModelPanicIsAnError checks that any panic of a model in a worker is
// an error of Run naming it, not a crash.
func TestModelPanicIsAnError(t *testing.T) {
	g, err := models.NewGaussian(1, 0, 1, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), userCfg(panicModel{g}), nil)
	if err == nil || !strings.Contains(err.Error(), "model bug") {
		t.Errorf("Run: %v, want the model's panic as an error", err)
	}
}
