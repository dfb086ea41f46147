package studydir

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/study"
)

// IsShard reports whether dir holds a study's shard (its plan.json and
// shard.json).
func IsShard(dir string) bool {
	_, err1 := os.Stat(filepath.Join(dir, "plan.json"))
	_, err2 := os.Stat(filepath.Join(dir, "shard.json"))
	return err1 == nil && err2 == nil
}

// shardDir is one input of a merge, checked and read.
type shardDir struct {
	dir   string
	m     *rundir.Manifest
	plan  *study.Plan
	which Shard
	cells []study.Cell
}

// Merged describes a merge that Merge wrote.
type Merged struct {
	Plan   *study.Plan
	Shards int // directories merged
	Cells  int // cells written (run × replicate units)
}

// Merge merges the directories of the shards of one study into dst, on
// their data: each shard's plan.json and cells.csv, read after checking
// every file its manifest records against its length and SHA-256. It
// refuses (a *rundir.ShardError, with nothing written) a shard that is dst, is
// being written, is not complete, is damaged, or whose manifest does not
// describe its plan.json and shard.json, and shards that are not every
// shard of one plan, of one build, once. The arguments and settings a
// manifest records are not read. The merged directory holds the files one
// process writes (Write), with o.Figures, and a complete manifest.
func Merge(dst string, dirs []string, o Options) (*Merged, error) {
	if len(dirs) == 0 {
		return nil, refuse("merge needs the shard directories")
	}
	shards, release, err := readShards(dst, dirs)
	defer release()
	if err != nil {
		return nil, err
	}
	plan := shards[0].plan
	m, err := NewManifest(plan, Whole, "", o.version())
	if err != nil {
		return nil, refuse("%v", err)
	}
	all := make([][]study.Cell, len(shards))
	for i, s := range shards {
		all[i] = s.cells
		m.ElapsedSeconds += s.m.ElapsedSeconds
	}
	cells, err := study.Merge(plan, all...)
	if err != nil {
		return nil, refuse("%v", err)
	}
	if err := writeMerged(dst, plan, cells, m, o); err != nil {
		return nil, err
	}
	return &Merged{Plan: plan, Shards: len(shards), Cells: len(cells)}, nil
}

// writeMerged writes a merged study into dst, held through package
// rundir, with the manifest m marked complete.
func writeMerged(dst string, p *study.Plan, cells []study.Cell, m *rundir.Manifest, o Options) error {
	d, err := hold(dst, o)
	if err != nil {
		return err
	}
	defer d.Close()
	prev, _ := rundir.ReadManifest(dst)
	j := &Dir{d: d, p: p, which: Whole, o: o, m: m, prev: &rundir.Manifest{}, prior: m.ElapsedSeconds, start: time.Now()}
	if err := j.fresh(prev); err != nil {
		return err
	}
	return j.Finish(cells)
}

// readShards reads and checks every shard, read-locked (a shard a process
// is writing is refused) until release is called, and refuses shards that
// are not each shard 1..n of one plan once.
func readShards(dst string, dirs []string) (shards []shardDir, release func(), err error) {
	var releases []func()
	release = func() {
		for _, r := range releases {
			r()
		}
	}
	for _, d := range dirs {
		r, err := rundir.ReadLock(d)
		if err != nil {
			return nil, release, refuse("shard %s: %v; merge it when that process ends", d, rundir.PathError(err))
		}
		releases = append(releases, r)
		s, err := readShard(dst, d)
		if err != nil {
			return nil, release, err
		}
		shards = append(shards, s)
	}
	return shards, release, checkShards(shards)
}

