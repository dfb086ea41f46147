package runout

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/rundir"
)

// TestConfigOfShardsAgree: two shards of one 10-replicate run (replicates
// 0–3 on 2 workers and 4–9 on 8, with other memory limits and a model
// without oracles, NaN) have one RunConfig and fingerprint, which is the
// whole run's (10 replicates from 0); another seed is another
// configuration.
func TestConfigOfShardsAgree(t *testing.T) {
	shard := func(first, n, workers int, mem int64, seed uint64) *Record {
		res := &batch.Result{Config: batch.Config{FirstReplicate: first, Replicates: n, Workers: workers, Seed: seed, Chains: 10}}
		return NewRecord(res, &Settings{Model: "m", Workers: workers, MaxMemory: mem,
			ExactLogZ: math.NaN(), ExactBarrier: math.NaN(), ChainsAuto: json.RawMessage(`{"pilot_seconds":1.5}`)})
	}
	print := func(rec *Record) string {
		c, err := rundir.Canonical(ConfigOf(rec, 10))
		if err != nil {
			t.Fatal(err)
		}
		return rundir.Fingerprint("run", c)
	}
	a, b := shard(0, 4, 2, 1<<30, 7), shard(4, 6, 8, 0, 7)
	if !reflect.DeepEqual(ConfigOf(a, 10), ConfigOf(b, 10)) || print(a) != print(b) {
		t.Errorf("the shards' configurations differ:\n%+v\n%+v", ConfigOf(a, 10), ConfigOf(b, 10))
	}
	if rc := ConfigOf(a, 10); rc.Config.FirstReplicate != 0 || rc.Config.Replicates != 10 || string(rc.Settings.ChainsAuto) != "true" {
		t.Errorf("ConfigOf = %+v, want the whole run's 10 replicates from 0 and chains auto as true", rc)
	}
	if a.Settings.Workers != 2 || !math.IsNaN(a.Settings.ExactLogZ) {
		t.Error("ConfigOf changed the record's settings")
	}
	if print(a) == print(shard(0, 4, 2, 1<<30, 8)) {
		t.Error("another seed has the same fingerprint")
	}
}
