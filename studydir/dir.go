package studydir

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"os"
	"time"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/study"
)

// Shard says which shard of how many a directory holds (its shard.json).
type Shard struct {
	Shard  int `json:"shard"`
	Shards int `json:"shards"`
}

// Whole is the shard 1/1: the whole plan in one process.
var Whole = Shard{1, 1}

// Unit is the unit of a study's shards (rundir.Manifest.Unit).
const Unit = "run × replicate"

// Outputs are the files of a whole study; a fresh study in a reused
// directory removes them (with what the previous manifest records).
var Outputs = []string{"cells.csv", "summary.csv", "summary.json", "results.md", "plan.json", "shard.json",
	"tail_rate.png", "tail_rate.svg", "barrier.png", "barrier.svg"}

// scratch are the directories of an unfinished study: its finished
// pieces' cells and the running piece's checkpoint.
var scratch = []string{"pieces", "checkpoints"}

// Options are the settings of Open, Run and Merge; the zero value is
// valid.
type Options struct {
	// Resume goes on with the study the directory holds, when it holds
	// one (plan.json): it must be the same shard of the same plan, its
	// finished pieces are kept and the running piece resumes from its
	// checkpoint. Without a study in the directory, Open starts afresh.
	Resume bool
	// Notes receives one-line notes: a recovered lock, a complete study
	// that Run does not resume (nil: none).
	Notes io.Writer
	// Program names the writer of notes and of the build (default
	// "ptbatch").
	Program string
	// Version is the build recorded in the manifest, which Merge
	// requires equal in every shard (default rundir.BuildVersion(Program)).
	Version string
	// Source says how the shard was chosen (rundir.Manifest.ShardSource).
	Source string
	// Figures, when not nil, writes a whole study's figures into dir
	// (with rundir's atomic writers, so that the manifest records them).
	Figures func(dir string, p *study.Plan, sums []study.RunSummary) error
}

// program returns o.Program or "ptbatch".
func (o Options) program() string {
	if o.Program == "" {
		return "ptbatch"
	}
	return o.Program
}

// version returns o.Version or the build's.
func (o Options) version() string {
	if o.Version == "" {
		return rundir.BuildVersion(o.program())
	}
	return o.Version
}

// Dir is a study's hold on its directory: the lock, and the manifest kept
// up to date as pieces finish.
type Dir struct {
	d     *rundir.Dir
	p     *study.Plan
	which Shard
	o     Options
	m     *rundir.Manifest
	prev  *rundir.Manifest // what a resumed study goes on from (empty when fresh)
	start time.Time
	prior float64 // seconds spent before a resume
}

// NewManifest returns the manifest of shard which of plan p, nothing done
// yet: its fingerprint is the plan's (study.Plan.Fingerprint), and its
// units [First, End) those of study.Plan.Shard.
func NewManifest(p *study.Plan, which Shard, source, version string) (*rundir.Manifest, error) {
	fp, err := p.Fingerprint()
	if err != nil {
		return nil, err
	}
	lo, hi := rundir.Share(which.Shard, which.Shards, p.Units())
	return &rundir.Manifest{Format: rundir.ManifestFormat, Command: "study", Version: version, Fingerprint: fp,
		Settings: map[string]string{"study": p.Name}, Shard: which.Shard, Shards: which.Shards, ShardSource: source,
		Unit: Unit, Units: p.Units(), First: lo, End: hi, Done: lo}, nil
}

// Open takes the directory path (created if needed) for shard which of
// p: with o.Resume, when it holds a study, it checks that it is this
// shard of this plan (a *ResumeError otherwise) and goes on from its
// manifest; otherwise it removes what a previous command left and writes
// plan.json, shard.json and the manifest. A directory another process
// holds, or with a symbolic link under it, is refused with an *OutError.
func Open(path string, p *study.Plan, which Shard, o Options) (*Dir, error) {
	if _, err := p.Shard(which.Shard, which.Shards); err != nil {
		return nil, err
	}
	m, err := NewManifest(p, which, o.Source, o.version())
	if err != nil {
		return nil, err
	}
	d, err := hold(path, o)
	if err != nil {
		return nil, err
	}
	j := &Dir{d: d, p: p, which: which, o: o, m: m, prev: &rundir.Manifest{}, start: time.Now()}
	prev, _ := rundir.ReadManifest(path) // none, or unreadable: nothing recorded
	if _, err = os.Lstat(d.File("plan.json")); o.Resume && err == nil {
		err = j.resume(prev)
	} else {
		err = j.fresh(prev)
	}
	if err != nil {
		d.Close()
		return nil, err
	}
	return j, nil
}

