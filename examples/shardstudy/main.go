// Command shardstudy runs a study of its own model through the library
// alone: it registers a models.FromFuncs model in the registry, plans two
// methods × two seeds, runs the plan as 3 shards, each into a directory
// of its own (as 3 machines would; package studydir writes the plan, the
// cells, the manifest and the checksums), merges the shards' directories
// into one study, and checks that the merged files are the bytes one
// process writes.
//
//	go run ./examples/shardstudy -out /tmp/shardstudy
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
	"github.com/ptbatch/ptbatch/study"
	"github.com/ptbatch/ptbatch/studydir"
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

// shardAndMerge runs the plan as n shards, each into a directory of its
// own under dir (shard-i, as n machines would) through package studydir,
// merges the shards' directories into dir/merged from their files alone,
// runs the plan in one process into dir/one, and returns the merged and
// the one process's cells.csv and summary.csv.
func shardAndMerge(ctx context.Context, dir string, n int) (merged, one [2][]byte, err error) {
	p := plan()
	var shards []string
	for i := 1; i <= n; i++ {
		sub := filepath.Join(dir, fmt.Sprintf("shard-%d", i))
		if err := studydir.Run(ctx, sub, &p, studydir.Shard{Shard: i, Shards: n}, studydir.Options{}, study.Options{}); err != nil {
			return merged, one, err
		}
		shards = append(shards, sub)
	}
	if _, err := studydir.Merge(filepath.Join(dir, "merged"), shards, studydir.Options{}); err != nil {
		return merged, one, err
	}
	if err := studydir.Run(ctx, filepath.Join(dir, "one"), &p, studydir.Whole, studydir.Options{}, study.Options{}); err != nil {
		return merged, one, err
	}
	for k, name := range []string{"cells.csv", "summary.csv"} {
		if merged[k], err = os.ReadFile(filepath.Join(dir, "merged", name)); err != nil {
			return merged, one, err
		}
		if one[k], err = os.ReadFile(filepath.Join(dir, "one", name)); err != nil {
			return merged, one, err
		}
	}
	return merged, one, nil
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
