package paper

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"text/tabwriter"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/figure"
	"github.com/ptbatch/ptbatch/runout"
	"github.com/ptbatch/ptbatch/tune"
)

// addPaths adds a spline method's tuned knots (replicate 0) to knots.csv
// and the paths figure, and the objectives of NRPT+Spline(K=4).
func (x *experimentOut) addPaths(meth Method, res *batch.Result) {
	if meth.Knots >= 2 {
		rows, ex, ey := KnotRows(meth.Name, res)
		x.knots = append(x.knots, rows...)
		name := fmt.Sprintf("K=%d", meth.Knots)
		if meth.Auto {
			name = "auto, " + name
		}
		x.paths.Lines = append(x.paths.Lines, figure.Series{Name: name, Xs: ex, Ys: ey, Points: true})
	}
	if meth.Knots == 4 && !meth.Auto {
		hist := res.History[0]
		xs, skl, nab := make([]float64, len(hist)), make([]float64, len(hist)), make([]float64, len(hist))
		for i, st := range hist {
			xs[i], skl[i], nab[i] = float64(st.Scan), st.SKL, st.NonAsymptoticBarrier
		}
		x.objectives = figure.Figure{Title: x.e.Title + ": objectives of NRPT+Spline(K=4), replicate 0", XLabel: "scan",
			YLabel: "objective (log scale)", LogY: true,
			Lines: []figure.Series{{Name: "non-asymptotic barrier Σ r/(1-r)", Xs: xs, Ys: nab}, {Name: "SKL surrogate", Xs: xs, Ys: skl}}}
	}
}

// report writes the experiment's table, its linear-path bound, what log Z
// is, and the closed-form comparison when there is one.
func (x *experimentOut) report(report io.Writer) error {
	if err := x.tw.Flush(); err != nil {
		return err
	}
	bound := tune.RoundTripRate(x.linearBarrier)
	how := "exact"
	if math.IsNaN(x.e.LinearLambda) {
		how = "estimated by NRPT+Linear's last scan (a lower estimate of Λ when rejections saturate)"
	}
	fmt.Fprintf(report, "\nLinear-path bound 1/(2+2Λ) = %.5f per iteration with Λ = %.2f (%s).\n", bound, x.linearBarrier, how)
	fmt.Fprintf(report, "\n%s\n", logZNote(x.m))
	if len(x.exactRows) == 0 {
		return nil
	}
	fmt.Fprintf(report, "\nExact values for this Gaussian pair (gaussexact.GaussianPair): Λ of each replicate's tuned path by quadrature, and the best\n")
	fmt.Fprintf(report, "path of the family found by Nelder–Mead on the exact Λ; rates with %d chains on the equi-barrier schedule use the exact\n", x.e.Chains)
	fmt.Fprintf(report, "rejections in 1/(2+2Σ r/(1-r)).\n\n")
	tw := tabwriter.NewWriter(report, 0, 0, 1, ' ', 0)
	fmt.Fprintln(tw, "| method\t| tuned path Λ (mean ± sd)\t| tuned path, exact rate\t| measured rate, last 10%\t| best Λ of the family\t| best exact rate\t| measured / best\t|")
	fmt.Fprintln(tw, "|---\t|---\t|---\t|---\t|---\t|---\t|---\t|")
	for _, row := range x.exactRows {
		fmt.Fprintln(tw, row)
	}
	return tw.Flush()
}

// write writes the experiment's CSVs and figures into dir.
func (x *experimentOut) write(dir string) error {
	bound := tune.RoundTripRate(x.linearBarrier)
	bx := []float64{0, float64(x.e.Scans)}
	x.trips.Lines = append(x.trips.Lines, figure.Series{Name: "linear-path bound 1/(2+2Λ)", Xs: bx, Ys: []float64{0, bound * float64(x.iters)}, Dashed: true})
	for name, rows := range map[string][][]string{"scans.csv": x.scans, "summary.csv": x.summary, "knots.csv": x.knots, "lambda.csv": x.lambda} {
		if err := runout.WriteCSV(filepath.Join(dir, name), rows); err != nil {
			return err
		}
	}
	// The tuned knots crowd near the origin on linear axes; the log-log view
	// shows the interior knots (the endpoints have a zero component).
	pathsLog := x.paths
	pathsLog.Title = x.e.Title + ": tuned spline paths, interior knots (replicate 0)"
	pathsLog.XLabel, pathsLog.YLabel = "η0 (reference exponent, log scale)", "η1 (target exponent, log scale)"
	pathsLog.LogX, pathsLog.LogY = true, true
	for base, f := range map[string]figure.Figure{"roundtrips": x.trips, "paths": x.paths, "paths_log": pathsLog, "objectives": x.objectives,
		"lambda": x.local, "lambda_cumulative": x.cumulative} {
		if err := f.Save(filepath.Join(dir, base)); err != nil {
			return fmt.Errorf("%s figure %s: %w", x.e.Name, base, err)
		}
	}
	return nil
}
