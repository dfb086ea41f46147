package sweep

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// ErrRows is matched by the errors of SplitRows and Summaries: a shard's
// cells.csv that is not the rows of its units.
var ErrRows = errors.New("sweep: cells.csv rows do not match the plan")

// rowsError is an ErrRows with its message.
type rowsError struct{ msg string }

func (e *rowsError) Error() string        { return e.msg }
func (e *rowsError) Is(target error) bool { return target == ErrRows }

func rowsErrorf(format string, args ...any) error {
	return &rowsError{fmt.Sprintf(format, args...)}
}

// Header returns cells.csv's header line.
func Header() []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write(CellsHeader) // a bytes.Buffer does not fail
	w.Flush()
	return b.Bytes()
}

// SplitRows returns the rows of a shard's cells.csv, each with its line
// end, after checking its header.
func SplitRows(b []byte) ([][]byte, error) {
	hdr := Header()
	if !bytes.HasPrefix(b, hdr) {
		return nil, rowsErrorf("cells.csv does not start with the header %q", bytes.TrimSpace(hdr))
	}
	rows := bytes.SplitAfter(b[len(hdr):], []byte("\n"))
	if len(rows) > 0 && len(rows[len(rows)-1]) == 0 {
		rows = rows[:len(rows)-1]
	}
	return rows, nil
}

// Summaries returns summary.csv (its header and a row per cell) from the
// cells.csv rows of every unit of the sweep, in order, checking that row
// u is the cell and replicate of unit u.
func (s *Spec) Summaries(cells []Cell, rows [][]byte) ([][]string, error) {
	if len(rows) != len(cells)*s.Replicates {
		return nil, rowsErrorf("the shards hold %d cells.csv rows, the sweep has %d units", len(rows), len(cells)*s.Replicates)
	}
	out := [][]string{SummaryHeader}
	for i, c := range cells {
		var v Values
		for r := 0; r < s.Replicates; r++ {
			u := i*s.Replicates + r
			x, err := rowValues(rows[u], c, r, u)
			if err != nil {
				return nil, err
			}
			v.Rates, v.RunRates = append(v.Rates, x[0]), append(v.RunRates, x[1])
			v.Barriers, v.Taus = append(v.Barriers, x[2]), append(v.Taus, x[3])
		}
		row, _ := SummaryRow(c, v, s.Bound(c))
		out = append(out, row)
	}
	return out, nil
}

// rowValues parses unit u's row, which must be cell c's replicate r, into
// the rate, whole-run rate, barrier and predicted rate.
func rowValues(line []byte, c Cell, r, u int) ([4]float64, error) {
	var x [4]float64
	rec, err := csv.NewReader(bytes.NewReader(line)).Read()
	want := cellKey(c, r)
	if err != nil || len(rec) != len(CellsHeader) || !slices.Equal(rec[:5], want) {
		return x, rowsErrorf("cells.csv row %d of the merged shards is %q, want cell %v replicate %d", u+1, bytes.TrimSpace(line), want[:4], r)
	}
	for k, col := range []int{5, 6, 8, 11} {
		if x[k], err = strconv.ParseFloat(rec[col], 64); err != nil {
			return x, rowsErrorf("cells.csv row %d of the merged shards: %s %q is not a number", u+1, CellsHeader[col], rec[col])
		}
	}
	return x, nil
}
