// Command shardstudy runs a study of its own model through the library
// alone: it registers a models.FromFuncs model in the registry, plans two
// methods × two seeds, runs the plan as 3 shards that each write their
// cells and plan to a directory of their own (as 3 machines would),
// merges the shards' files into one study, and checks that the merged
// files are the bytes one process writes.
//
//	go run ./examples/shardstudy -out /tmp/shardstudy
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
	"github.com/ptbatch/ptbatch/study"
)

// The model: reference N(0, 1), target ½N(−s, 0.5²) + ½N(s, 0.5²), with
// the separation s a parameter.
func init() {
	registry.Register(registry.Model{Name: "twomodes", Help: "½N(−s, 0.5²) + ½N(s, 0.5²) from N(0, 1)",
		Params: []registry.Param{{Name: "separation", Kind: registry.Float, Default: 3, Min: 0, Max: 20, Help: "s"}},
		New: func(v registry.Values, _ uint64) (models.Model, error) {
			s := v["separation"]
			return models.FromFuncs(models.Funcs{
				Dim:          1,
				LogReference: func(x []float64) float64 { return -x[0] * x[0] / 2 },
				LogTarget: func(x []float64) float64 {
					a, b := -2*(x[0]+s)*(x[0]+s), -2*(x[0]-s)*(x[0]-s)
					return math.Max(a, b) + math.Log1p(math.Exp(-math.Abs(a-b)))
				},
				SampleReference: func(rng models.Rand, x []float64) { x[0] = rng.Normal() },
			}, models.RandomWalk{})
		}})
}

// plan is the study: the model at two separations, the linear path with
// the paper's tuning against ptbatch's default, seeds 1 and 2, 6
// replicates of 2000 iterations.
func plan() study.Plan {
	specs := []study.ModelSpec{
		{Name: "twomodes", Values: registry.Values{"separation": 2}, Grid: []study.Axis{{Name: "separation", Value: "2"}}},
		{Name: "twomodes", Values: registry.Values{"separation": 4}, Grid: []study.Axis{{Name: "separation", Value: "4"}}},
	}
	methods := []study.Method{
		{Label: "NRPT+Linear", Tuning: "paper", Chains: 12, Scans: 20},
		{Label: "ptbatch auto", Chains: 12},
	}
	return study.NewPlan("twomodes", specs, methods, []uint64{1, 2}, 2000, 6)
}

// runShard runs shard i of n of p and writes its plan.json and cells.csv
// under dir.
func runShard(ctx context.Context, p *study.Plan, i, n int, dir string) error {
	pieces, err := p.Shard(i, n)
	if err != nil {
		return err
	}
	cells, err := study.Execute(ctx, p, pieces, study.Options{})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var plan, cs bytes.Buffer
	if err := errors.Join(study.WritePlan(&plan, p), study.WriteCells(&cs, p, cells)); err != nil {
		return err
	}
	return errors.Join(os.WriteFile(filepath.Join(dir, "plan.json"), plan.Bytes(), 0o644),
		os.WriteFile(filepath.Join(dir, "cells.csv"), cs.Bytes(), 0o644))
}

// readShard reads a shard's plan and cells.
func readShard(dir string) (*study.Plan, []study.Cell, error) {
	pf, err := os.Open(filepath.Join(dir, "plan.json"))
	if err != nil {
		return nil, nil, err
	}
	defer pf.Close()
	p, err := study.ReadPlan(pf)
	if err != nil {
		return nil, nil, err
	}
	cf, err := os.Open(filepath.Join(dir, "cells.csv"))
	if err != nil {
		return nil, nil, err
	}
	defer cf.Close()
	cells, err := study.ReadCells(cf, p)
	return p, cells, err
}

// files returns the study's cells.csv and summary.csv of cells.
func files(p *study.Plan, cells []study.Cell) (cellsCSV, summaryCSV []byte, err error) {
	var c, s bytes.Buffer
	err = errors.Join(study.WriteCells(&c, p, cells), study.WriteSummary(&s, p, study.Summarize(cells)))
	return c.Bytes(), s.Bytes(), err
}

// shardAndMerge runs the plan as n shards under dir/shard-i, merges them
// from their files alone, and returns the merged files and one process's.
func shardAndMerge(ctx context.Context, dir string, n int) (merged, one [2][]byte, err error) {
	p := plan()
	var shards [][]study.Cell
	var q *study.Plan
	for i := 1; i <= n; i++ {
		sub := filepath.Join(dir, fmt.Sprintf("shard-%d", i))
		if err := runShard(ctx, &p, i, n, sub); err != nil {
			return merged, one, err
		}
		var cells []study.Cell
		if q, cells, err = readShard(sub); err != nil {
			return merged, one, err
		}
		shards = append(shards, cells)
	}
	all, err := study.Merge(q, shards...)
	if err != nil {
		return merged, one, err
	}
	if merged[0], merged[1], err = files(q, all); err != nil {
		return merged, one, err
	}
	cells, err := study.Execute(ctx, &p, p.Pieces(), study.Options{})
	if err != nil {
		return merged, one, err
	}
	one[0], one[1], err = files(&p, cells)
	return merged, one, err
}

func main() {
	out := flag.String("out", "shardstudy-out", "directory for the shards' files")
	flag.Parse()
	merged, one, err := shardAndMerge(context.Background(), *out, 3)
	if err != nil {
		fmt.Fprintln(os.Stderr, "shardstudy:", err)
		os.Exit(1)
	}
	fmt.Print(string(merged[1]))
	fmt.Printf("3 shards merged = one process: cells.csv %v, summary.csv %v\n",
		bytes.Equal(merged[0], one[0]), bytes.Equal(merged[1], one[1]))
}
