package batch

import (
	"context"
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// TestLogZPathRecord checks LogZ with Path on the Gaussian pair of the
// merge test (TestRecordsMergeToOneRun): its forward and reverse
// estimates are bit for bit those of a LogZ without Path (which keeps no
// pairs); the path starts at log Z(t_0 = 0) = 0 and its last point is the
// replicate's estimate, up to the order of the sums (1e-12); every
// schedule runs from 0 to 1; and the records of replicates [0, 4) and
// [4, 10) merge into the record of [0, 10), bit for bit.
func TestLogZPathRecord(t *testing.T) {
	g, _ := models.NewGaussian(2, -1, 1, 0.5, 0.3)
	cfg := Config{Model: g, Chains: 8, Replicates: 10, Iterations: 200, Scans: 4, TuneSchedule: true, Knots: 2, TunePath: true,
		LearningRate: 0.2, Seed: 9, Workers: 1}
	run := func(cfg Config, path bool) LogZRecord {
		lz := &LogZ{Path: path}
		cfg.Statistics = []Statistic{lz}
		mustRun(t, cfg)
		return lz.Record()
	}
	with, without := run(cfg, true), run(cfg, false)
	if exact(with.Fwd) != exact(without.Fwd) || exact(with.Rev) != exact(without.Rev) || without.PairFwd != nil {
		t.Fatalf("Path changed the estimates or a record without Path has pairs")
	}
	sched, path := with.Path()
	est := with.Estimates()
	for b := range path {
		if n := len(path[b]); n != cfg.Chains || path[b][0] != 0 || math.Abs(path[b][n-1]-est[b]) > 1e-12 {
			t.Errorf("replicate %d: path %v, estimate %v", b, path[b], est[b])
		}
		if len(sched[b]) != cfg.Chains || sched[b][0] != 0 || sched[b][cfg.Chains-1] != 1 {
			t.Errorf("replicate %d: schedule %v", b, sched[b])
		}
	}
	cfg.Replicates = 4
	first := run(cfg, true)
	cfg.FirstReplicate, cfg.Replicates = 4, 6
	merged, err := first.Merge(run(cfg, true))
	if err != nil || exact(merged) != exact(with) {
		t.Errorf("merged %v (%v), one run %v", merged, err, with)
	}
	if _, err := first.Merge(without); err == nil {
		t.Errorf("a record with pairs merged with one without")
	}
}

// TestLogZPathResumes checks that a checkpoint keeps LogZ's pairs: an
// engine checkpointed after its second scan (a scan's end, where the pairs
// of the last scan are collected but no observer holds them any more) and
// restored has the same record as the engine it was taken from, bit for
// bit, both then and at the end of the run; and that a checkpoint written
// with Path is refused by a configuration without it.
func TestLogZPathResumes(t *testing.T) {
	g, _ := models.NewGaussian(2, -1, 1, 0.5, 0.3)
	cfg := Config{Model: g, Chains: 6, Replicates: 9, Iterations: 160, Scans: 4, TuneSchedule: true, Seed: 3, Workers: 2}
	with := func(path bool) (Config, *LogZ) {
		lz := &LogZ{Path: path}
		c := cfg
		c.Statistics = []Statistic{lz}
		return c, lz
	}
	c1, lz1 := with(true)
	e, err := New(c1)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for range 2 {
		if err := e.Step(ctx); err != nil {
			t.Fatal(err)
		}
	}
	data, err := e.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	c2, lz2 := with(true)
	e2, err := Restore(c2, data)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := lz1.Record(), lz2.Record(); a.PairFwd == nil || exact(a) != exact(b) {
		t.Fatalf("restored at scan 2: record %v, want %v", b, a)
	}
	for !e.Done() {
		if err := e.Step(ctx); err != nil {
			t.Fatal(err)
		}
		if err := e2.Step(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if a, b := lz1.Record(), lz2.Record(); exact(a) != exact(b) {
		t.Errorf("at the end: resumed record %v, want %v", b, a)
	}
	c3, _ := with(false)
	if _, err := Restore(c3, data); err == nil {
		t.Errorf("a checkpoint with Path restored into a LogZ without it")
	}
}
