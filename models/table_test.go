package models

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadDataRefused is the table of bad data files: each is refused
// with a *DataError whose message names the file, the line and the
// column of the first fault, before any model is built.
func TestBadDataRefused(t *testing.T) {
	cases := []struct {
		name, text string
		intercept  bool
		maxBytes   int64
		want       string // the message after "FILE"
	}{
		{"non-numeric cell", "a,b,y\n1,2,0\n3,x,1\n", true, 0, `:3: column b: "x" is not a number`},
		{"empty cell", "a,b,y\n1,,0\n", true, 0, `:2: column b: "" is not a number`},
		{"NaN", "a,b,y\n1,2,0\nNaN,2,1\n", true, 0, `:3: column a: "NaN" is not a finite number`},
		{"Inf", "a,b,y\n1,-Inf,0\n", true, 0, `:2: column b: "-Inf" is not a finite number`},
		{"beyond float64", "a,b,y\n1,1e999,0\n", true, 0, `:2: column b: "1e999" is out of float64's range`},
		{"response 2", "a,y\n1,0\n2,1\n3,2\n", true, 0, `:4: column y: response 2 is not 0 or 1`},
		{"response 0.5", "y,a\n0.5,1\n", true, 0, `:2: column y: response 0.5 is not 0 or 1`},
		{"response -1", "a,y\n\n1,-1\n", true, 0, `:3: column y: response -1 is not 0 or 1`},
		{"missing response column", "a,b\n1,2\n", true, 0, `:1: no response column "y" in the header (columns: a, b)`},
		{"short row", "a,b,y\n1,2,0\n1,2\n", true, 0, `:3: 2 fields, the header has 3 columns`},
		{"long row", "a,y\n1,0,5\n", true, 0, `:2: 3 fields, the header has 2 columns`},
		{"empty file", "", true, 0, `: empty file: want a header and at least one row`},
		{"blank lines only", "\n \n\r\n", true, 0, `: empty file: want a header and at least one row`},
		{"header only", "a,b,y\n", true, 0, `:1: header only: no data rows`},
		{"header and blank lines", "a,b,y\n\n\n", true, 0, `:3: header only: no data rows`},
		{"duplicate column name", "a,b,a,y\n1,2,3,0\n", true, 0, `:1: column 3: duplicate column name "a" (also column 1)`},
		{"empty column name", "a,,y\n1,2,0\n", true, 0, `:1: column 2: empty column name in the header`},
		{"too big for memory", "a,b,y\n1,2,0\n3,4,1\n5,6,0\n", true, 64, `:4: too big to hold in memory: the values pass 64 bytes`},
		{"a column named intercept", "intercept,y\n1,0\n", true, 0, `:1: column intercept: a column is named intercept: rename it, or drop the added intercept`},
		{"nothing to estimate", "y\n1\n", false, 0, `:1: no covariates and no intercept: nothing to estimate`},
	}
	dir := t.TempDir()
	for i, c := range cases {
		file := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".csv")
		if err := os.WriteFile(file, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		table, err := ReadTableFile(file, c.maxBytes)
		if err == nil {
			_, err = NewLogisticData(table, "y", c.intercept)
		}
		var de *DataError
		switch {
		case !errors.As(err, &de) || !errors.Is(err, ErrData):
			t.Errorf("%d %s: error %v, want a *DataError", i, c.name, err)
		case err.Error() != file+c.want:
			t.Errorf("%d %s:\n got %s\nwant %s", i, c.name, err, file+c.want)
		case strings.Contains(err.Error(), "\n"):
			t.Errorf("%d %s: message of several lines", i, c.name)
		}
	}
	if _, err := ReadTableFile(filepath.Join(dir, "absent.csv"), 0); !errors.Is(err, ErrData) {
		t.Errorf("absent file: error %v, want a data error", err)
	}
}

// TestGoodTable reads a table with spaces, CRLF line ends, quoted header
// names and blank lines, and checks names, values and line numbers.
func TestGoodTable(t *testing.T) {
	table, err := ReadTable(strings.NewReader("\"a\", b ,y\r\n 1.5, -2e-3 ,1\r\n\r\n0,0,0\n"), "t.csv", 0)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(table.Names, "|") != "a|b|y" || table.NumRows() != 2 || table.Rows[1] != -2e-3 || table.Lines[1] != 4 {
		t.Errorf("table %+v", table)
	}
	d, err := NewLogisticData(table, "y", true)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(d.Names, "|") != "intercept|a|b" || d.X[0] != 1 || d.X[1] != 1.5 || d.Y[0] != 1 || d.Y[1] != 0 {
		t.Errorf("data %+v", d)
	}
}
