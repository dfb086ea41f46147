package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/study"
)

// isStudyShard reports whether dir holds a shard of ptbatch study (its
// plan.json and shard.json).
func isStudyShard(dir string) bool {
	_, err1 := os.Stat(filepath.Join(dir, "plan.json"))
	_, err2 := os.Stat(filepath.Join(dir, "shard.json"))
	return err1 == nil && err2 == nil
}

// studyShardDir is one input of a study merge, checked and read.
type studyShardDir struct {
	dir   string
	m     *rundir.Manifest
	plan  *study.Plan
	which studyShard
	cells []study.Cell
}

// checkStudyShard reads the manifest of the shard directory dir and
// refuses a directory that is --out, not a complete study shard, or
// whose files changed after they were written (rundir.VerifyFiles):
// nothing of it is read before its checksums are.
func checkStudyShard(out, dir string) (*rundir.Manifest, error) {
	if a, b := absPath(out), absPath(dir); a == b || sameDir(out, dir) {
		return nil, usagef("invalid --out %s: it is also one of the shards; merge into a new directory", out)
	}
	m, err := rundir.ReadManifest(dir)
	switch {
	case isMissing(err):
		return nil, usagef("shard %s has no %s: not the --out of a finished ptbatch study", dir, rundir.ManifestName)
	case err != nil:
		return nil, usagef("shard %s: unreadable %s: %v", dir, rundir.ManifestName, unwrapPath(err))
	case m.Format != rundir.ManifestFormat:
		return nil, usagef("shard %s: manifest format %d, this ptbatch reads format %d: merge with the ptbatch that wrote it", dir, m.Format, rundir.ManifestFormat)
	case m.Command != "study":
		return nil, usagef("shard %s holds the output of ptbatch %s, not of ptbatch study", dir, m.Command)
	case !m.Complete:
		return nil, usagef("shard %s (%d/%d) is partial: it stopped after %d of its %d units; resume it with --resume and merge then",
			dir, m.Shard, m.Shards, m.Done-m.First, m.End-m.First)
	}
	for _, need := range []string{"plan.json", "shard.json", "cells.csv"} {
		if _, ok := m.Files[need]; !ok {
			return nil, usagef("shard %s is damaged: its %s records no %s; compute the shard again", dir, rundir.ManifestName, need)
		}
	}
	if err := rundir.VerifyFiles(dir, m); err != nil {
		return nil, usagef("shard %s is damaged: %v; compute the shard again", dir, unwrapPath(err))
	}
	return m, nil
}

// readStudyShard checks the shard dir (checkStudyShard), then reads its
// plan, shard.json and cells, and refuses a manifest whose fingerprint is
// not its plan's or whose shard is not shard.json's.
func readStudyShard(out, dir string) (studyShardDir, error) {
	s := studyShardDir{dir: dir}
	m, err := checkStudyShard(out, dir)
	if err != nil {
		return s, err
	}
	s.m = m
	planBytes, err := os.ReadFile(filepath.Join(dir, "plan.json"))
	if err == nil {
		s.plan, err = study.ReadPlan(bytes.NewReader(planBytes))
	}
	if err != nil {
		return s, usagef("shard %s: plan.json: %v", dir, unwrapPath(err))
	}
	sh, err := os.ReadFile(filepath.Join(dir, "shard.json"))
	if err == nil {
		err = json.Unmarshal(sh, &s.which)
	}
	if err != nil {
		return s, usagef("shard %s: shard.json: %v", dir, unwrapPath(err))
	}
	if fp, err := s.plan.Fingerprint(); err != nil || fp != m.Fingerprint || s.which != (studyShard{m.Shard, m.Shards}) {
		return s, usagef("shard %s: its %s does not describe its plan.json and shard.json (edited?); compute the shard again", dir, rundir.ManifestName)
	}
	f, err := os.Open(filepath.Join(dir, "cells.csv"))
	if err != nil {
		return s, usagef("shard %s: %v", dir, unwrapPath(err))
	}
	defer f.Close()
	if s.cells, err = study.ReadCells(f, s.plan); err != nil {
		return s, usagef("shard %s: cells.csv: %v", dir, err)
	}
	return s, nil
}

