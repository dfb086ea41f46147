package studydir

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/study"
)

// Write writes the files of a whole study of p into the directory dir,
// each atomically (rundir.WriteFile): cells.csv, summary.csv,
// summary.json, results.md, and the figures when figures is not nil.
func Write(dir string, p *study.Plan, cells []study.Cell, figures func(string, *study.Plan, []study.RunSummary) error) error {
	sums := study.Summarize(cells)
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"cells.csv", func(w io.Writer) error { return study.WriteCells(w, p, cells) }},
		{"summary.csv", func(w io.Writer) error { return study.WriteSummary(w, p, sums) }},
		{"summary.json", func(w io.Writer) error { return study.WriteSummaryJSON(w, p, sums) }},
		{"results.md", func(w io.Writer) error { return WriteMarkdown(w, p, sums) }},
	}
	for _, f := range files {
		if err := rundir.WriteFile(filepath.Join(dir, f.name), f.write); err != nil {
			return err
		}
	}
	if figures == nil {
		return nil
	}
	return figures(dir, p, sums)
}

// GridText returns a run's grid as "a=1, b=2", or "".
func GridText(r *study.Run) string {
	var parts []string
	for _, a := range r.Grid() {
		parts = append(parts, a.Name+"="+a.Value)
	}
	return strings.Join(parts, ", ")
}

// IntervalText returns an interval as "mean [lo, hi]", or the mean alone
// when the interval is undefined (one replicate).
func IntervalText(iv study.Interval) string {
	if math.IsNaN(iv.Lo) {
		return fmt.Sprintf("%.4g", iv.Mean)
	}
	return fmt.Sprintf("%.4g [%.4g, %.4g]", iv.Mean, iv.Lo, iv.Hi)
}

// WriteMarkdown writes results.md: a table of every run's means and 95 %
// intervals (study.Summarize).
func WriteMarkdown(w io.Writer, p *study.Plan, sums []study.RunSummary) error {
	fmt.Fprintf(w, "# Study %s\n\n", p.Name)
	fmt.Fprintf(w, "%d runs; per run, the mean over its replicates and the 95 %% interval (Student's t).\n\n", len(p.Runs))
	fmt.Fprintln(w, "| run | model | method | grid | seed | replicates | tail round-trip rate | barrier Λ | log Z | round trips |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	for _, s := range sums {
		r := &p.Runs[s.Run]
		_, err := fmt.Fprintf(w, "| %d | %s | %s | %s | %d | %d | %s | %s | %s | %s |\n", s.Run, r.Model.Name, r.Method.Label,
			GridText(r), r.Seed, s.Replicates, IntervalText(s.TailRate), IntervalText(s.Barrier), IntervalText(s.LogZ), IntervalText(s.RoundTrips))
		if err != nil {
			return err
		}
	}
	return nil
}