// checkShard reads the manifest of the shard directory dir and refuses a
// directory that is dst, not a complete study shard, or whose files
// changed after they were written (rundir.VerifyFiles): nothing of it is
// read before its checksums are.
func checkShard(dst, dir string) (*rundir.Manifest, error) {
	if a, b := absPath(dst), absPath(dir); a == b || sameDir(dst, dir) {
		return nil, &rundir.ShardError{Dst: true, Msg: dst + " is also one of the shards; merge into a new directory"}
	}
	m, err := rundir.ReadManifest(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, refuse("shard %s has no %s: not the --out of a finished ptbatch study", dir, rundir.ManifestName)
	case err != nil:
		return nil, refuse("shard %s: unreadable %s: %v", dir, rundir.ManifestName, rundir.PathError(err))
	case m.Format != rundir.ManifestFormat:
		return nil, refuse("shard %s: manifest format %d, this ptbatch reads format %d: merge with the ptbatch that wrote it", dir, m.Format, rundir.ManifestFormat)
	case m.Command != "study":
		return nil, refuse("shard %s holds the output of ptbatch %s, not of ptbatch study", dir, m.Command)
	case !m.Complete:
		return nil, refuse("shard %s (%d/%d) is partial: it stopped after %d of its %d units; resume it with --resume and merge then",
			dir, m.Shard, m.Shards, m.Done-m.First, m.End-m.First)
	}
	for _, need := range []string{"plan.json", "shard.json", "cells.csv"} {
		if _, ok := m.Files[need]; !ok {
			return nil, refuse("shard %s is damaged: its %s records no %s; compute the shard again", dir, rundir.ManifestName, need)
		}
	}
	if err := rundir.VerifyFiles(dir, m); err != nil {
		return nil, refuse("shard %s is damaged: %v; compute the shard again", dir, rundir.PathError(err))
	}
	return m, nil
}

// readShard checks the shard dir (checkShard), then reads its plan,
// shard.json and cells, and refuses a manifest whose fingerprint is not
// its plan's or whose shard is not shard.json's.
func readShard(dst, dir string) (shardDir, error) {
	s := shardDir{dir: dir}
	m, err := checkShard(dst, dir)
	if err != nil {
		return s, err
	}
	s.m = m
	planBytes, err := os.ReadFile(filepath.Join(dir, "plan.json"))
	if err == nil {
		s.plan, err = study.ReadPlan(bytes.NewReader(planBytes))
	}
	if err != nil {
		return s, refuse("shard %s: plan.json: %v", dir, rundir.PathError(err))
	}
	sh, err := os.ReadFile(filepath.Join(dir, "shard.json"))
	if err == nil {
		err = json.Unmarshal(sh, &s.which)
	}
	if err != nil {
		return s, refuse("shard %s: shard.json: %v", dir, rundir.PathError(err))
	}
	if fp, err := s.plan.Fingerprint(); err != nil || fp != m.Fingerprint || s.which != (Shard{m.Shard, m.Shards}) {
		return s, refuse("shard %s: its %s does not describe its plan.json and shard.json (edited?); compute the shard again", dir, rundir.ManifestName)
	}
	f, err := os.Open(filepath.Join(dir, "cells.csv"))
	if err != nil {
		return s, refuse("shard %s: %v", dir, rundir.PathError(err))
	}
	defer f.Close()
	if s.cells, err = study.ReadCells(f, s.plan); err != nil {
		return s, refuse("shard %s: cells.csv: %v", dir, err)
	}
	return s, nil
}

// checkShards refuses shards of different plans or builds, a shard given
// twice and a missing one.
func checkShards(shards []shardDir) error {
	a := shards[0]
	seen := map[int]string{}
	for _, s := range shards {
		switch {
		case s.m.Fingerprint != a.m.Fingerprint:
			return refuse("shard %s: its plan differs from that of %s (fingerprints %.12s… and %.12s…): the shards are of different studies", s.dir, a.dir, s.m.Fingerprint, a.m.Fingerprint)
		case s.m.Version != a.m.Version:
			return refuse("shards of different builds: %s was written by %q, %s by %q; compute every shard with one", a.dir, a.m.Version, s.dir, s.m.Version)
		case s.which.Shards != a.which.Shards:
			return refuse("shard %s: a shard of %d, but %s is a shard of %d", s.dir, s.which.Shards, a.dir, a.which.Shards)
		}
		if prev, dup := seen[s.which.Shard]; dup {
			return refuse("shard %s: shard %d/%d is also %s", s.dir, s.which.Shard, s.which.Shards, prev)
		}
		seen[s.which.Shard] = s.dir
	}
	if len(seen) != a.which.Shards {
		return refuse("merge needs all %d shards of the study; %d given", a.which.Shards, len(seen))
	}
	return nil
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
