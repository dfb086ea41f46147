package main

import (
	"fmt"
	"path/filepath"

	"github.com/ptbatch/ptbatch/study"
)

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
