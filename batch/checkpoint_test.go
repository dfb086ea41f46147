package batch

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// stopAt is a Statistic whose observers cancel a context when the block of
// replicates 8–15 reaches iteration at: an interrupt within a scan, with
// (one worker, blocks in order) block 0 past the scan's end, block 1 in
// it and block 2 not yet started. It has no state to save.
type stopAt struct {
	at     int
	cancel func()
}

func (s *stopAt) NewObserver(BlockInfo) Observer { return s }
func (s *stopAt) Iterate(v *View) {
	if v.Iteration == s.at && v.FirstReplicate() == 8 && s.cancel != nil {
		s.cancel()
	}
}
func (s *stopAt) EndScan(*View)                  {}
func (s *stopAt) MarshalBinary() ([]byte, error) { return nil, nil }
func (s *stopAt) UnmarshalBinary([]byte) error   { return nil }

// statSet is one of every statistic of the package, with in-memory
// writers, and the stopAt of the run.
type statSet struct {
	stop     *stopAt
	samples  *Samples
	rows     []string
	moments  *TargetMoments
	logz     *LogZ
	profile  *BarrierProfile
	restarts *Restarts
	index    *IndexProcess
	records  []string
	ess      *ESS
	props    *Proposals
}

func newStatSet() *statSet {
	s := &statSet{stop: &stopAt{}, moments: new(TargetMoments), logz: new(LogZ), profile: &BarrierProfile{Points: 11},
		restarts: new(Restarts), ess: new(ESS), props: new(Proposals)}
	s.samples = &Samples{Thin: 3, Write: func(b, m int, x []float64) error {
		s.rows = append(s.rows, fmt.Sprint(b, m, x))
		return nil
	}}
	s.index = &IndexProcess{Replicas: []int{0, 2}, Thin: 7, Write: func(b, m int, chains []int) error {
		s.records = append(s.records, fmt.Sprint(b, m, chains))
		return nil
	}}
	return s
}

func (s *statSet) list() []Statistic {
	return []Statistic{s.stop, s.samples, s.moments, s.logz, s.profile, s.restarts, s.index, s.ess, s.props}
}

// report returns everything the statistics report, as text that shows
// every float64 in its shortest exact form (NaN as NaN).
func (s *statSet) report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "moments %v %v\n", s.moments.Means(), s.moments.Vars())
	fmt.Fprintf(&b, "logz %d %v %v %v\n", s.logz.Scan(), s.logz.Forward(), s.logz.Reverse(), s.logz.Estimates())
	fmt.Fprintf(&b, "profile %d %v %v %v %v %v\n", s.profile.Scan(), s.profile.Grid(), s.profile.Cumulative(),
		s.profile.Local(), s.profile.Schedules(), s.profile.Rejections())
	fmt.Fprintf(&b, "restarts %v %v %v %v\n", s.restarts.Counts(), s.restarts.ScanCounts(), s.restarts.Rates(), s.restarts.ScanRates())
	fmt.Fprintf(&b, "ess %v %d\n", s.ess.Values(), s.ess.Draws())
	fmt.Fprintf(&b, "proposals %v %v %v\n", s.props.Counted(), s.props.Proposed(), s.props.Invalid())
	fmt.Fprintf(&b, "rows %d records %d\n", s.samples.Rows(), s.index.Records())
	return b.String()
}

// resultText returns the result without its configuration and timings.
func resultText(r *Result) string {
	c := *r
	c.Config = Config{}
	c.Elapsed, c.TuningFraction = 0, 0
	return fmt.Sprintf("%+v", c)
}

