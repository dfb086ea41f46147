package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ptbatch/ptbatch/study"
)

// isStudyShard reports whether dir holds a shard of ptbatch study (its
// plan.json and shard.json).
func isStudyShard(dir string) bool {
	_, err1 := os.Stat(filepath.Join(dir, "plan.json"))
	_, err2 := os.Stat(filepath.Join(dir, "shard.json"))
	return err1 == nil && err2 == nil
}

// readStudyShard reads a shard's plan.json (as bytes and as a plan),
// shard.json and cells.
func readStudyShard(dir string) ([]byte, *study.Plan, studyShard, []study.Cell, error) {
	var which studyShard
	planBytes, err := os.ReadFile(filepath.Join(dir, "plan.json"))
	if err != nil {
		return nil, nil, which, nil, err
	}
	p, err := study.ReadPlan(bytes.NewReader(planBytes))
	if err != nil {
		return nil, nil, which, nil, fmt.Errorf("plan.json: %v", err)
	}
	sh, err := os.ReadFile(filepath.Join(dir, "shard.json"))
	if err == nil {
		err = json.Unmarshal(sh, &which)
	}
	if err != nil {
		return nil, nil, which, nil, fmt.Errorf("shard.json: %v", err)
	}
	f, err := os.Open(filepath.Join(dir, "cells.csv"))
	if err != nil {
		return nil, nil, which, nil, fmt.Errorf("no cells.csv (the shard has not finished): %v", unwrapPath(err))
	}
	defer f.Close()
	cells, err := study.ReadCells(f, p)
	return planBytes, p, which, cells, err
}

// mergeStudy merges the shards of one study, on their data: every shard
// must hold the same plan.json, shards 1..n must each be given once, and
// the merged files are those one process writes.
func mergeStudy(out string, dirs []string, stdout io.Writer, quiet bool) error {
	var first []byte
	var plan *study.Plan
	var all [][]study.Cell
	seen := map[int]string{}
	count := 0
	for _, d := range dirs {
		pb, p, which, cells, err := readStudyShard(d)
		if err != nil {
			return usagef("shard %s: %v", d, err)
		}
		switch {
		case first == nil:
			first, plan, count = pb, p, which.Shards
		case !bytes.Equal(pb, first):
			return usagef("shard %s: its plan.json differs from that of %s: the shards are of different studies", d, dirs[0])
		case which.Shards != count:
			return usagef("shard %s: a shard of %d, but %s is a shard of %d", d, which.Shards, dirs[0], count)
		}
		if prev, dup := seen[which.Shard]; dup {
			return usagef("shard %s: shard %d/%d is also %s", d, which.Shard, count, prev)
		}
		seen[which.Shard] = d
		all = append(all, cells)
	}
	if len(seen) != count {
		return usagef("merge needs all %d shards of the study; %d given", count, len(seen))
	}
	cells, err := study.Merge(plan, all...)
	if err != nil {
		return usagef("%v", err)
	}
	if err := prepareStudyDir(plan, studyShard{1, 1}, studyFlags{out: out}); err != nil {
		return err
	}
	if err := writeStudyResults(out, plan, cells); err != nil {
		return err
	}
	if !quiet {
		fmt.Fprintf(stdout, "merged %d shards of study %s (%d cells) into %s\n", count, plan.Name, len(cells), out)
	}
	return nil
}
