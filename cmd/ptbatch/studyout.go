package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/study"
)

// A study's --out is a rundir.Dir: held by one process (DIR/.lock, gone
// after a clean exit), every file written atomically without following a
// link, and the length and SHA-256 of each recorded in manifest.json,
// which ptbatch merge checks before it uses a shard.

// studyOutputs are the files a study writes; a fresh study in a reused
// --out removes them (with what the previous manifest records).
var studyOutputs = []string{"cells.csv", "summary.csv", "summary.json", "results.md", "plan.json", "shard.json",
	"tail_rate.png", "tail_rate.svg", "barrier.png", "barrier.svg"}

// studyScratch are the directories of an unfinished study: its finished
// pieces' cells and the running piece's checkpoint.
var studyScratch = []string{"pieces", "checkpoints"}

// holdStudyOut takes the directory out (created if needed) through
// package rundir, refusing it when another process holds it or when a
// symbolic link is under it; a lock left by a killed process is
// recovered with a note on notes.
func holdStudyOut(out string, notes io.Writer) (*rundir.Dir, error) {
	d, err := rundir.Open(out, rundir.Options{Notes: notes, Program: "ptbatch"})
	var le *rundir.LockedError
	switch {
	case errors.As(err, &le):
		return nil, usagef("invalid --out %s: %v; wait for it to finish or choose another directory", out, le)
	case err != nil:
		return nil, usagef("invalid --out %s: cannot lock the directory: %v", out, unwrapPath(err))
	}
	link, err := rundir.FindSymlink(out)
	if err != nil || link != "" {
		d.Close()
		if err != nil {
			return nil, usagef("invalid --out %s: cannot read the directory: %v", out, unwrapPath(err))
		}
		return nil, usagef("invalid --out %s: %s is a symbolic link: ptbatch writes no output through a link; remove it", out, filepath.Join(out, link))
	}
	return d, nil
}

// clearStudyOut removes what a previous command left in d: the files its
// manifest prev records (nil: none), a study's files and its scratch.
func clearStudyOut(d *rundir.Dir, prev *rundir.Manifest) error {
	if err := d.RemoveStale(prev, studyOutputs...); err != nil {
		return err
	}
	return removeScratch(d, prev)
}

// removeScratch removes the study's scratch directories and drops them
// from the manifest m (nil: none).
func removeScratch(d *rundir.Dir, m *rundir.Manifest) error {
	for _, s := range studyScratch {
		if err := d.RemoveAll(s); err != nil {
			return err
		}
		if m != nil {
			for name := range m.Files {
				if strings.HasPrefix(name, s+"/") {
					delete(m.Files, name)
				}
			}
		}
	}
	return nil
}

// dirCheckpoints keeps checkpoints as files of a directory.
type dirCheckpoints string

// Save writes data as the file key.ckpt.
func (d dirCheckpoints) Save(key string, data []byte) error {
	if err := os.MkdirAll(string(d), 0o755); err != nil {
		return err
	}
	return rundir.WriteBytes(filepath.Join(string(d), key+".ckpt"), data)
}

// Load reads the file key.ckpt, or returns nil when there is none.
func (d dirCheckpoints) Load(key string) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(string(d), key+".ckpt"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// pieceName is where a finished piece's cells are kept until the study
// ends, relative to --out.
func pieceName(pc study.Piece) string { return "pieces/" + study.CheckpointKey(pc) + ".csv" }

// savePiece returns the Options.Done that keeps a finished piece's cells
// and then records the piece as done in the manifest.
func savePiece(p *study.Plan, j *studyJob) func(study.Piece, []study.Cell) error {
	return func(pc study.Piece, cells []study.Cell) error {
		if err := os.MkdirAll(j.d.File("pieces"), 0o755); err != nil {
			return err
		}
		err := rundir.WriteFile(j.d.File(pieceName(pc)), func(w io.Writer) error { return study.WriteCells(w, p, cells) })
		if err != nil {
			return err
		}
		j.m.Done += len(cells)
		return j.d.WriteManifest(j.m)
	}
}

// loadPiece returns the Options.Skip that reads a piece kept by savePiece,
// after checking it against the checksum the manifest prev recorded.
func loadPiece(p *study.Plan, d *rundir.Dir, prev *rundir.Manifest) func(study.Piece) ([]study.Cell, bool, error) {
	return func(pc study.Piece) ([]study.Cell, bool, error) {
		name := pieceName(pc)
		sum, ok := prev.Files[name]
		if !ok {
			return nil, false, nil // not finished, or finished as it was killed: run it again
		}
		if err := rundir.Verify(d.Path(), name, sum); err != nil {
			return nil, false, usagef("invalid --resume: %v; start the study afresh (without --resume)", unwrapPath(err))
		}
		f, err := os.Open(d.File(name))
		if err != nil {
			return nil, false, err
		}
		defer f.Close()
		cells, err := study.ReadCells(f, p)
		return cells, err == nil, err
	}
}

// writeStudyResults writes the files of a whole study into d: cells.csv,
// summary.csv, summary.json, results.md and the figures.
func writeStudyResults(d *rundir.Dir, p *study.Plan, cells []study.Cell) error {
	sums := study.Summarize(cells)
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"cells.csv", func(w io.Writer) error { return study.WriteCells(w, p, cells) }},
		{"summary.csv", func(w io.Writer) error { return study.WriteSummary(w, p, sums) }},
		{"summary.json", func(w io.Writer) error { return study.WriteSummaryJSON(w, p, sums) }},
		{"results.md", func(w io.Writer) error { return writeStudyMarkdown(w, p, sums) }},
	}
	for _, f := range files {
		if err := rundir.WriteFile(d.File(f.name), f.write); err != nil {
			return err
		}
	}
	return writeStudyFigures(d.Path(), p, sums)
}

// newStudyManifest returns the manifest of shard which of plan p: its
// fingerprint is the plan's (study.Plan.Fingerprint).
func newStudyManifest(p *study.Plan, which studyShard, source string) (*rundir.Manifest, error) {
	fp, err := p.Fingerprint()
	if err != nil {
		return nil, usagef("%v", err)
	}
	sh := &shard{index: which.Shard, count: which.Shards}
	lo, hi := sh.share(p.Units())
	return &rundir.Manifest{Format: rundir.ManifestFormat, Command: "study", Version: buildVersion(), Fingerprint: fp,
		Settings: map[string]string{"study": p.Name}, Shard: which.Shard, Shards: which.Shards, ShardSource: source,
		Unit: studyUnit, Units: p.Units(), First: lo, End: hi, Done: lo}, nil
}

// studyUnit is the unit of a study's shards.
const studyUnit = "run × replicate"