// hold takes the directory through package rundir, refusing it when
// another process holds it or a symbolic link is under it.
func hold(path string, o Options) (*rundir.Dir, error) {
	d, err := rundir.Open(path, rundir.Options{Notes: o.Notes, Program: o.program()})
	if err != nil {
		return nil, &OutError{Path: path, Lock: true, Err: err} // a *rundir.LockedError when another process holds it
	}
	link, err := rundir.FindSymlink(path)
	if err != nil || link != "" {
		d.Close()
		return nil, &OutError{Path: path, Link: link, Err: err}
	}
	return d, nil
}

// Path returns the directory as given to Open.
func (j *Dir) Path() string { return j.d.Path() }

// Complete reports whether the directory holds this shard complete (a
// resumed study that had finished): there is nothing to run.
func (j *Dir) Complete() bool { return j.m.Complete }

// Close releases the directory (no lock file is left); nil-safe.
func (j *Dir) Close() error {
	if j == nil {
		return nil
	}
	return j.d.Close()
}

// headers returns plan.json and shard.json.
func (j *Dir) headers() (plan, sh []byte, err error) {
	var pb, sb bytes.Buffer
	if err := study.WritePlan(&pb, j.p); err != nil {
		return nil, nil, err
	}
	if err := json.NewEncoder(&sb).Encode(j.which); err != nil {
		return nil, nil, err
	}
	return pb.Bytes(), sb.Bytes(), nil
}

// fresh empties the directory of what prev records and of a study's
// files, then writes the manifest, shard.json and plan.json, and the
// manifest again with them.
func (j *Dir) fresh(prev *rundir.Manifest) error {
	plan, sh, err := j.headers()
	if err != nil {
		return err
	}
	if err := j.d.RemoveStale(prev, Outputs...); err != nil {
		return err
	}
	if err := removeScratch(j.d, prev); err != nil {
		return err
	}
	// The manifest first, and plan.json last (a resume goes on when it
	// is there): a kill in between leaves a study's manifest beside
	// plan.json and shard.json, never a previous command's.
	if err := j.writeManifest(); err != nil {
		return err
	}
	if err := rundir.WriteBytes(j.d.File("shard.json"), sh); err != nil {
		return err
	}
	if err := rundir.WriteBytes(j.d.File("plan.json"), plan); err != nil {
		return err
	}
	return j.writeManifest()
}

// resume checks that the directory holds this shard of this plan (its
// plan.json, shard.json and manifest) and takes over the manifest prev:
// its finished pieces, files and time. A complete study is left as it is.
func (j *Dir) resume(prev *rundir.Manifest) error {
	plan, sh, err := j.headers()
	if err != nil {
		return err
	}
	old, err1 := os.ReadFile(j.d.File("plan.json"))
	oldSh, err2 := os.ReadFile(j.d.File("shard.json"))
	if err1 != nil || err2 != nil || !bytes.Equal(old, plan) || !bytes.Equal(oldSh, sh) ||
		prev == nil || prev.Command != "study" || prev.Fingerprint != j.m.Fingerprint {
		return &ResumeError{Path: j.d.Path(), Shard: j.which}
	}
	if prev.Complete {
		j.m = prev
		return nil
	}
	j.prev, j.prior = prev, prev.ElapsedSeconds
	j.m.Files, j.m.Done = maps.Clone(prev.Files), prev.Done
	return j.writeManifest()
}

// writeManifest writes the manifest with the time spent so far.
func (j *Dir) writeManifest() error {
	j.m.ElapsedSeconds = j.prior + time.Since(j.start).Seconds()
	return j.d.WriteManifest(j.m)
}

// Interrupt records in the manifest that the study was interrupted: its
// finished pieces and the running piece's checkpoint stay for a resume.
func (j *Dir) Interrupt() error {
	j.m.Interrupted = true
	return j.writeManifest()
}

// Finish writes the shard's cells.csv (the whole study's files, Write,
// when it is shard 1/1), removes the pieces and checkpoints, and marks
// the manifest complete.
func (j *Dir) Finish(cells []study.Cell) error {
	var err error
	if j.which.Shards > 1 {
		err = rundir.WriteFile(j.d.File("cells.csv"), func(w io.Writer) error { return study.WriteCells(w, j.p, cells) })
	} else {
		err = Write(j.d.Path(), j.p, cells, j.o.Figures)
	}
	if err != nil {
		return err
	}
	if err := removeScratch(j.d, j.m); err != nil {
		return err
	}
	j.m.Done, j.m.Complete, j.m.Interrupted = j.m.End, true, false
	return j.writeManifest()
}
