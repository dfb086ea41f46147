package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/runout"
	"github.com/ptbatch/ptbatch/studydir"
)

// ptbatch merge combines the output directories of the shards of one
// command (--shard i/n) into exactly what one process computing all of
// it writes: the same bytes in every CSV, and a summary.json equal apart
// from its timing fields (elapsed_seconds, chain_steps_per_second,
// tuning_fraction, go_version, config.workers) and config.out. The shards
// are checked first, from their manifest.json: one command, one
// configuration, one build, each shard 1..n once, each complete, and
// every file each records with the length and SHA-256 it was written
// with (rundir.VerifyFiles), before anything is read or written. A
// refused merge removes what it wrote (rundir.ReadShards). Each manifest
// records its configuration as data (newManifest), by which the shards
// are checked and the output rebuilt; the arguments it records are never
// parsed.

const mergeIntro = `Usage: ptbatch merge --out DIR SHARD_DIR...

Combines the output directories of the shards of one run, sweep or reproduce
(written with --shard i/n, or in a Slurm job array or Kubernetes Indexed Job) into
DIR: the same files, byte for byte in every CSV, as one process computing it all.
Refuses shards of different configurations or builds, a missing or repeated shard,
a shard that did not finish (rerun it, or resume a sweep with --resume), and a shard
whose files changed after they were written (their checksums are in its manifest).`

// runMerge is `ptbatch merge`.
func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var out string
	var quiet bool
	c := newCmdFlags("merge")
	c.String(&out, "out", "", "directory to write the merged output into (required; not one of the shards)")
	c.Bool(&quiet, "quiet", false, "no summary line on stdout")
	// Directories and flags in any order.
	var dirs []string
	err := c.fs.Parse(args)
	for err == nil && c.err == nil && c.fs.NArg() > 0 {
		dirs = append(dirs, c.fs.Arg(0))
		err = c.fs.Parse(c.fs.Args()[1:])
	}
	if err := c.finishParse(err, stdout, mergeIntro); err != nil {
		return err
	}
	switch {
	case out == "":
		return usagef("merge needs --out DIR")
	case len(dirs) == 0:
		return usagef("merge needs the shard directories: ptbatch merge --out DIR SHARD_DIR...")
	}
	if studydir.IsShard(dirs[0]) {
		return mergeStudy(out, dirs, stdout, stderr, quiet) // studymerge.go
	}
	shards, err := readShards(c, out, dirs)
	if err != nil {
		return err
	}
	_, statErr := os.Stat(out)
	if err := checkOut(c, "out", out); err != nil {
		return err
	}
	od, err := holdOut(c, "out", out, stderr)
	if err != nil {
		return err
	}
	m, err := mergeInto(ctx, od, shards)
	if err != nil {
		od.Discard(statErr != nil) // what a refused merge wrote, and out if it made it
		return err
	}
	od.Close()
	if !quiet {
		fmt.Fprintf(stdout, "merged %d shards of ptbatch %s (%d units: %s) into %s\n", len(shards), m.Command, m.Units, m.Unit, out)
	}
	return nil
}

// mergers write a merge's output by the shards' command
// (rundir.MergeBy): a run merges on its data (runout.MergeRun), a sweep
// and a reproduction in their own files.
var mergers = map[string]rundir.Merger{
	"run": func(_ context.Context, dst string, shards []rundir.Shard, m *rundir.Manifest) error {
		return runout.MergeRun(dst, shards, m.Units)
	},
	"sweep": mergeSweep, "reproduce": mergeReproduce,
}

// mergeInto writes the merge of shards into od (rundir.MergeBy), which
// it first empties of a previous command's files, and returns the
// manifest it wrote. The shards are read-locked until it returns.
func mergeInto(ctx context.Context, od *rundir.Dir, shards []rundir.Shard) (*rundir.Manifest, error) {
	m, err := rundir.MergeBy(ctx, od, shards, staleOutputs, mergers)
	var le *rundir.LinkError
	if errors.As(err, &le) {
		return nil, usagef("invalid --out %s: %s is a symbolic link (%v): merge writes no output through a link; remove it", od.Path(), filepath.Join(od.Path(), le.Link), le.Err)
	}
	return m, shardUsage(err)
}

// readShards reads the manifests of dirs, in shard order, and refuses
// shards that do not make one whole (rundir.ReadShards, with the
// configuration checked by rundir.SameConfig).
func readShards(c *cmdFlags, out string, dirs []string) ([]rundir.Shard, error) {
	shards, err := rundir.ReadShards(out, dirs, rundir.SameConfig)
	var se *rundir.ShardError
	if errors.As(err, &se) && se.Dst {
		return nil, c.bad("out", "is also one of the shards; merge into a new directory")
	}
	return shards, shardUsage(err)
}

// shardUsage returns a refusal of a shard (a *rundir.ShardError, or an
// error of package runout wrapping runout.ErrShard) as a usage error:
// one line, exit 2.
func shardUsage(err error) error {
	var se *rundir.ShardError
	switch {
	case errors.As(err, &se):
		return usagef("%s", se.Msg)
	case errors.Is(err, runout.ErrShard):
		return usagef("%v", err)
	}
	return err
}
