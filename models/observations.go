package models

import (
	"fmt"
	"math"
	"strings"
)

// Observations returns the values of the column called column of t (the
// only column when column is empty), each divided by unit: the data of a
// 1-D model such as the mixture. A missing column, a table of several
// columns without a name, or a quotient that leaves float64's finite
// range is a *DataError.
func Observations(t *Table, column string, unit float64) ([]float64, error) {
	c := 0
	switch {
	case column == "" && len(t.Names) != 1:
		return nil, &DataError{File: t.File, Line: 1, Why: fmt.Sprintf("%d columns (%s): name the observations' column", len(t.Names), strings.Join(t.Names, ", "))}
	case column != "":
		if c = t.Column(column); c < 0 {
			return nil, &DataError{File: t.File, Line: 1, Why: fmt.Sprintf("no column %q in the header (columns: %s)", column, strings.Join(t.Names, ", "))}
		}
	}
	y := make([]float64, t.NumRows())
	for i := range y {
		y[i] = t.Rows[i*len(t.Names)+c] / unit
		if math.IsInf(y[i], 0) {
			return nil, t.Fault(i, c, fmt.Sprintf("%v / %v leaves float64's range", t.Rows[i*len(t.Names)+c], unit))
		}
	}
	return y, nil
}
