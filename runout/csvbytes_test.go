package runout

import (
	"math"
	"testing"
)

// TestCSVBytes checks CSVBytes against hand-written CSV: a field with a
// comma is quoted, every row ends with a newline (encoding/csv's rules).
func TestCSVBytes(t *testing.T) {
	b, err := CSVBytes([][]string{{"a", "b,c"}, {"1", "2"}})
	if want := "a,\"b,c\"\n1,2\n"; err != nil || string(b) != want {
		t.Errorf("CSVBytes: %q, %v; want %q", b, err, want)
	}
}

// TestMeanCurve checks MeanCurve on hand-computed means: rows (1, 2, 3)
// and (3, 4, NaN) average to (2, 3, NaN) at their first 3 points and to
// (2, 3) at 2; no rows give NaN everywhere.
func TestMeanCurve(t *testing.T) {
	ys := [][]float64{{1, 2, 3}, {3, 4, math.NaN()}}
	got := MeanCurve(ys, 3)
	if got[0] != 2 || got[1] != 3 || !math.IsNaN(got[2]) {
		t.Errorf("MeanCurve of 3 points: %v, want [2 3 NaN]", got)
	}
	if got := MeanCurve(ys, 2); len(got) != 2 || got[0] != 2 || got[1] != 3 {
		t.Errorf("MeanCurve of 2 points: %v, want [2 3]", got)
	}
	if got := MeanCurve(nil, 2); len(got) != 2 || !math.IsNaN(got[0]) || !math.IsNaN(got[1]) {
		t.Errorf("MeanCurve of no rows: %v, want [NaN NaN]", got)
	}
}