// runAll steps e to its end.
func runAll(t *testing.T, e *Engine) {
	t.Helper()
	for !e.Done() {
		if err := e.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

func newEngine(t *testing.T, cfg Config) *Engine {
	t.Helper()
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// checkResume runs base uninterrupted on 2 workers; then on 1 worker up to
// the end of scan stopScan, or to iteration stopIter of the next scan of
// the second block when stopIter > 0 (the first past that scan's end, the
// third not yet in it), takes a checkpoint, restores it on 3 workers with
// new statistics and finishes the run. The Result, every statistic and
// the rows written before the checkpoint followed by those written after
// it must equal the uninterrupted run's bit for bit; so must the
// checkpointed engine's own continuation, and a checkpoint of the finished
// run restores to the same Result.
func checkResume(t *testing.T, base Config, stopScan, stopIter int) {
	t.Helper()
	want := newStatSet()
	cfg := base
	cfg.Workers, cfg.Statistics = 2, want.list()
	e := newEngine(t, cfg)
	runAll(t, e)
	wantRes := resultText(e.Result())

	first := newStatSet()
	cfg.Workers, cfg.Statistics = 1, first.list()
	e1 := newEngine(t, cfg)
	for e1.Scans() < stopScan {
		if err := e1.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if stopIter > 0 {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		first.stop.at, first.stop.cancel = stopScan*e1.perScan+stopIter, cancel
		if err := e1.Step(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted step: %v", err)
		}
		if e1.blocks[0].scans != stopScan+1 || e1.blocks[1].pos != stopIter || e1.blocks[2].pos != 0 || e1.blocks[2].scans != stopScan {
			t.Fatalf("blocks not where the test wants them: %d/%d, %d/%d, %d/%d", e1.blocks[0].scans, e1.blocks[0].pos,
				e1.blocks[1].scans, e1.blocks[1].pos, e1.blocks[2].scans, e1.blocks[2].pos)
		}
		first.stop.cancel = nil
	}
	data, err := e1.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	atCheckpoint := resultText(e1.Result())
	rowsBefore := slices.Clone(first.rows[:first.samples.Rows()])
	recordsBefore := slices.Clone(first.records[:first.index.Records()])

	second := newStatSet()
	cfg.Workers, cfg.Statistics = 3, second.list()
	e2, err := Restore(cfg, data)
	if err != nil {
		t.Fatal(err)
	}
	if got := resultText(e2.Result()); got != atCheckpoint {
		t.Errorf("restored result differs from the checkpointed one:\n%s\nwant\n%s", got, atCheckpoint)
	}
	runAll(t, e2)
	if got := resultText(e2.Result()); got != wantRes {
		t.Errorf("resumed result differs from the uninterrupted one:\n%s\nwant\n%s", got, wantRes)
	}
	if got, w := second.report(), want.report(); got != w {
		t.Errorf("resumed statistics differ:\n%s\nwant\n%s", got, w)
	}
	if got := append(rowsBefore, second.rows...); !slices.Equal(got, want.rows) {
		t.Errorf("samples: %d rows before the checkpoint and %d after, %d uninterrupted, or different values", len(rowsBefore), len(second.rows), len(want.rows))
	}
	if got := append(recordsBefore, second.records...); !slices.Equal(got, want.records) {
		t.Errorf("index process: %d records before the checkpoint and %d after, %d uninterrupted, or different values", len(recordsBefore), len(second.records), len(want.records))
	}

	runAll(t, e1)
	if got := resultText(e1.Result()); got != wantRes {
		t.Errorf("the checkpointed engine's own continuation differs from the uninterrupted run")
	}
	if got, w := first.report(), want.report(); got != w {
		t.Errorf("the checkpointed engine's statistics differ:\n%s\nwant\n%s", got, w)
	}

	done, err := e2.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Statistics = newStatSet().list()
	e3, err := Restore(cfg, done)
	if err != nil {
		t.Fatal(err)
	}
	if !e3.Done() || resultText(e3.Result()) != wantRes {
		t.Errorf("a checkpoint of the finished run restores to done=%v and another result", e3.Done())
	}
}

// TestCheckpointResumesBitForBit checks, for every built-in model and the
// engine's variants (tuned spline path with the block and the full
// gradient, reversible PT, a user model with adapted step sizes), that a
// run checkpointed at a scan's end or within a scan and restored on
// another number of workers ends exactly as the uninterrupted run: Result,
// every statistic, samples and index-process records (checkResume).
func TestCheckpointResumesBitForBit(t *testing.T) {
	g, _ := models.NewGaussian(2, -1, 1, 0.3, 0.3)
	bb, _ := models.NewBetaBinomial(180, 840, 140000, 60000)
	spline := Config{Chains: 10, Replicates: 20, Iterations: 1200, Scans: 6, TuneSchedule: true,
		Knots: 3, TunePath: true, LearningRate: 0.3, Seed: 31}
	cases := []struct {
		name string
		cfg  Config
	}{
		{"gaussian/spline", spline},
		{"gaussian/full-gradient", spline},
		{"gaussian/reversible", Config{Chains: 7, Replicates: 17, Algorithm: Reversible, Iterations: 600, Scans: 4, Seed: 5}},
		{"betabinomial", spline},
		{"galaxy", Config{Chains: 5, Replicates: 17, Iterations: 60, Scans: 3, TuneSchedule: true, Knots: 2, TunePath: true, LearningRate: 0.2, Seed: 7}},
		{"funcs/random-walk", spline},
		{"funcs/slice", Config{Chains: 6, Replicates: 17, Iterations: 300, Scans: 3, TuneSchedule: true, Seed: 9}},
		// The automatic tuner: rounds of at least 32 iterations (4 scans
		// of 8); checkpoints in the middle of a round and at scan 150,
		// after the tuning has stopped (TestAutoCheckpointPoints).
		{"gaussian/auto", Config{Chains: 10, Replicates: 17, Iterations: 2400, Scans: 300, TuneSchedule: true,
			Knots: 3, TunePath: true, Tuning: AutoTuning, Seed: 41}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			switch c.name {
			case "galaxy":
				cfg.Model = models.NewGalaxy()
			case "betabinomial":
				cfg.Model = bb
			case "funcs/random-walk":
				cfg.Model = twoModes(t, 2, models.RandomWalk{})
			case "funcs/slice":
				cfg.Model = twoModes(t, 1, models.SliceSampler{})
			default:
				cfg.Model = g
			}
			if c.name == "gaussian/full-gradient" {
				cfg.Gradient = FullGradient
			}
			per := cfg.Iterations / cfg.Scans
			t.Run("scan-end", func(t *testing.T) { checkResume(t, cfg, cfg.Scans/2, 0) })
			t.Run("within-scan", func(t *testing.T) { checkResume(t, cfg, cfg.Scans/2, per/3) })
			if cfg.Tuning == AutoTuning {
				t.Run("within-round", func(t *testing.T) { checkResume(t, cfg, 6, per/2) })
			}
		})
	}
}

// checkpointProblem returns the problem of a *CheckpointError, or fails.
func checkpointProblem(t *testing.T, err error) *CheckpointError {
	t.Helper()
	var ce *CheckpointError
	if !errors.Is(err, ErrCheckpoint) || !errors.As(err, &ce) {
		t.Fatalf("error %v, want a *CheckpointError", err)
	}
	return ce
}

// TestCheckpointRefusals checks that Restore refuses, with the problem
// named, a checkpoint of another configuration (and names the field), of
// another program version, with any byte flipped, or cut short anywhere;
// and accepts another number of workers.
func TestCheckpointRefusals(t *testing.T) {
	g, _ := models.NewGaussian(1, -1, 1, 0.3, 0.3)
	stats := func() []Statistic {
		return []Statistic{&Samples{Thin: 2, Write: func(int, int, []float64) error { return nil }}}
	}
	base := Config{Model: g, Chains: 6, Replicates: 9, Iterations: 200, Scans: 4, TuneSchedule: true, Knots: 2,
		TunePath: true, LearningRate: 0.2, Seed: 3, Workers: 1, Statistics: stats()}
	e := newEngine(t, base)
	if err := e.Step(context.Background()); err != nil {
		t.Fatal(err)
	}
	data, err := e.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	restore := func(cfg Config, data []byte) error {
		cfg.Statistics = stats()
		_, err := Restore(cfg, data)
		return err
	}

	ok := base
	ok.Workers, ok.Pin = 2, false
	if err := restore(ok, data); err != nil {
		t.Errorf("another number of workers: %v", err)
	}

	g2, _ := models.NewGaussian(1, -1, 1, 0.3, 0.30000000000000004)
	for _, c := range []struct {
		field  string
		change func(*Config)
	}{
		{"Model", func(c *Config) { c.Model = g2 }},
		{"Chains", func(c *Config) { c.Chains = 7 }},
		{"Replicates", func(c *Config) { c.Replicates = 8 }},
		{"FirstReplicate", func(c *Config) { c.FirstReplicate = 8 }},
		{"Algorithm", func(c *Config) { c.Algorithm = Reversible }},
		{"Iterations", func(c *Config) { c.Iterations = 400 }},
		{"Scans", func(c *Config) { c.Scans = 2 }},
		{"TuneSchedule", func(c *Config) { c.TuneSchedule = false }},
		{"Knots", func(c *Config) { c.Knots = 3 }},
		{"TunePath", func(c *Config) { c.TunePath = false }},
		{"LearningRate", func(c *Config) { c.LearningRate = 0.3 }},
		{"Gradient", func(c *Config) { c.Gradient = FullGradient }},
		{"KeepScans", func(c *Config) { c.KeepScans = 1 }},
		{"Seed", func(c *Config) { c.Seed = 4 }},
	} {
		cfg := base
		c.change(&cfg)
		ce := checkpointProblem(t, restore(cfg, data))
		if ce.Problem != OtherConfig || ce.Field != c.field {
			t.Errorf("changed %s: problem %d field %q (%v)", c.field, ce.Problem, ce.Field, ce)
		}
	}
	cfg := base
	cfg.Statistics = []Statistic{&Samples{Thin: 3}}
	if _, err := Restore(cfg, data); checkpointProblem(t, err).Field != "Statistics" {
		t.Errorf("other thinning: %v", err)
	}
	cfg.Statistics = nil
	if _, err := Restore(cfg, data); checkpointProblem(t, err).Field != "Statistics" {
		t.Errorf("no statistics: %v", err)
	}
	if err := restore(Config{}, data); !errors.Is(err, ErrConfig) {
		t.Errorf("invalid configuration: %v, want a configuration error", err)
	}

	saved := programVersion
	programVersion = "ptbatch v0.0.1 (go1.0)"
	other, err := e.MarshalBinary()
	programVersion = saved
	if err != nil {
		t.Fatal(err)
	}
	if ce := checkpointProblem(t, restore(base, other)); ce.Problem != OtherVersion || ce.Checkpoint != "ptbatch v0.0.1 (go1.0)" || ce.Current != saved {
		t.Errorf("other version: %v", ce)
	}

	for i := range data {
		bad := slices.Clone(data)
		bad[i] ^= 1 << (i % 8)
		ce := checkpointProblem(t, restore(base, bad))
		var want CheckpointProblem
		switch {
		case i < len(checkpointMagic):
			want = NotCheckpoint
		case i < len(checkpointMagic)+4:
			want = OtherFormat
		case i < checkpointPreamble:
			// A length off by a power of two: beyond the data, or leaving
			// bytes after the body.
			if ce.Problem != Truncated && ce.Problem != Corrupted {
				t.Errorf("byte %d (length) flipped: %v", i, ce)
			}
			continue
		default:
			want = Corrupted
		}
		if ce.Problem != want {
			t.Errorf("byte %d of %d flipped: %v, want problem %d", i, len(data), ce, want)
		}
	}
	for n := 0; n < len(data); n++ {
		ce := checkpointProblem(t, restore(base, data[:n]))
		if want := Truncated; n == 0 {
			if ce.Problem != NotCheckpoint {
				t.Errorf("empty data: %v", ce)
			}
		} else if ce.Problem != want {
			t.Errorf("cut to %d bytes of %d: %v", n, len(data), ce)
		}
	}
	if ce := checkpointProblem(t, restore(base, []byte("replicate,iteration,x0\n"))); ce.Problem != NotCheckpoint {
		t.Errorf("a CSV file: %v", ce)
	}
}

// opaqueModel hides its blocks' state: they are models.Block only.
type opaqueModel struct{ models.Model }

type opaqueBlock struct{ models.Block }

func (m opaqueModel) NewBlock(spec models.BlockSpec) models.Block {
	return opaqueBlock{m.Model.NewBlock(spec)}
}

// plainStat is a Statistic without state support.
type plainStat struct{}

func (plainStat) NewObserver(BlockInfo) Observer { return plainStat{} }
func (plainStat) Iterate(*View)                  {}
func (plainStat) EndScan(*View)                  {}

// TestCheckpointUnsupported checks that MarshalBinary fails, rather than
// write part of the state, for a model whose blocks are not
// models.BlockState and for a statistic that is not a StatisticState.
func TestCheckpointUnsupported(t *testing.T) {
	g, _ := models.NewGaussian(1, -1, 1, 0.3, 0.3)
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Model: opaqueModel{g}, Chains: 4, Replicates: 3, Iterations: 10, Scans: 1}, "not a models.BlockState"},
		{Config{Model: g, Chains: 4, Replicates: 3, Iterations: 10, Scans: 1, Statistics: []Statistic{plainStat{}}}, "not a StatisticState"},
	} {
		e := newEngine(t, c.cfg)
		if data, err := e.MarshalBinary(); err == nil || data != nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%T: MarshalBinary = %d bytes, %v; want an error saying %q", c.cfg.Model, len(data), err, c.want)
		}
	}
}