// absPath returns path made absolute ("" if it cannot be).
func absPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	return abs
}

// sameDir reports whether a and b exist and are the same directory.
func sameDir(a, b string) bool {
	x, err1 := os.Stat(a)
	y, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(x, y)
}

// readStudyShards reads and checks every shard, read-locked (a shard a
// process is writing is refused) until release is called, and refuses
// shards that are not each shard 1..n of one plan once.
func readStudyShards(out string, dirs []string) (shards []studyShardDir, release func(), err error) {
	var releases []func()
	release = func() {
		for _, r := range releases {
			r()
		}
	}
	for _, d := range dirs {
		r, err := rundir.ReadLock(d)
		if err != nil {
			return nil, release, usagef("shard %s: %v; merge it when that process ends", d, unwrapPath(err))
		}
		releases = append(releases, r)
		s, err := readStudyShard(out, d)
		if err != nil {
			return nil, release, err
		}
		shards = append(shards, s)
	}
	return shards, release, checkStudyShards(shards)
}

// checkStudyShards refuses shards of different plans or builds, a shard
// given twice and a missing one.
func checkStudyShards(shards []studyShardDir) error {
	a := shards[0]
	seen := map[int]string{}
	for _, s := range shards {
		switch {
		case s.m.Fingerprint != a.m.Fingerprint:
			return usagef("shard %s: its plan differs from that of %s (fingerprints %.12s… and %.12s…): the shards are of different studies", s.dir, a.dir, s.m.Fingerprint, a.m.Fingerprint)
		case s.m.Version != a.m.Version:
			return usagef("shards of different builds: %s was written by %q, %s by %q; compute every shard with one", a.dir, a.m.Version, s.dir, s.m.Version)
		case s.which.Shards != a.which.Shards:
			return usagef("shard %s: a shard of %d, but %s is a shard of %d", s.dir, s.which.Shards, a.dir, a.which.Shards)
		}
		if prev, dup := seen[s.which.Shard]; dup {
			return usagef("shard %s: shard %d/%d is also %s", s.dir, s.which.Shard, s.which.Shards, prev)
		}
		seen[s.which.Shard] = s.dir
	}
	if len(seen) != a.which.Shards {
		return usagef("merge needs all %d shards of the study; %d given", a.which.Shards, len(seen))
	}
	return nil
}

// mergeStudy merges the shards of one study, on their data, after
// checking every shard file against its checksum: the merged files are
// those one process writes. A refused merge writes nothing.
func mergeStudy(out string, dirs []string, stdout, stderr io.Writer, quiet bool) error {
	shards, release, err := readStudyShards(out, dirs)
	defer release()
	if err != nil {
		return err
	}
	plan := shards[0].plan
	all := make([][]study.Cell, len(shards))
	m, err := newStudyManifest(plan, studyShard{1, 1}, "")
	if err != nil {
		return err
	}
	for i, s := range shards {
		all[i] = s.cells
		m.ElapsedSeconds += s.m.ElapsedSeconds
	}
	cells, err := study.Merge(plan, all...)
	if err != nil {
		return usagef("%v", err)
	}
	if err := writeMergedStudy(out, plan, cells, m, stderr); err != nil {
		return err
	}
	if !quiet {
		fmt.Fprintf(stdout, "merged %d shards of study %s (%d cells) into %s\n", len(shards), plan.Name, len(cells), out)
	}
	return nil
}

// writeMergedStudy writes a merged study into out, held through package
// rundir, with the manifest m marked complete.
func writeMergedStudy(out string, p *study.Plan, cells []study.Cell, m *rundir.Manifest, stderr io.Writer) error {
	d, err := holdStudyOut(out, stderr)
	if err != nil {
		return err
	}
	defer d.Close()
	prev, _ := rundir.ReadManifest(out)
	j := &studyJob{d: d, m: m, prev: &rundir.Manifest{}, prior: m.ElapsedSeconds}
	j.start = time.Now()
	if err := j.fresh(p, studyShard{1, 1}, prev); err != nil {
		return err
	}
	return j.finish(p, studyShard{1, 1}, cells)
}
