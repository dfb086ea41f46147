package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ptbatch/ptbatch/runout"
)

// mergeRun writes the merged output of the shards of a run from data
// alone: the shards' records (result.gob) merged by runout.Merge (each
// statistic merges itself), samples.csv and index.csv joined scan by scan
// (runout.MergeStreamed), then every other file written by
// runout.WriteFiles, the writer of a run. The command line a manifest
// records is never parsed: a shard whose manifest's argument list is not
// the one its record was written with, or whose configuration is not its
// record's, is refused (joinRunRecords).
func mergeRun(shards []shardDir, out string, m *manifest) error {
	rec, err := joinRunRecords(shards)
	if err != nil {
		return err
	}
	cfg := rec.Result.Config
	if rec.Settings == nil || cfg.Scans < 1 || cfg.Replicates != m.Units {
		return usagef("shard %s: its %s holds no run of the %d replicates its %s counts (a record of another command?)", shards[0].dir, resultName, m.Units, manifestName)
	}
	rec.Settings.Workers = effectiveWorkers(cfg.Workers, cfg.Replicates) // config.workers: the merging machine's
	for _, name := range []string{"samples.csv", "index.csv"} {
		streams, err := shardStreams(shards, name)
		if err != nil {
			return err
		}
		if err := runout.MergeStreamed(out, name, cfg.Iterations/cfg.Scans, streams); err != nil {
			if errors.Is(err, runout.ErrShard) {
				return usagef("%v", err)
			}
			return err
		}
	}
	_, err = runout.WriteFiles(out, rec, runout.Extras{})
	return err
}

// shardStreams returns the shards' copies of the streamed file name, a
// path only where the shard has one (which its manifest must record).
func shardStreams(shards []shardDir, name string) ([]runout.Stream, error) {
	var out []runout.Stream
	for _, s := range shards {
		st := runout.Stream{Dir: s.dir}
		if _, err := os.Lstat(filepath.Join(s.dir, name)); !errors.Is(err, os.ErrNotExist) {
			path, err := shardFile(s, name)
			if err != nil {
				return nil, err
			}
			st.Path = path
		}
		out = append(out, st)
	}
	return out, nil
}

// joinRunRecords reads the shards' result.gob, checks each against its
// shard's manifest (its replicates, the argument list it was written
// with, and the configuration the manifest fingerprints: runConfigOf),
// and merges them.
func joinRunRecords(shards []shardDir) (*runout.Record, error) {
	var parts []*runout.Record
	for _, s := range shards {
		path, err := shardFile(s, resultName)
		if err != nil {
			return nil, err
		}
		r, err := runout.ReadRecord(path)
		if err != nil {
			return nil, usagef("shard %s: %v", s.dir, err)
		}
		if err := runout.CheckShard(s.dir, s.m, r, func(r *runout.Record, units int) any { return runConfigOf(r, units) }); err != nil {
			return nil, usagef("%v", err)
		}
		parts = append(parts, r)
	}
	rec, err := runout.Merge(parts)
	if err != nil {
		return nil, fmt.Errorf("merging %s: %w", resultName, err)
	}
	return rec, nil
}

// resultName is a run's record (runout.RecordName).
const resultName = runout.RecordName

// momentsSource gives the target moments of a run, per replicate and
// observable (a *batch.TargetMoments).
type momentsSource interface {
	Means() [][]float64
	Vars() [][]float64
}