// TestCheckpointDescribesEveryConfigField checks that the configuration's
// description covers every Config field but Workers and Pin, so that a new
// field that changes results cannot be forgotten in the fingerprint.
func TestCheckpointDescribesEveryConfigField(t *testing.T) {
	g, _ := models.NewGaussian(1, -1, 1, 0.3, 0.3)
	cfg := Config{Model: g, Chains: 4, Replicates: 3, Iterations: 10, Scans: 1, VariationalLeg: 2}
	var described []string
	for _, s := range describe(&cfg) {
		described = append(described, s.field)
	}
	typ := reflect.TypeFor[Config]()
	for i := range typ.NumField() {
		f := typ.Field(i).Name
		if !slices.Contains(described, f) && !slices.Contains(notDescribed, f) {
			t.Errorf("Config.%s is neither in the checkpoint's description nor among the fields left out (%v)", f, notDescribed)
		}
	}
}

// TestCheckpointCoversEveryField lists the fields of the engine's state
// and says, for each, whether a checkpoint saves it or why not: a field
// added later fails this test until it is saved (checkpoint_block.go) or
// listed here as scratch or configuration.
func TestCheckpointCoversEveryField(t *testing.T) {
	for _, c := range []struct {
		v             any
		saved, notNow []string
	}{
		{Engine{}, []string{"scans", "elapsed", "blocks"},
			[]string{"cfg", "perScan", "ranges", "cpus", "start", "failed", "packed"}}, // failed: a failed engine refuses checkpoints; packed: a Packed has none
		{block{}, []string{"rng", "states", "x", "moments", "tuner", "trips", "target", "observers", "scans", "pos", "hist", "legHist", "last", "prev", "iterTime", "tuneTime"},
			[]string{"info", "numChains", "view", "alg", "pk", "sums", "rejRows"}}, // alg: configuration; pk: only in a Packed, which has no checkpoint; sums, rejRows: scratch
		{exchange{}, []string{"eta0", "eta1", "w0", "w1", "replica", "chainOf", "eta0s", "eta1s", "w0s", "w1s", "targetFrom", "rej"},
			[]string{"numChains", "exact", "alpha", "u", "coin", "parity", "epoch", "second", "legs", "keep", "algs"}}, // second, legs, algs: configuration; keep: scratch
		{energyMoments{}, []string{"shift0", "shift1", "sum0", "sum1", "sq00", "sq01", "sq11", "record"}, nil},
		{tuner{}, []string{"sched", "path", "auto", "legRound", "legIters"},
			[]string{"work", "grad", "matrix", "mean", "cov", "scan", "c1", "legSched", "legRej", "updater", "block"}}, // updater, block: scratch
		{reported{}, []string{"rejection", "tripsScan", "schedule", "knots", "rounds", "used", "frozen"}, nil},
		{ScanStats{}, []string{"Scan", "RoundTrips", "Barrier", "NonAsymptoticBarrier", "SKL", "MeanRejection", "TargetMean", "TargetVar"}, nil},
	} {
		typ := reflect.TypeOf(c.v)
		for i := range typ.NumField() {
			f := typ.Field(i).Name
			if !slices.Contains(c.saved, f) && !slices.Contains(c.notNow, f) {
				t.Errorf("%s.%s: new state? save it in a checkpoint (checkpoint_block.go) and list it here", typ.Name(), f)
			}
		}
	}
}
