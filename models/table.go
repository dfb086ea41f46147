package models

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// Table is a numeric data set read from a CSV file with a header: the
// user's data for the models that take it (logistic regression, the 1-D
// mixture).
type Table struct {
	// File names the source in error messages.
	File string
	// Names are the columns' names, from the header.
	Names []string
	// Rows holds the values row by row: row i, column c at
	// Rows[i*len(Names)+c].
	Rows []float64
	// Lines are the rows' line numbers in the file (the header is line 1).
	Lines []int
}

// Fault returns the *DataError of the value in row i, column c.
func (t *Table) Fault(i, c int, why string) error {
	return &DataError{File: t.File, Line: t.Lines[i], Column: t.Names[c], Why: why}
}

// NumRows returns the number of data rows.
func (t *Table) NumRows() int { return len(t.Rows) / len(t.Names) }

// Column returns the index of the column called name, or -1.
func (t *Table) Column(name string) int {
	for c, n := range t.Names {
		if n == name {
			return c
		}
	}
	return -1
}

// DefaultMaxTableBytes is ReadTable's default bound on the memory of a
// table's values: 1 GiB, 2^27 numbers.
const DefaultMaxTableBytes = 1 << 30

// ErrData is the error every *DataError matches with errors.Is.
var ErrData = errors.New("models: bad data")

// DataError is a data file that cannot be used, with the place of the
// first fault: its line (1 is the header; 0 when the fault is the file as
// a whole) and column (its name, or its number from 1 when the header
// does not name it; empty when no column is at fault).
type DataError struct {
	File   string
	Line   int
	Column string
	Why    string
}

// Error returns "FILE:LINE: column COL: WHY", leaving out what is unknown.
func (e *DataError) Error() string {
	s := e.File
	if e.Line > 0 {
		s += ":" + strconv.Itoa(e.Line)
	}
	if e.Column != "" {
		s += ": column " + e.Column
	}
	return s + ": " + e.Why
}

// Is reports whether target is ErrData.
func (e *DataError) Is(target error) bool { return target == ErrData }

// ReadTableFile reads the CSV table at path (see ReadTable).
func ReadTableFile(path string, maxBytes int64) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &DataError{File: path, Why: strings.TrimPrefix(err.Error(), "open "+path+": ")}
	}
	defer f.Close()
	return ReadTable(f, path, maxBytes)
}

// ReadTable reads a numeric CSV table from r, named file in errors: a
// header of distinct non-empty column names, then at least one row of as
// many finite numbers (strconv.ParseFloat's syntax, surrounding spaces
// allowed); blank lines are skipped. Values beyond maxBytes of memory
// (DefaultMaxTableBytes when maxBytes ≤ 0) are refused. Every fault is a
// *DataError naming the line and column.
func ReadTable(r io.Reader, file string, maxBytes int64) (*Table, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxTableBytes
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	t := &Table{File: file}
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		var err error
		if t.Names == nil {
			err = t.header(text, line)
		} else {
			err = t.row(text, line, maxBytes)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &DataError{File: file, Line: line + 1, Why: err.Error()}
	}
	switch {
	case t.Names == nil:
		return nil, &DataError{File: file, Why: "empty file: want a header and at least one row"}
	case len(t.Rows) == 0:
		return nil, &DataError{File: file, Line: line, Why: "header only: no data rows"}
	}
	return t, nil
}

// header sets the column names from the header line.
func (t *Table) header(text string, line int) error {
	seen := map[string]int{}
	for c, f := range strings.Split(text, ",") {
		name := strings.TrimSpace(strings.Trim(strings.TrimSpace(f), `"`))
		col := strconv.Itoa(c + 1)
		switch {
		case name == "":
			return &DataError{File: t.File, Line: line, Column: col, Why: "empty column name in the header"}
		case seen[name] > 0:
			return &DataError{File: t.File, Line: line, Column: col, Why: fmt.Sprintf("duplicate column name %q (also column %d)", name, seen[name])}
		}
		seen[name] = c + 1
		t.Names = append(t.Names, name)
	}
	return nil
}

// row appends one data line's values.
func (t *Table) row(text string, line int, maxBytes int64) error {
	fields := strings.Split(text, ",")
	if len(fields) != len(t.Names) {
		return &DataError{File: t.File, Line: line, Why: fmt.Sprintf("%d fields, the header has %d columns", len(fields), len(t.Names))}
	}
	if int64(len(t.Rows)+len(fields))*8 > maxBytes {
		return &DataError{File: t.File, Line: line, Why: fmt.Sprintf("too big to hold in memory: the values pass %d bytes", maxBytes)}
	}
	for c, f := range fields {
		s := strings.TrimSpace(f)
		v, err := strconv.ParseFloat(s, 64)
		switch {
		case err != nil && errors.Is(err, strconv.ErrRange):
			return &DataError{File: t.File, Line: line, Column: t.Names[c], Why: fmt.Sprintf("%q is out of float64's range", s)}
		case err != nil:
			return &DataError{File: t.File, Line: line, Column: t.Names[c], Why: fmt.Sprintf("%q is not a number", s)}
		case math.IsNaN(v) || math.IsInf(v, 0):
			return &DataError{File: t.File, Line: line, Column: t.Names[c], Why: fmt.Sprintf("%q is not a finite number", s)}
		}
		t.Rows = append(t.Rows, v)
	}
	t.Lines = append(t.Lines, line)
	return nil
}
