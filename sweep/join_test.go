package sweep

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestJoin runs the small sweep (small: 8 cells × 3 replicates, 24 units)
// in one process and as 3 shards, and checks that Join of the shards gives
// the one process's rows and Summaries of them, that WriteCells of them is
// the header and those bytes, that a shard with too few rows or an
// unreadable one is refused, naming the shard.
func TestJoin(t *testing.T) {
	s := small()
	cells := s.Cells()
	one, _ := runRows(t, s, cells, 0, 24)
	var parts []ShardCells
	for i, r := range [][2]int{{0, 8}, {8, 16}, {16, 24}} { // 3 shards of the 24 units
		b, _ := runRows(t, s, cells, r[0], r[1])
		csv := append(Header(), b...)
		parts = append(parts, ShardCells{Dir: string(rune('a' + i)), First: r[0], End: r[1],
			Read: func() ([]byte, error) { return csv, nil }})
	}
	rows, sum, err := s.Join(cells, parts)
	if err != nil {
		t.Fatal(err)
	}
	if got := bytes.Join(rows, nil); !bytes.Equal(got, one) {
		t.Fatalf("joined rows differ from one process's:\n%s\nwant\n%s", got, one)
	}
	oneRows, _ := SplitRows(append(Header(), one...))
	want, err := s.Summaries(cells, oneRows)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(sum, want, slices.Equal) {
		t.Errorf("joined summary %q, want %q", sum, want)
	}
	var w bytes.Buffer
	if err := WriteCells(&w, rows); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Bytes(), append(Header(), one...)) {
		t.Errorf("WriteCells wrote %q, want the header and the rows", w.Bytes())
	}

	short := slices.Clone(parts)
	short[1].End = 9 // shard b claims 1 unit, its cells.csv holds 8 rows
	if _, _, err := s.Join(cells, short); !errors.Is(err, ErrRows) || !strings.Contains(err.Error(), "shard b:") {
		t.Errorf("shard with a wrong unit count: %v, want ErrRows naming shard b", err)
	}
	errGone := errors.New("gone")
	short[1].Read = func() ([]byte, error) { return nil, errGone }
	if _, _, err := s.Join(cells, short); !errors.Is(err, errGone) {
		t.Errorf("unreadable shard: %v, want its read error", err)
	}
}
