package runout

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/figure"
	"github.com/ptbatch/ptbatch/rundir"
)

// FullFloat formats x with the fewest digits that read back as x.
func FullFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// WriteCSV writes rows to path atomically (rundir.WriteFile).
func WriteCSV(path string, rows [][]string) error {
	return rundir.WriteFile(path, func(w io.Writer) error { return csv.NewWriter(w).WriteAll(rows) })
}

// CSVBytes returns rows as CSV text, such as the rows a command appends
// to a file (rundir.Appender).
func CSVBytes(rows [][]string) ([]byte, error) {
	var b bytes.Buffer
	if err := csv.NewWriter(&b).WriteAll(rows); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// MeanCurve returns the mean over the rows of ys (such as a barrier
// profile's curves, one per replicate) at each of their first n points:
// NaN at every point without rows, and where a row is NaN.
func MeanCurve(ys [][]float64, n int) []float64 {
	out := make([]float64, n)
	if len(ys) == 0 {
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	for _, y := range ys {
		for i := range out {
			out[i] += y[i] / float64(len(ys))
		}
	}
	return out
}

// WriteTables writes scans.csv (one row per replicate × scan), knots.csv
// and schedules.csv (final values per replicate) of res into dir;
// replicates are numbered from res.Config.FirstReplicate.
func WriteTables(dir string, res *batch.Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	first := res.Config.FirstReplicate
	ff := FullFloat
	scans := [][]string{{"replicate", "scan", "round_trips", "barrier", "nonasymptotic_barrier", "skl", "mean_rejection"}}
	for r, hist := range res.History {
		for _, s := range hist {
			scans = append(scans, []string{strconv.Itoa(first + r), strconv.Itoa(s.Scan), strconv.Itoa(s.RoundTrips),
				ff(s.Barrier), ff(s.NonAsymptoticBarrier), ff(s.SKL), ff(s.MeanRejection)})
		}
	}
	knots := [][]string{{"replicate", "knot", "eta0", "eta1"}}
	for r, ks := range res.Knots {
		for k, kn := range ks {
			knots = append(knots, []string{strconv.Itoa(first + r), strconv.Itoa(k), ff(kn[0]), ff(kn[1])})
		}
	}
	sched := [][]string{{"replicate", "chain", "t"}}
	for r, ts := range res.Schedules {
		for n, t := range ts {
			sched = append(sched, []string{strconv.Itoa(first + r), strconv.Itoa(n), ff(t)})
		}
	}
	for name, rows := range map[string][][]string{"scans.csv": scans, "knots.csv": knots, "schedules.csv": sched} {
		if err := WriteCSV(filepath.Join(dir, name), rows); err != nil {
			return err
		}
	}
	return nil
}

// WriteLogZ writes logz.csv to path: per replicate (numbered from first)
// the forward and the reverse stepping-stone estimates of log(Z1/Z0) of
// the last scan, their average (the estimate) and the reverse minus the
// forward one.
func WriteLogZ(path string, lz batch.LogZRecord, first int) error {
	fwd, rev := lz.Forward(), lz.Reverse()
	est, diff := lz.Estimates(), lz.Differences()
	rows := [][]string{{"replicate", "forward", "reverse", "log_z", "reverse_minus_forward"}}
	for b := range est {
		rows = append(rows, []string{strconv.Itoa(first + b), FullFloat(fwd[b]), FullFloat(rev[b]), FullFloat(est[b]), FullFloat(diff[b])})
	}
	return WriteCSV(path, rows)
}

// WriteLambda writes lambda.csv into dir,
// `replicate,t,local_barrier,cumulative_barrier` (the profile's grid
// points per replicate, numbered from first), and the figure
// lambda.png/svg (figure.SaveBarrierProfile).
func WriteLambda(dir string, p batch.ProfileRecord, first int) error {
	grid, loc, cum := p.Grid(), p.Local(), p.Cumulative()
	rows := [][]string{{"replicate", "t", "local_barrier", "cumulative_barrier"}}
	for b := range cum {
		for i, t := range grid {
			rows = append(rows, []string{strconv.Itoa(first + b), FullFloat(t), FullFloat(loc[b][i]), FullFloat(cum[b][i])})
		}
	}
	if err := WriteCSV(filepath.Join(dir, "lambda.csv"), rows); err != nil {
		return err
	}
	if err := figure.SaveBarrierProfile(filepath.Join(dir, "lambda"), grid, loc, cum); err != nil {
		return fmt.Errorf("lambda figure: %w", err)
	}
	return nil
}
