package sweep_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/study"
	"github.com/ptbatch/ptbatch/sweep"
)

// A sweep into an output directory from a Go program, as `ptbatch sweep
// --out` writes it: the directory held (rundir.Open), a manifest whose
// configuration is the Spec's settings, the files opened (OpenOut), the
// units run (Spec.Execute) and summary.json and the final manifest
// written (Out.Finish).
func ExampleOpenOut() {
	s := &sweep.Spec{Model: "gaussian", Dims: []int{1, 4}, Knots: []int{1}, Seeds: []uint64{1},
		Replicates: 2, Iterations: 20, Scans: 2, LearningRate: 0.2, Sigma: 1, Mu0: -1, Mu1: 1,
		Algorithm: "nrpt", Tuning: "paper", Given: sweep.Lists{Dims: "1,4", Chains: "auto", Knots: "1", Seeds: "1"}}
	root, _ := os.MkdirTemp("", "sweep")
	defer os.RemoveAll(root)
	dir := filepath.Join(root, "out")
	cells := s.Cells()
	m := &rundir.Manifest{Format: rundir.ManifestFormat, Command: "sweep", Shard: 1, Shards: 1,
		Unit: "cell × replicate", Units: len(cells) * s.Replicates, End: len(cells) * s.Replicates}
	if err := m.SetConfig(s.Settings()); err != nil {
		fmt.Println(err)
		return
	}
	d, err := rundir.Open(dir, rundir.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer d.Close()
	job := rundir.NewJob(d, m, 0)
	out, err := sweep.OpenOut(job, s, sweep.Resume{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer out.Close()
	if _, err := s.Execute(context.Background(), cells, 0, m.End, out, study.Options{Workers: 1}, nil); err != nil {
		fmt.Println(err)
		return
	}
	if err := out.Finish(len(cells), false, 1, dir); err != nil {
		fmt.Println(err)
		return
	}
	got, _ := rundir.ReadManifest(dir)
	fmt.Println(got.Complete, got.Done, len(got.Files["cells.csv"].SHA256))
	// Output:
	// true 4 64
}
