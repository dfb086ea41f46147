package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/ptbatch/ptbatch/study"
)

// gridText returns a run's grid as "a=1, b=2", or "".
func gridText(r *study.Run) string {
	var parts []string
	for _, a := range r.Grid() {
		parts = append(parts, a.Name+"="+a.Value)
	}
	return strings.Join(parts, ", ")
}

// intervalText returns "mean [lo, hi]".
func intervalText(iv study.Interval) string {
	if math.IsNaN(iv.Lo) {
		return fmt.Sprintf("%.4g", iv.Mean)
	}
	return fmt.Sprintf("%.4g [%.4g, %.4g]", iv.Mean, iv.Lo, iv.Hi)
}

// writeStudyMarkdown writes results.md: a table of every run's means and
// 95 % intervals.
func writeStudyMarkdown(w io.Writer, p *study.Plan, sums []study.RunSummary) error {
	fmt.Fprintf(w, "# Study %s\n\n", p.Name)
	fmt.Fprintf(w, "%d runs; per run, the mean over its replicates and the 95 %% interval (Student's t).\n\n", len(p.Runs))
	fmt.Fprintln(w, "| run | model | method | grid | seed | replicates | tail round-trip rate | barrier Λ | log Z | round trips |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	for _, s := range sums {
		r := &p.Runs[s.Run]
		_, err := fmt.Fprintf(w, "| %d | %s | %s | %s | %d | %d | %s | %s | %s | %s |\n", s.Run, r.Model.Name, r.Method.Label,
			gridText(r), r.Seed, s.Replicates, intervalText(s.TailRate), intervalText(s.Barrier), intervalText(s.LogZ), intervalText(s.RoundTrips))
		if err != nil {
			return err
		}
	}
	return nil
}

// writeStudyFigures writes tail_rate.png/svg and barrier.png/svg (each
// atomically, figure.save): per method a line over the model × grid ×
// seed groups, with its 95 % interval as a band.
func writeStudyFigures(out string, p *study.Plan, sums []study.RunSummary) error {
	for _, fig := range []struct {
		base, ylabel string
		get          func(*study.RunSummary) study.Interval
	}{
		{"tail_rate", "tail round-trip rate", func(s *study.RunSummary) study.Interval { return s.TailRate }},
		{"barrier", "barrier Λ", func(s *study.RunSummary) study.Interval { return s.Barrier }},
	} {
		f := figure{title: p.Name + ": " + fig.ylabel + " (95 % interval)", xlabel: "model, grid and seed (run group)", ylabel: fig.ylabel}
		f.lines = methodSeries(p, sums, fig.get)
		if err := f.save(filepath.Join(out, fig.base)); err != nil {
			return err
		}
	}
	return nil
}

// methodSeries returns a series per method (label and grid) over the
// groups of runs that share the model, its grid and the seed.
func methodSeries(p *study.Plan, sums []study.RunSummary, get func(*study.RunSummary) study.Interval) []series {
	groups, lines := map[string]int{}, map[string]int{}
	var out []series
	for i := range sums {
		r := &p.Runs[sums[i].Run]
		g := fmt.Sprintf("%s %v %d", r.Model.Name, r.Model.Grid, r.Seed)
		if _, ok := groups[g]; !ok {
			groups[g] = len(groups)
		}
		name := r.Method.Label
		for _, a := range r.Method.Grid {
			name += " " + a.Name + "=" + a.Value
		}
		k, ok := lines[name]
		if !ok {
			k, lines[name] = len(out), len(out)
			out = append(out, series{name: name, points: true})
		}
		iv := get(&sums[i])
		s := &out[k]
		s.xs, s.ys = append(s.xs, float64(groups[g])), append(s.ys, iv.Mean)
		s.lo, s.hi = append(s.lo, iv.Lo), append(s.hi, iv.Hi)
	}
	return out
}
