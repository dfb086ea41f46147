package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ptbatch/ptbatch/rundir"
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
// records its configuration as data (newManifestOf), by which the shards
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
	m, err := mergeInto(ctx, od, shards, stderr)
	if err != nil {
		od.discard(statErr != nil)
		return err
	}
	od.release()
	if !quiet {
		fmt.Fprintf(stdout, "merged %d shards of ptbatch %s (%d units: %s) into %s\n", len(shards), m.Command, m.Units, m.Unit, out)
	}
	return nil
}

// mergeInto writes the merge of shards into od, which it first empties
// of a previous command's files, and returns the manifest it wrote. The
// shards are read-locked until it returns.
func mergeInto(ctx context.Context, od *outDir, shards []shardDir, stderr io.Writer) (*manifest, error) {
	if link, err := rundir.FindSymlink(od.path); err != nil || link != "" {
		return nil, usagef("invalid --out %s: %s is a symbolic link (%v): merge writes no output through a link; remove it", od.path, filepath.Join(od.path, link), err)
	}
	prev, _ := readManifest(od.path)
	if err := od.dir.RemoveStale(prev, staleOutputs...); err != nil {
		return nil, err
	}
	for _, s := range shards {
		// A shard being written now is refused; its shared lock is held
		// until the merge ends, so no writer starts meanwhile.
		release, err := rundir.ReadLock(s.dir)
		var le *rundir.LockedError
		if errors.As(err, &le) {
			return nil, usagef("shard %s is being written by another process (it holds %s); merge it when that process ends", s.dir, filepath.Join(s.dir, lockName))
		}
		if err != nil {
			return nil, usagef("shard %s: cannot read its lock: %v", s.dir, unwrapPath(err))
		}
		defer release()
	}
	first := shards[0].m
	m := &manifest{Format: manifestFormat, Command: first.Command, Version: first.Version, Fingerprint: first.Fingerprint,
		Config: first.Config, Settings: first.Settings, Args: first.Args, Shard: 1, Shards: 1, Unit: first.Unit, Units: first.Units,
		End: first.Units, Done: first.Units, Complete: true}
	for _, s := range shards {
		m.ElapsedSeconds += s.m.ElapsedSeconds
	}
	var err error
	switch first.Command {
	case "run":
		err = mergeRun(shards, od.path, m)
	case "sweep":
		err = mergeSweep(shards, od.path, m)
	case "reproduce":
		err = mergeReproduce(ctx, shards, od.path, stderr)
	default:
		err = fmt.Errorf("%s: unknown command %q", filepath.Join(shards[0].dir, manifestName), first.Command)
	}
	if err != nil {
		return nil, err
	}
	return m, od.dir.WriteManifest(m)
}

// shardDir is one input of merge.
type shardDir struct {
	dir string
	m   *manifest
}

// readShards reads the manifests of dirs, in shard order, and refuses
// shards that do not make one whole (rundir.ReadShards, with the
// configuration checked by checkShardPair).
func readShards(c *cmdFlags, out string, dirs []string) ([]shardDir, error) {
	got, err := rundir.ReadShards(out, dirs, func(a, s rundir.Shard) error {
		return checkShardPair(shardDir{a.Dir, a.Manifest}, shardDir{s.Dir, s.Manifest})
	})
	var se *rundir.ShardError
	switch {
	case errors.As(err, &se) && se.Dst:
		return nil, c.bad("out", "is also one of the shards; merge into a new directory")
	case errors.As(err, &se):
		return nil, usagef("%s", se.Msg)
	case err != nil:
		return nil, err
	}
	shards := make([]shardDir, len(got))
	for i, s := range got {
		shards[i] = shardDir{s.Dir, s.Manifest}
	}
	return shards, nil
}

// checkShardPair refuses the shard s when it is not of a's
// configuration, which its manifest records as data
// (rundir.Manifest.Config): its fingerprint must be the configuration's,
// its settings (when it records them) the configuration's own, and its
// configuration a's. The arguments it records are not read: merge never
// parses them.
func checkShardPair(a, s shardDir) error {
	switch {
	case s.m.Config == nil:
		return usagef("shard %s: its %s records no configuration (it was written by an older ptbatch, or edited); compute the shard again", s.dir, manifestName)
	case s.m.CheckFingerprint() != nil || !s.m.SettingsAreConfig():
		return usagef("shard %s: its %s was edited (its fingerprint or settings are not those of its configuration); compute the shard again", s.dir, manifestName)
	case s.m.Fingerprint != a.m.Fingerprint && a.m.Settings != nil && s.m.Settings != nil:
		return usagef("shards of different configurations: %s and %s differ in %s", a.dir, s.dir, rundir.SettingDiff(a.m.Settings, s.m.Settings))
	case s.m.Fingerprint != a.m.Fingerprint:
		return usagef("shards of different configurations: %s and %s (fingerprints %.12s… and %.12s…)", a.dir, s.dir, a.m.Fingerprint, s.m.Fingerprint)
	}
	return nil
}

// shardFile returns the path of the shard's file name, which its
// manifest must record (rundir.Shard.File).
func shardFile(s shardDir, name string) (string, error) {
	path, err := rundir.Shard{Dir: s.dir, Manifest: s.m}.File(name)
	return path, shardUsage(err)
}

// shardUsage returns a refusal of rundir's shards (*rundir.ShardError)
// as a usage error: one line, exit 2.
func shardUsage(err error) error {
	var se *rundir.ShardError
	if errors.As(err, &se) {
		return usagef("%s", se.Msg)
	}
	return err
}
