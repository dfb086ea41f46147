package main

import (
	"fmt"
	"io"

	"github.com/ptbatch/ptbatch/studydir"
)

// mergeStudy merges the shards of one study on their data
// (studydir.Merge): the merged files are those one process writes. A
// refused merge writes nothing.
func mergeStudy(out string, dirs []string, stdout, stderr io.Writer, quiet bool) error {
	o := studydir.Options{Notes: stderr, Figures: studydir.WriteFigures}
	r, err := studydir.Merge(out, dirs, o)
	if err != nil {
		return studyError(out, err)
	}
	if !quiet {
		fmt.Fprintf(stdout, "merged %d shards of study %s (%d cells) into %s\n", r.Shards, r.Plan.Name, r.Cells, out)
	}
	return nil
}
