package sweep_test

import (
	"context"
	"fmt"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/study"
	"github.com/ptbatch/ptbatch/sweep"
)

// A sweep from a Go program: its cells and plan, shard 2 of 2 of its
// cell × replicate units run with study.Execute, and each finished
// piece's cells.csv rows.
func Example() {
	s := &sweep.Spec{Model: "gaussian", Dims: []int{1, 4}, Knots: []int{1}, Seeds: []uint64{1},
		Replicates: 2, Iterations: 20, Scans: 2, LearningRate: 0.2, Sigma: 1, Mu0: -1, Mu1: 1,
		Algorithm: "nrpt", Tuning: "paper"}
	cells := s.Cells() // chains nil: ⌈15√d⌉
	plan := s.Plan(cells)
	pieces, _ := plan.Shard(2, 2)
	fmt.Println(cells, plan.Units(), pieces)
	o := study.Options{Workers: 1, NoLogZ: true, Result: func(pc study.Piece, res *batch.Result) error {
		rows, _ := sweep.Rows(cells[pc.Run], pc.First, res, s.Bound(cells[pc.Run]))
		for _, r := range rows {
			fmt.Println(r[:5])
		}
		return nil
	}}
	if _, err := study.Execute(context.Background(), &plan, pieces, o); err != nil {
		fmt.Println(err)
	}
	// Output:
	// [{1 15 1 1} {4 30 1 1}] 4 [{1 0 2}]
	// [4 30 1 1 0]
	// [4 30 1 1 1]
}
