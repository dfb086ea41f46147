package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"time"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/study"
)

// studyJob is a study's hold on its --out: the directory, and the
// manifest kept up to date as pieces finish.
type studyJob struct {
	d     *rundir.Dir
	m     *rundir.Manifest
	prev  *rundir.Manifest // what a resumed study goes on from (empty when fresh)
	start time.Time
	prior float64 // seconds spent before a resume
}

// startStudy takes f.out and prepares it for shard which of p: with
// --resume, when it holds a study, it checks that it is this shard of
// this plan and goes on from its manifest (without one it starts
// afresh, so that a job script can always pass --resume); otherwise it
// removes what a previous command left and writes plan.json, shard.json
// and the manifest m.
func startStudy(p *study.Plan, which studyShard, m *rundir.Manifest, f studyFlags, stderr io.Writer) (*studyJob, error) {
	d, err := holdStudyOut(f.out, stderr)
	if err != nil {
		return nil, err
	}
	j := &studyJob{d: d, m: m, prev: &rundir.Manifest{}, start: time.Now()}
	prev, _ := rundir.ReadManifest(f.out) // none, or unreadable: nothing recorded
	if _, err = os.Lstat(d.File("plan.json")); f.resume && err == nil {
		err = j.resume(p, which, prev)
	} else {
		err = j.fresh(p, which, prev)
	}
	if err != nil {
		d.Close()
		return nil, err
	}
	return j, nil
}

// studyHeaders returns plan.json and shard.json of shard which of p.
func studyHeaders(p *study.Plan, which studyShard) (plan, sh []byte, err error) {
	var pb, sb bytes.Buffer
	if err := study.WritePlan(&pb, p); err != nil {
		return nil, nil, err
	}
	if err := json.NewEncoder(&sb).Encode(which); err != nil {
		return nil, nil, err
	}
	return pb.Bytes(), sb.Bytes(), nil
}

// fresh empties the directory of what prev records and of a study's
// files, then writes the manifest, plan.json and shard.json, and the
// manifest again with them.
func (j *studyJob) fresh(p *study.Plan, which studyShard, prev *rundir.Manifest) error {
	plan, sh, err := studyHeaders(p, which)
	if err != nil {
		return err
	}
	if err := clearStudyOut(j.d, prev); err != nil {
		return err
	}
	// The manifest first, and plan.json last (a --resume goes on when
	// it is there): a kill in between leaves a study's manifest beside
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

// resume checks that the directory holds shard which of p (its
// plan.json, shard.json and manifest) and takes over the manifest prev:
// its finished pieces, files and time. A complete study is left as it is.
func (j *studyJob) resume(p *study.Plan, which studyShard, prev *rundir.Manifest) error {
	plan, sh, err := studyHeaders(p, which)
	if err != nil {
		return err
	}
	old, err1 := os.ReadFile(j.d.File("plan.json"))
	oldSh, err2 := os.ReadFile(j.d.File("shard.json"))
	if err1 != nil || err2 != nil || !bytes.Equal(old, plan) || !bytes.Equal(oldSh, sh) ||
		prev == nil || prev.Command != "study" || prev.Fingerprint != j.m.Fingerprint {
		return usagef("invalid --resume: %s does not hold this study's shard %d/%d (its plan.json, shard.json or %s differ or are missing)",
			j.d.Path(), which.Shard, which.Shards, rundir.ManifestName)
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
func (j *studyJob) writeManifest() error {
	j.m.ElapsedSeconds = j.prior + time.Since(j.start).Seconds()
	return j.d.WriteManifest(j.m)
}

// finish writes the shard's cells.csv (the whole study's files when it
// is shard 1/1), removes the pieces and checkpoints, and marks the
// manifest complete.
func (j *studyJob) finish(p *study.Plan, which studyShard, cells []study.Cell) error {
	var err error
	if which.Shards > 1 {
		err = rundir.WriteFile(j.d.File("cells.csv"), func(w io.Writer) error { return study.WriteCells(w, p, cells) })
	} else {
		err = writeStudyResults(j.d, p, cells)
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

// isMissing reports whether err says a file does not exist.
func isMissing(err error) bool { return errors.Is(err, fs.ErrNotExist) }
