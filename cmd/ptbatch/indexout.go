package main

import (
	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/runout"
)

// indexSpec is what --record index records (runout.IndexSpec).
type indexSpec struct {
	window, thin, from int
	replicas           []int
}

// checkRecord checks --record and the --index-* flags' values.
func (f *runFlags) checkRecord() error {
	c := f.flags
	switch {
	case f.record != "" && f.record != "index":
		return c.bad("record", "want index (the index process), the only record")
	case f.indexWindow < 0:
		return c.bad("index-window", "need 0 (every iteration) or more")
	case f.indexThin < 1:
		return c.bad("index-thin", "need at least 1")
	case f.indexReplicas < 0:
		return c.bad("index-replicas", "need 0 (all replicas) or more")
	case f.indexReplicas > f.chains && c.set("index-replicas"):
		return c.bad("index-replicas", "at most one per chain (--chains %s)", c.show("chains"))
	}
	return nil
}

// indexSpec returns the record of --record index for a run of cfg
// (runout.NewIndexSpec of --index-window, --index-thin and
// --index-replicas).
func (f *runFlags) indexSpec(cfg *batch.Config) indexSpec {
	s := runout.NewIndexSpec(f.indexWindow, f.indexThin, f.indexReplicas, cfg)
	return indexSpec{window: s.Window, thin: s.Thin, from: s.From, replicas: s.Replicas}
}

// lib returns s as a runout.IndexSpec.
func (s indexSpec) lib() runout.IndexSpec {
	return runout.IndexSpec{Window: s.window, Thin: s.thin, From: s.from, Replicas: s.replicas}
}
