package main

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/study"
	"github.com/ptbatch/ptbatch/studydir"
)

// studyFlags are the flags of `ptbatch study FILE.toml`.
type studyFlags struct {
	out             string
	resume          bool
	workers         int
	quiet           bool
	checkpointEvery int
	shard           shardFlags
}

const studyIntro = `Usage: ptbatch study FILE.toml --out DIR [flags]

Runs a declarative study: every [[model]] × [[method]] × seed of FILE, with the
[study] table's replicates and iterations; a list value makes a grid axis.
Writes cells.csv (a row per run × replicate), summary.csv and summary.json (mean
and 95 % interval per run), results.md and tail_rate.png/svg and barrier.png/svg.
A shard (--shard i/n, or a Slurm or Kubernetes array) writes its cells for
ptbatch merge. Keys are ptbatch run's flags without the dashes.`

// runStudyFile is `ptbatch study FILE.toml`.
func runStudyFile(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f studyFlags
	c := newCmdFlags("study")
	c.String(&f.out, "out", "", "output directory (required)")
	c.Bool(&f.resume, "resume", false, "go on with the study that --out holds: finished pieces are kept, the running one resumes from its checkpoint; starts afresh when --out holds no study")
	c.Int(&f.workers, "workers", 0, "worker goroutines of each run (default 0: all CPUs)")
	c.Int(&f.checkpointEvery, "checkpoint-every", 10, "scans between checkpoints of the running piece (0: only when interrupted)")
	c.Bool(&f.quiet, "quiet", false, "no progress lines on stderr")
	addShardFlags(c, &f.shard)
	var file string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		file, args = args[0], args[1:]
	}
	err := c.fs.Parse(args)
	if file == "" && c.err == nil && err == nil && c.fs.NArg() > 0 {
		file = c.fs.Arg(0)
		err = c.fs.Parse(c.fs.Args()[1:])
	}
	if err := c.finishParse(err, stdout, studyIntro); err != nil {
		return err
	}
	switch {
	case file == "":
		return usagef("study needs a file: ptbatch study FILE.toml --out DIR")
	case f.out == "":
		return usagef("study needs --out DIR")
	case f.workers < 0:
		return c.bad("workers", "need 0 (all CPUs) or more")
	case f.checkpointEvery < 0:
		return c.bad("checkpoint-every", "need 0 or more")
	}
	p, err := loadStudy(file)
	if err != nil {
		return err
	}
	sh, err := resolveShard(c, &f.shard)
	if err != nil {
		return err
	}
	return executeStudy(ctx, p, sh, f, stderr)
}

// loadStudy reads a study file into a plan (study.Load): every refusal
// is one line, exit status 2.
func loadStudy(file string) (*study.Plan, error) {
	p, err := study.Load(file)
	var fe *study.FileError
	switch {
	case errors.As(err, &fe):
		return nil, usagef("%v", fe)
	case err != nil:
		return nil, usagef("study: %v", unwrapPath(err))
	}
	return p, nil
}

// executeStudy runs the plan's shard sh (nil: all of it) into f.out
// through package studydir, which holds the directory from before the
// first piece to after the manifest's last write.
func executeStudy(ctx context.Context, p *study.Plan, sh *shard, f studyFlags, stderr io.Writer) error {
	which, source := studydir.Whole, ""
	if sh != nil {
		which, source = studydir.Shard{Shard: sh.index, Shards: sh.count}, sh.source
		if err := sh.check(p.Units(), studydir.Unit+" units"); err != nil {
			return err
		}
		lo, hi := sh.share(p.Units())
		sh.note(stderr, lo, hi, p.Units(), studydir.Unit+" units")
	}
	if _, err := p.Fingerprint(); err != nil {
		return usagef("%v", err)
	}
	o := studydir.Options{Resume: f.resume, Notes: stderr, Source: source, Figures: studydir.WriteFigures}
	so := study.Options{Workers: f.workers, CheckpointEvery: f.checkpointEvery}
	if !f.quiet {
		so.Progress = study.PieceNotes(stderr)
	}
	err := studydir.Run(ctx, f.out, p, which, o, so)
	if errors.Is(err, study.ErrInterrupted) {
		return interruptedf("study interrupted; its finished pieces and a checkpoint are in %s: resume with --resume", f.out)
	}
	return studyError(f.out, err)
}

// studyError turns the refusals of package studydir into one line for
// the command line, naming the flag (--out, --resume); other errors pass.
func studyError(out string, err error) error {
	var (
		oe *studydir.OutError
		re *studydir.ResumeError
		me *rundir.ShardError
		le *rundir.LockedError
	)
	switch {
	case errors.As(err, &le):
		return usagef("invalid --out %s: %v; wait for it to finish or choose another directory", out, le)
	case errors.As(err, &oe) && oe.Link != "":
		return usagef("invalid --out %s: %s is a symbolic link: ptbatch writes no output through a link; remove it", out, filepath.Join(out, oe.Link))
	case errors.As(err, &oe) && oe.Lock:
		return usagef("invalid --out %s: cannot lock the directory: %v", out, unwrapPath(oe.Err))
	case errors.As(err, &oe):
		return usagef("invalid --out %s: cannot read the directory: %v", out, unwrapPath(oe.Err))
	case errors.As(err, &re) && re.Damaged != nil:
		return usagef("invalid --resume: %v; start the study afresh (without --resume)", unwrapPath(re.Damaged))
	case errors.As(err, &re):
		return usagef("invalid --resume: %s does not hold this study's shard %d/%d (its plan.json, shard.json or %s differ or are missing)",
			re.Path, re.Shard.Shard, re.Shard.Shards, rundir.ManifestName)
	case errors.As(err, &me) && me.Dst:
		return usagef("invalid --out %s: it is also one of the shards; merge into a new directory", out)
	case errors.As(err, &me):
		return usagef("%v", me)
	}
	return err
}
