package runout

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ptbatch/ptbatch/batch"
)

// RowCopier copies the first rows data rows of the set-aside copy of the
// streamed file name to emit, one line (with its newline) at a time; it
// is rundir.Aside.CopyRows, or a wrapper that words its refusals.
type RowCopier func(name string, rows int, emit func(line []byte) error) error

// TakeBack copies, for a run resumed from a checkpoint, the rows of the
// streamed files that the checkpointed statistics of cfg counted from
// their set-aside copies (copyRows) into the run's new files: samples.csv
// as they are, index.csv through index, which also keeps the first
// replicate's records for its figure. A nil writer is skipped, as is a
// statistic without one.
func TakeBack(copyRows RowCopier, cfg batch.Config, samples *SampleWriter, index *IndexWriter) error {
	for _, st := range cfg.Statistics {
		var err error
		switch st := st.(type) {
		case *batch.Samples:
			if samples != nil {
				err = samples.takeBack(copyRows, st)
			}
		case *batch.IndexProcess:
			if index != nil {
				err = index.takeBack(copyRows, st, cfg.Chains)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// takeBack copies the rows of samples.csv that st counted.
func (s *SampleWriter) takeBack(copyRows RowCopier, st *batch.Samples) error {
	err := copyRows("samples.csv", st.Rows(), func(line []byte) error {
		if _, err := s.w.Write(line); err != nil {
			return fmt.Errorf("writing samples.csv: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return s.Flush()
}

// takeBack copies the rows of index.csv that st counted, one record (a
// row per followed replica; all chains' replicas when st.Replicas is nil)
// at a time.
func (r *IndexWriter) takeBack(copyRows RowCopier, st *batch.IndexProcess, chains int) error {
	per := len(st.Replicas)
	if st.Replicas == nil {
		per = chains
	}
	rec := make([]int, 0, per)
	err := copyRows("index.csv", st.Records()*per, func(line []byte) error {
		f := strings.Split(strings.TrimSuffix(string(line), "\n"), ",")
		var v [4]int
		for i := range v {
			if len(f) != 4 {
				return fmt.Errorf("index.csv row %q: want 4 fields", line)
			}
			var err error
			if v[i], err = strconv.Atoi(f[i]); err != nil {
				return fmt.Errorf("index.csv row %q: %v", line, err)
			}
		}
		rec = append(rec, v[3])
		if len(rec) < per {
			return nil
		}
		err := r.write(v[0]-r.first, v[1], rec)
		rec = rec[:0]
		return err
	})
	if err != nil {
		return err
	}
	return r.Flush()
}

// SyncStreamed flushes the streamed files and commits them to stable
// storage, before a checkpoint that counts their rows is written; a nil
// writer is skipped.
func SyncStreamed(samples *SampleWriter, index *IndexWriter) error {
	if samples != nil {
		if err := samples.Flush(); err != nil {
			return err
		}
		if err := samples.Sync(); err != nil {
			return fmt.Errorf("writing samples.csv: %w", err)
		}
	}
	if index != nil {
		if err := index.Flush(); err != nil {
			return err
		}
		if err := index.Sync(); err != nil {
			return fmt.Errorf("writing index.csv: %w", err)
		}
	}
	return nil
}
