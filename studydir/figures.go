package studydir

import (
	"fmt"
	"path/filepath"

	"github.com/ptbatch/ptbatch/figure"
	"github.com/ptbatch/ptbatch/study"
)

// WriteFigures writes a whole study's figures into dir, as Options.Figures
// takes them: tail_rate.png/svg and barrier.png/svg (each atomically,
// figure.Figure.Save, so that the manifest records them), per method a
// line over the model × grid × seed groups of runs with its 95 % interval
// as a band.
func WriteFigures(dir string, p *study.Plan, sums []study.RunSummary) error {
	for _, fig := range []struct {
		base, ylabel string
		get          func(*study.RunSummary) study.Interval
	}{
		{"tail_rate", "tail round-trip rate", func(s *study.RunSummary) study.Interval { return s.TailRate }},
		{"barrier", "barrier Λ", func(s *study.RunSummary) study.Interval { return s.Barrier }},
	} {
		f := figure.Figure{Title: p.Name + ": " + fig.ylabel + " (95 % interval)", XLabel: "model, grid and seed (run group)", YLabel: fig.ylabel}
		f.Lines = MethodSeries(p, sums, fig.get)
		if err := f.Save(filepath.Join(dir, fig.base)); err != nil {
			return err
		}
	}
	return nil
}

// MethodSeries returns a line per method (its label and grid values) over
// the groups of runs that share the model, its grid and the seed: x is
// the group's number in order of first appearance in sums, y the value
// get returns with its interval as the band.
func MethodSeries(p *study.Plan, sums []study.RunSummary, get func(*study.RunSummary) study.Interval) []figure.Series {
	groups, lines := map[string]int{}, map[string]int{}
	var out []figure.Series
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
			out = append(out, figure.Series{Name: name, Points: true})
		}
		iv := get(&sums[i])
		s := &out[k]
		s.Xs, s.Ys = append(s.Xs, float64(groups[g])), append(s.Ys, iv.Mean)
		s.Lo, s.Hi = append(s.Lo, iv.Lo), append(s.Hi, iv.Hi)
	}
	return out
}
