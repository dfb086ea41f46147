package runout

import (
	"slices"

	"github.com/ptbatch/ptbatch/rundir"
)

// CheckShard returns nil when r, the record read from the shard in
// directory dir whose manifest is m, is the run m describes: the shard's
// replicates [m.First, m.End), the argument list m records, and a
// configuration, config(r, m.Units) (the record's as one whole run), whose
// fingerprint is m's. So a merge works on the records alone, and a
// manifest edited since its record was written is refused, never
// re-parsed. Its errors wrap ErrShard and name the shard.
func CheckShard(dir string, m *rundir.Manifest, r *Record, config func(r *Record, units int) any) error {
	if got := r.Result.Config; got.FirstReplicate != m.First || got.Replicates != m.End-m.First {
		return shardErr(dir, "%s holds replicates %d to %d, its manifest says %d to %d", RecordName,
			got.FirstReplicate, got.FirstReplicate+got.Replicates-1, m.First, m.End-1)
	}
	if !slices.Equal(r.Args, m.Args) {
		return shardErr(dir, "its %s records different arguments (%q) than its %s was written with (%q): the manifest was edited (%s); compute the shards again",
			rundir.ManifestName, m.Args, RecordName, r.Args, rundir.ArgDiff(r.Args, m.Args))
	}
	if c, err := rundir.Canonical(config(r, m.Units)); err != nil || rundir.Fingerprint(m.Command, c) != m.Fingerprint {
		return shardErr(dir, "its %s holds a run of another configuration than its %s records: the manifest was edited; compute the shards again", RecordName, rundir.ManifestName)
	}
	return nil
}
