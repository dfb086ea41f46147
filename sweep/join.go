package sweep

import "io"

// ShardCells is one shard of a sweep as Join reads it: its directory
// (named in errors), the units [First, End) it computed, and Read, which
// returns its cells.csv.
type ShardCells struct {
	Dir        string
	First, End int
	Read       func() ([]byte, error)
}

// Join returns the cells.csv rows of every unit of the sweep, the shards'
// rows in shard order (a shard's rows are the units it computed, in the
// order of the grid), and summary.csv summarized from them cell by cell as
// the sweep does (Summaries). A shard's Read error is returned as it is;
// rows that are not the shard's units give an error matching ErrRows.
func (s *Spec) Join(cells []Cell, shards []ShardCells) (rows [][]byte, summary [][]string, err error) {
	for _, sd := range shards {
		b, err := sd.Read()
		if err != nil {
			return nil, nil, err
		}
		got, err := SplitRows(b)
		if err != nil {
			return nil, nil, rowsErrorf("shard %s: %v", sd.Dir, err)
		}
		if len(got) != sd.End-sd.First {
			return nil, nil, rowsErrorf("shard %s: cells.csv has %d rows, its manifest says %d (units %d to %d)", sd.Dir, len(got), sd.End-sd.First, sd.First, sd.End-1)
		}
		rows = append(rows, got...)
	}
	if summary, err = s.Summaries(cells, rows); err != nil {
		return nil, nil, err
	}
	return rows, summary, nil
}

// WriteCells writes cells.csv: its header, then rows (each with its line
// end, as SplitRows and Join return them).
func WriteCells(w io.Writer, rows [][]byte) error {
	if _, err := w.Write(Header()); err != nil {
		return err
	}
	for _, l := range rows {
		if _, err := w.Write(l); err != nil {
			return err
		}
	}
	return nil
}
