package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ptbatch/ptbatch/study"
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

// studyShard is shard.json: which shard of how many a directory holds.
type studyShard struct {
	Shard  int `json:"shard"`
	Shards int `json:"shards"`
}

// executeStudy runs the plan's shard sh (nil: all of it) into f.out,
// which it holds through package rundir from before the first piece to
// after the manifest's last write.
func executeStudy(ctx context.Context, p *study.Plan, sh *shard, f studyFlags, stderr io.Writer) error {
	which, source := studyShard{1, 1}, ""
	if sh != nil {
		which, source = studyShard{sh.index, sh.count}, sh.source
		if err := sh.check(p.Units(), studyUnit+" units"); err != nil {
			return err
		}
		lo, hi := sh.share(p.Units())
		sh.note(stderr, lo, hi, p.Units(), studyUnit+" units")
	}
	pieces, err := p.Shard(which.Shard, which.Shards)
	if err != nil {
		return usagef("%v", err)
	}
	m, err := newStudyManifest(p, which, source)
	if err != nil {
		return err
	}
	j, err := startStudy(p, which, m, f, stderr)
	if err != nil {
		return err
	}
	defer j.d.Close()
	if j.m.Complete {
		fmt.Fprintf(stderr, "ptbatch: the study in %s is complete; nothing to resume\n", f.out)
		return nil
	}
	cells, err := study.Execute(ctx, p, pieces, j.options(p, f, stderr))
	if errors.Is(err, study.ErrInterrupted) {
		j.m.Interrupted = true
		if err := j.writeManifest(); err != nil {
			return err
		}
		return interruptedf("study interrupted; its finished pieces and a checkpoint are in %s: resume with --resume", f.out)
	}
	if err != nil {
		return err
	}
	return j.finish(p, which, cells)
}

// options returns the study.Options of the job: its checkpoints, finished
// pieces and progress lines.
func (j *studyJob) options(p *study.Plan, f studyFlags, stderr io.Writer) study.Options {
	o := study.Options{Workers: f.workers, Checkpoints: dirCheckpoints(j.d.File("checkpoints")),
		CheckpointEvery: f.checkpointEvery, Done: savePiece(p, j), Skip: loadPiece(p, j.d, j.prev)}
	if !f.quiet {
		o.Progress = func(pr study.Progress) {
			if pr.Scan == pr.Scans {
				fmt.Fprintf(stderr, "study: piece %d/%d (run %d) done\n", pr.Piece+1, pr.Pieces, pr.Run)
			}
		}
	}
	return o
}
