package paper_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptbatch/ptbatch/paper"
)

// A reproduction from a Go program: the paper's Figure 5 narrowed to
// d = 1 and 2, with 2 replicates at a thousandth of its iterations,
// reproduced into a directory: the files of `ptbatch reproduce highdim`
// but its manifest.json, which is the command's (Options.Job).
func ExampleReproduce() {
	dir, err := os.MkdirTemp("", "reproduce")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	s := paper.Settings{Which: "highdim", Replicates: 2, Scale: 0.001, Seed: 1, HighDims: []int{1, 2}}
	if _, err := paper.Reproduce(context.Background(), s, dir, paper.Options{Workers: 1}); err != nil {
		fmt.Println(err)
		return
	}
	for _, pattern := range []string{"*", "highdim/*", "runs/*"} {
		files, _ := filepath.Glob(filepath.Join(dir, pattern))
		for i, f := range files {
			rel, _ := filepath.Rel(dir, f)
			files[i] = filepath.ToSlash(rel)
		}
		fmt.Println(strings.Join(files, " "))
	}
	// Output:
	// highdim results.md runs summary.json
	// highdim/rate_vs_dimension.png highdim/rate_vs_dimension.svg highdim/rates.csv
	// runs/000.gob runs/001.gob runs/002.gob runs/003.gob
}
