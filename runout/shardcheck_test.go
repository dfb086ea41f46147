package runout

import (
	"errors"
	"strings"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/rundir"
)

// TestCheckShard checks that a record matching its shard's manifest
// (replicates 2 to 4 of 6, the same arguments, the fingerprinted
// configuration) passes, and that each mismatch is refused with ErrShard
// naming the shard and what differs.
func TestCheckShard(t *testing.T) {
	config := func(r *Record, units int) any { // the record's run as one whole run
		return map[string]int{"seed": int(r.Result.Config.Seed), "replicates": units}
	}
	rec := func() *Record {
		r := NewRecord(&batch.Result{Config: batch.Config{FirstReplicate: 2, Replicates: 3, Seed: 7}}, &Settings{Model: "gaussian"})
		r.Args = []string{"--seed=7", "--shard=2/2"}
		return r
	}
	c, err := rundir.Canonical(config(rec(), 6))
	if err != nil {
		t.Fatal(err)
	}
	m := &rundir.Manifest{Command: "run", Fingerprint: rundir.Fingerprint("run", c), Args: []string{"--seed=7", "--shard=2/2"},
		Units: 6, First: 2, End: 5}
	if err := CheckShard("s2", m, rec(), config); err != nil {
		t.Fatalf("matching record: %v", err)
	}
	for _, tc := range []struct {
		edit func(*Record)
		want string
	}{
		{func(r *Record) { r.Result.Config.Replicates = 2 }, "shard s2: result.gob holds replicates 2 to 3, its manifest says 2 to 4"},
		{func(r *Record) { r.Args = []string{"--seed=8", "--shard=2/2"} }, "the manifest was edited (--seed (8 and 7))"},
		{func(r *Record) { r.Result.Config.Seed = 8 }, "shard s2: its result.gob holds a run of another configuration"},
	} {
		r := rec()
		tc.edit(r)
		if err := CheckShard("s2", m, r, config); !errors.Is(err, ErrShard) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want ErrShard saying %q", err, tc.want)
		}
	}
}
