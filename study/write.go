package study

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
)

// cellColumns are the columns of the cells after the grid's.
var cellColumns = []string{"seed", "replicate", "round_trips", "tail_round_trip_rate", "barrier", "log_z"}

// GridNames returns the names of the plan's grid parameters, in the order
// they first appear in its runs.
func (p *Plan) GridNames() []string {
	var out []string
	for i := range p.Runs {
		for _, a := range p.Runs[i].Grid() {
			if !slices.Contains(out, a.Name) {
				out = append(out, a.Name)
			}
		}
	}
	return out
}

// labels returns the run's run number, model, method and grid values
// (empty for a grid parameter the run does not have).
func (p *Plan) labels(r int, grid []string) []string {
	run := &p.Runs[r]
	out := []string{strconv.Itoa(r), run.Model.Name, run.Method.Label}
	for _, name := range grid {
		v := ""
		for _, a := range run.Grid() {
			if a.Name == name {
				v = a.Value
			}
		}
		out = append(out, v)
	}
	return out
}

// formatFloat writes x with the fewest digits that read back as x.
func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// WriteCells writes cells as CSV: a header, then a row per cell with run,
// model, method, the grid parameters, seed, replicate, round_trips,
// tail_round_trip_rate, barrier and log_z; every number reads back as
// the same bits (ReadCells).
func WriteCells(w io.Writer, p *Plan, cells []Cell) error {
	grid := p.GridNames()
	cw := csv.NewWriter(w)
	header := append(append([]string{"run", "model", "method"}, grid...), cellColumns...)
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, c := range cells {
		row := append(p.labels(c.Run, grid), strconv.FormatUint(p.Runs[c.Run].Seed, 10), strconv.Itoa(c.Replicate),
			strconv.Itoa(c.RoundTrips), formatFloat(c.TailRate), formatFloat(c.Barrier), formatFloat(c.LogZ))
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadCells reads the cells that WriteCells wrote for plan p, and refuses
// a row whose run is not in p or whose labels (model, method, grid, seed)
// are not its run's.
func ReadCells(r io.Reader, p *Plan) ([]Cell, error) {
	rows, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, err
	}
	want := 3 + len(p.GridNames()) + len(cellColumns)
	if len(rows) == 0 || len(rows[0]) != want {
		return nil, fmt.Errorf("study: cells: want a header of %d columns", want)
	}
	grid := p.GridNames()
	out := make([]Cell, 0, len(rows)-1)
	for i, row := range rows[1:] {
		c, err := parseCell(row[0], row[want-5:])
		if err == nil && (c.Run < 0 || c.Run >= len(p.Runs)) {
			err = fmt.Errorf("run %d is not in the plan", c.Run)
		}
		if err == nil && !slices.Equal(row[:want-5], append(p.labels(c.Run, grid), strconv.FormatUint(p.Runs[c.Run].Seed, 10))) {
			err = fmt.Errorf("its model, method, grid or seed are not those of run %d of the plan", c.Run)
		}
		if err != nil {
			return nil, fmt.Errorf("study: cells row %d: %w", i+2, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// parseCell parses a row's run number and its last five fields.
func parseCell(run string, f []string) (Cell, error) {
	var c Cell
	var errs [6]error
	c.Run, errs[0] = strconv.Atoi(run)
	c.Replicate, errs[1] = strconv.Atoi(f[0])
	c.RoundTrips, errs[2] = strconv.Atoi(f[1])
	c.TailRate, errs[3] = strconv.ParseFloat(f[2], 64)
	c.Barrier, errs[4] = strconv.ParseFloat(f[3], 64)
	c.LogZ, errs[5] = strconv.ParseFloat(f[4], 64)
	for _, err := range errs {
		if err != nil {
			return c, err
		}
	}
	return c, nil
}

// metricNames are the summarised metrics, in the order of RunSummary.
var metricNames = []string{"round_trips", "tail_round_trip_rate", "barrier", "log_z"}

// intervals returns the summary's metrics in the order of metricNames.
func (s *RunSummary) intervals() []Interval {
	return []Interval{s.RoundTrips, s.TailRate, s.Barrier, s.LogZ}
}

// WriteSummary writes the summaries as CSV: a row per run with run,
// model, method, the grid parameters, seed, replicates, and the mean and
// 95 % interval (_mean, _lo, _hi) of each metric.
func WriteSummary(w io.Writer, p *Plan, sums []RunSummary) error {
	grid := p.GridNames()
	cw := csv.NewWriter(w)
	header := append(append([]string{"run", "model", "method"}, grid...), "seed", "replicates")
	for _, m := range metricNames {
		header = append(header, m+"_mean", m+"_lo", m+"_hi")
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, s := range sums {
		row := append(p.labels(s.Run, grid), strconv.FormatUint(p.Runs[s.Run].Seed, 10), strconv.Itoa(s.Replicates))
		for _, iv := range s.intervals() {
			row = append(row, formatFloat(iv.Mean), formatFloat(iv.Lo), formatFloat(iv.Hi))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// jsonNum is x, or nil (JSON null) for NaN and ±Inf.
func jsonNum(x float64) any {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return x
}

// WriteSummaryJSON writes the plan's name and, per run, its model, method,
// grid, seed, replicates and each metric's mean, lo and hi (null where
// undefined) as indented JSON.
func WriteSummaryJSON(w io.Writer, p *Plan, sums []RunSummary) error {
	runs := make([]map[string]any, len(sums))
	for i, s := range sums {
		run := &p.Runs[s.Run]
		grid := map[string]string{}
		for _, a := range run.Grid() {
			grid[a.Name] = a.Value
		}
		m := map[string]any{"run": s.Run, "model": run.Model.Name, "method": run.Method.Label, "grid": grid,
			"seed": run.Seed, "replicates": s.Replicates}
		for k, iv := range s.intervals() {
			m[metricNames[k]] = map[string]any{"mean": jsonNum(iv.Mean), "lo": jsonNum(iv.Lo), "hi": jsonNum(iv.Hi)}
		}
		runs[i] = m
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(map[string]any{"study": p.Name, "runs": runs})
}
