package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ptbatch/ptbatch/rundir"
)

// Shards. Replicate b of a run draws from the stream of (seed, b) alone
// (batch.Config.FirstReplicate), so the work of a command splits into
// units — replicates for run, cells × replicates for sweep, runs ×
// replicates for reproduce — that any process can compute, with the same
// bits as inside one process. Shard i of n computes the contiguous units
// [⌊(i−1)U/n⌋, ⌊iU/n⌋) of the U in the command and writes them into its
// own --out, with a manifest.json that ptbatch merge checks.

// shardFlags are the flags that choose a shard.
type shardFlags struct {
	spec   string // --shard i/n as typed
	shards int    // --shards n, with JOB_COMPLETION_INDEX
}

// addShardFlags defines --shard and --shards.
func addShardFlags(c *cmdFlags, s *shardFlags) {
	c.String(&s.spec, "shard", "", "compute shard `i/n` (1 ≤ i ≤ n) of the work into --out, for ptbatch merge; default: from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (or _MIN/_MAX) in a Slurm job array, or JOB_COMPLETION_INDEX with --shards; --shard 1/1 computes everything")
	c.Int(&s.shards, "shards", 0, "the number of shards of a Kubernetes Indexed Job: shard JOB_COMPLETION_INDEX+1 of `n` (default: none)")
}

// shard is the part of the work one process computes.
type shard struct {
	index, count int    // 1-based index, of count
	source       string // how it was chosen, for the note on stderr
}

// lookupEnv reads the environment; tests replace it.
var lookupEnv = os.LookupEnv

// resolveShard returns the shard chosen by --shard, by --shards with
// JOB_COMPLETION_INDEX, or by a Slurm job array's variables, in that
// order; nil when none applies or the choice is 1/1. Bad values are usage
// errors naming the flag or the variable.
func resolveShard(c *cmdFlags, s *shardFlags) (*shard, error) {
	var sh *shard
	switch {
	case c.IsSet("shard") && c.IsSet("shards"):
		return nil, c.bad("shards", "counts the shards of a Kubernetes Indexed Job, which --shard %s chooses already; give one or the other", c.Show("shard"))
	case c.IsSet("shard"):
		i, n, ok := rundir.ParseSpec(s.spec)
		if !ok {
			return nil, c.bad("shard", "want i/n with whole numbers 1 ≤ i ≤ n, such as 2/5")
		}
		sh = &shard{i, n, "--shard " + s.spec}
	case c.IsSet("shards"):
		p, err := rundir.IndexedJobPart(lookupEnv, s.shards)
		switch {
		case s.shards < 1:
			return nil, c.bad("shards", "need at least 1")
		case err != nil:
			return nil, usagef("%v", err)
		case p == nil:
			return nil, c.bad("shards", "takes the shard from JOB_COMPLETION_INDEX, which is not set (Kubernetes sets it in the pods of an Indexed Job; elsewhere give --shard i/n)")
		}
		sh = &shard{p.Index, p.Count, p.Source}
	default:
		if v, ok := lookupEnv("JOB_COMPLETION_INDEX"); ok {
			// A Kubernetes Indexed Job: without the count, every pod would
			// compute the whole run.
			return nil, usagef("JOB_COMPLETION_INDEX=%q is set (a pod of a Kubernetes Indexed Job) but --shards is not: give --shards N, the Job's completions, or --shard i/n", v)
		}
		p, err := rundir.SlurmPart(lookupEnv)
		if err != nil {
			return nil, usagef("%v", err)
		} else if p != nil {
			sh = &shard{p.Index, p.Count, p.Source}
		}
	}
	if sh == nil || sh.count == 1 {
		return nil, nil
	}
	return sh, nil
}

// part returns s as a rundir.Part (nil: the whole).
func (s *shard) part() *rundir.Part {
	if s == nil {
		return nil
	}
	return &rundir.Part{Index: s.index, Count: s.count, Source: s.source}
}

// share returns the units [lo, hi) of shard s among units (rundir.Part.Share).
func (s *shard) share(units int) (lo, hi int) { return s.part().Share(units) }

// check refuses a shard that would get no unit (rundir.Part.Check).
func (s *shard) check(units int, what string) error {
	if err := s.part().Check(units, what); err != nil {
		return usagef("invalid %v", err)
	}
	return nil
}

// note prints which shard this process computes and how it was chosen.
func (s *shard) note(w io.Writer, lo, hi, units int, what string) {
	if s != nil {
		fmt.Fprintf(w, "ptbatch: %s\n", s.part().Note(lo, hi, units, what))
	}
}

// newManifest returns the manifest of command for shard sh (nil: the
// whole) of units (rundir.Part.NewManifest), with the arguments given
// (cliflag.Set.Recorded without unrecordedFlags, then extra: provenance
// only, never parsed by a merge) and config (nil: none yet) recorded.
func newManifest(command string, config any, c *cmdFlags, extra []string, sh *shard, unit string, units int) (*rundir.Manifest, error) {
	return sh.part().NewManifest(command, unit, units, rundir.BuildVersion("ptbatch"), append(c.Recorded(unrecordedFlags), extra...), config)
}

// unrecordedFlags are the flags a manifest does not record: where the output goes,
// how much is printed, which shard, where a checkpoint goes.
var unrecordedFlags = map[string]bool{
	"out": true, "pin": true, "quiet": true, "json": true,
	"shard": true, "shards": true, "resume": true, "checkpoint": true, "checkpoint-every": true,
}

// staleOutputs are the files a run writes only with some flags
// (--record index), which a manifest of format 1 did not record: a fresh
// command in a reused --out removes them with the files the previous
// manifest records.
var staleOutputs = []string{"index.csv", "index.png", "index.svg"}

// startJob takes the lock of out (holdJob) and writes the manifest m.
func startJob(c *cmdFlags, out string, m *rundir.Manifest, prior float64, fresh bool, stderr io.Writer) (*rundir.Job, error) {
	j, err := holdJob(c, out, m, prior, fresh, stderr)
	if err != nil {
		return nil, err
	}
	if err := j.WriteManifest(); err != nil {
		j.Close()
		return nil, err
	}
	return j, nil
}

// holdJob takes the lock of out and starts the job of manifest m
// (rundir.StartJob: a fresh job first removes what a previous command
// left in out); prior is the seconds spent before. It writes no
// manifest, for a command that writes it only once nothing more can be
// refused (run, whose --resume is checked against the restored engine).
func holdJob(c *cmdFlags, out string, m *rundir.Manifest, prior float64, fresh bool, stderr io.Writer) (*rundir.Job, error) {
	d, err := holdOut(c, "out", out, stderr)
	if err != nil {
		return nil, err
	}
	j, err := rundir.StartJob(d, m, prior, fresh, staleOutputs...)
	var le *rundir.LinkError
	switch {
	case errors.As(err, &le) && le.Err != nil:
		err = c.bad("out", "cannot read the directory: %v", unwrapPath(le.Err))
	case errors.As(err, &le):
		err = c.bad("out", "%s is a symbolic link: ptbatch writes no output through a link; remove it", filepath.Join(out, le.Link))
	}
	if err != nil {
		d.Close()
		return nil, err
	}
	return j, nil
}
