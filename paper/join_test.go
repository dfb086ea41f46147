package paper

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/runout"
)

// joinShard writes the record of replicates [first, first+n) of run k
// into a shard directory whose manifest covers units [lo, hi), records
// the file, and returns the shard.
func joinShard(t *testing.T, k, first, n, lo, hi int) rundir.Shard {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "runs"), 0o755); err != nil {
		t.Fatal(err)
	}
	rec := runout.NewRecord(&batch.Result{Config: batch.Config{FirstReplicate: first, Replicates: n}}, nil)
	rec.LogZ = batch.LogZRecord{Fwd: make([]float64, n), Rev: make([]float64, n)}
	for i := range n {
		rec.LogZ.Fwd[i] = float64(first + i) // replicate r's log Z is r: the merge's order shows
	}
	if err := runout.WriteRecord(filepath.Join(dir, RunFile(k)), rec); err != nil {
		t.Fatal(err)
	}
	return rundir.Shard{Dir: dir, Manifest: &rundir.Manifest{First: lo, End: hi, Files: map[string]rundir.FileSum{filepath.ToSlash(RunFile(k)): {}}}}
}

// TestJoinRun joins run 1 of a plan (units 4 to 9: 6 replicates) from two
// shards (units 0 to 6 and 7 to 11, its replicates 0 to 2 and 3 to 5),
// skipping a third that holds none of it, and checks the merged record
// holds the 6 replicates in order; then that a missing part is refused
// with ErrJoin and a file the manifest does not record with rundir's
// *ShardError.
func TestJoinRun(t *testing.T) {
	run := Run{Label: "NRPT+Linear", Replicates: 6, First: 4}
	a, b := joinShard(t, 1, 0, 3, 0, 7), joinShard(t, 1, 3, 3, 7, 12)
	other := rundir.Shard{Dir: "unused", Manifest: &rundir.Manifest{First: 12, End: 20}} // holds none of run 1: never read
	rec, err := JoinRun(run, 1, []rundir.Shard{a, b, other})
	if err != nil {
		t.Fatal(err)
	}
	if c := rec.Result.Config; c.FirstReplicate != 0 || c.Replicates != 6 {
		t.Fatalf("joined replicates %d+%d, want 0+6", c.FirstReplicate, c.Replicates)
	}
	for i, x := range rec.LogZ.Fwd {
		if x != float64(i) {
			t.Fatalf("joined log Z %v, want replicates 0 … 5 in order", rec.LogZ.Fwd)
		}
	}
	if _, err := JoinRun(run, 1, []rundir.Shard{a}); !errors.Is(err, ErrJoin) {
		t.Errorf("half the run: %v, want ErrJoin", err)
	}
	a.Manifest.Files = nil
	var se *rundir.ShardError
	if _, err := JoinRun(run, 1, []rundir.Shard{a, b}); !errors.As(err, &se) {
		t.Errorf("a run file the manifest does not record: %v, want *rundir.ShardError", err)
	}
}
