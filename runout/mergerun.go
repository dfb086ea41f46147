package runout

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/rundir"
)

// MergeRun writes into dir the merge of the shards of one run (as
// rundir.ReadShards returns them, in shard order) from data alone: the
// shards' records (result.gob) merged by Merge (each statistic merges
// itself), samples.csv and index.csv joined scan by scan
// (MergeStreamed), then every other file written by WriteFiles, the
// writer of a run, as one process computing all units replicates writes
// them. The command line a manifest records is never parsed: a shard
// whose manifest's argument list is not the one its record was written
// with, or whose configuration is not its record's, is refused
// (CheckShard). Its refusals of a shard are *rundir.ShardError or wrap
// ErrShard; config.workers in summary.json is this machine's.
func MergeRun(dir string, shards []rundir.Shard, units int) error {
	rec, err := mergeRecords(shards)
	if err != nil {
		return err
	}
	cfg := rec.Result.Config
	if rec.Settings == nil || cfg.Scans < 1 || cfg.Replicates != units {
		return shardErr(shards[0].Dir, "its %s holds no run of the %d replicates its %s counts (a record of another command?)", RecordName, units, rundir.ManifestName)
	}
	workers := cfg.Workers
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	rec.Settings.Workers = min(workers, layout.Shape{Replicates: cfg.Replicates}.Blocks())
	for _, name := range []string{"samples.csv", "index.csv"} {
		streams, err := shardStreams(shards, name)
		if err != nil {
			return err
		}
		if err := MergeStreamed(dir, name, cfg.Iterations/cfg.Scans, streams); err != nil {
			return err
		}
	}
	_, err = WriteFiles(dir, rec, Extras{})
	return err
}

// shardStreams returns the shards' copies of the streamed file name, a
// path only where the shard has one (which its manifest must record).
func shardStreams(shards []rundir.Shard, name string) ([]Stream, error) {
	var out []Stream
	for _, s := range shards {
		st := Stream{Dir: s.Dir}
		if _, err := os.Lstat(filepath.Join(s.Dir, name)); !errors.Is(err, os.ErrNotExist) {
			path, err := s.File(name)
			if err != nil {
				return nil, err
			}
			st.Path = path
		}
		out = append(out, st)
	}
	return out, nil
}

// mergeRecords reads the shards' result.gob, checks each against its
// shard's manifest (CheckShard, with the configuration of ConfigOf) and
// merges them.
func mergeRecords(shards []rundir.Shard) (*Record, error) {
	var parts []*Record
	for _, s := range shards {
		path, err := s.File(RecordName)
		if err != nil {
			return nil, err
		}
		r, err := ReadRecord(path)
		if err != nil {
			return nil, shardErr(s.Dir, "%v", err)
		}
		if err := CheckShard(s.Dir, s.Manifest, r, func(r *Record, units int) any { return ConfigOf(r, units) }); err != nil {
			return nil, err
		}
		parts = append(parts, r)
	}
	rec, err := Merge(parts)
	if err != nil {
		return nil, fmt.Errorf("merging %s: %w", RecordName, err)
	}
	return rec, nil
}
