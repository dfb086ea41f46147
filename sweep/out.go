package sweep

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/rundir"
	"github.com/ptbatch/ptbatch/study"
)

// ErrResumeChanged is matched by OpenOut's error when a file the sweep
// goes on with no longer has the checksum its manifest records (it
// wraps rundir.ErrChecksum too).
var ErrResumeChanged = errors.New("sweep: the directory was changed since its manifest was written")

// Out is a sweep's output directory as the sweep runs: cells.csv and
// summary.csv, appended to as each cell's piece ends, and the manifest
// of its rundir.Job, which records after every piece how far the sweep
// got, so that a kill loses at most the piece under way. A nil *Out
// writes nothing.
type Out struct {
	spec           *Spec
	job            *rundir.Job
	cells, summary *rundir.Appender
}

// OpenOut opens the files of the sweep s in the directory of job (held,
// its manifest written; r from Prepare, or the zero Resume): afresh
// with their headers, or cut back to what the previous manifest records,
// after checking their checksums (an error matching ErrResumeChanged and
// rundir.ErrChecksum otherwise; a link is refused with rundir.ErrSymlink).
// It then writes the manifest, no longer interrupted.
func OpenOut(job *rundir.Job, s *Spec, r Resume) (*Out, error) {
	o := &Out{spec: s, job: job}
	var err error
	if o.cells, err = openFile(job, r, Files[0], CellsHeader); err == nil {
		o.summary, err = openFile(job, r, Files[1], SummaryHeader)
	}
	if err == nil {
		job.Manifest.Interrupted = false
		err = job.WriteManifest()
	}
	if err != nil {
		o.Close()
		return nil, err
	}
	return o, nil
}

// changedError is an ErrChecksum of a resumed file.
type changedError struct{ err error }

func (e *changedError) Error() string   { return e.err.Error() }
func (e *changedError) Unwrap() []error { return []error{e.err, ErrResumeChanged} }

// openFile opens the sweep's file name for appending: afresh with its
// header, or cut back to what r's manifest records.
func openFile(job *rundir.Job, r Resume, name string, header []string) (*rundir.Appender, error) {
	hdr, err := csvBytes([][]string{header})
	if err != nil {
		return nil, err
	}
	var resume *rundir.FileSum
	if r.Prev != nil {
		s := job.Manifest.Files[name]
		resume = &s
	}
	a, err := rundir.OpenAppender(job.Dir.File(name), hdr, resume)
	if errors.Is(err, rundir.ErrChecksum) {
		return nil, &changedError{err}
	}
	return a, err
}

// Piece appends the rows of a finished piece pc (of cell c, its result
// res) to cells.csv, its cell's summary row to summary.csv, and records
// in the manifest that the units up to the piece's end are written. It
// returns the piece's summary, as a table prints it; a nil Out only
// computes it.
func (o *Out) Piece(s *Spec, c Cell, pc study.Piece, res *batch.Result) (Summary, error) {
	rows, v := Rows(c, pc.First, res, s.Bound(c))
	sum, m := SummaryRow(c, v, s.Bound(c))
	if o == nil {
		return m, nil
	}
	b, err := csvBytes(rows)
	if err == nil {
		err = o.cells.Add(b)
	}
	if err == nil {
		b, err = csvBytes([][]string{sum})
	}
	if err == nil {
		err = o.summary.Add(b)
	}
	if err != nil {
		return m, err
	}
	return m, o.job.Progress(pc.Run*s.Replicates + pc.First + pc.Replicates)
}

// Finish writes summary.json (Spec.WriteJSON, with the cells of the grid
// and those complete, the time spent, and workers and out as given) and
// the final manifest: complete unless interrupted. A nil Out (a sweep
// without a directory) has nothing to finish.
func (o *Out) Finish(cells int, interrupted bool, workers int, out string) error {
	if o == nil {
		return nil
	}
	m := o.job.Manifest
	r := Report{Cells: cells, Completed: CellsWithin(m.First, m.Done, o.spec.Replicates), Interrupted: interrupted,
		Elapsed: o.job.Elapsed(), Workers: workers, Out: out}
	if err := o.spec.writeJSON(o.job.Dir.File("summary.json"), r); err != nil {
		return err
	}
	return o.job.Finish(m.Done, interrupted)
}

// Close closes the files (not the directory, which its holder releases);
// nil-safe.
func (o *Out) Close() {
	if o != nil {
		o.cells.Close()
		o.summary.Close()
	}
}

// writeJSON writes summary.json to path atomically (rundir.WriteFile).
func (s *Spec) writeJSON(path string, r Report) error {
	return rundir.WriteFile(path, func(w io.Writer) error { return s.WriteJSON(w, r) })
}

// csvBytes returns rows as CSV text.
func csvBytes(rows [][]string) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.WriteAll(rows); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// MergeError is Merge's refusal of a manifest from which the sweep
// cannot be rebuilt: Path is the manifest, Err why.
type MergeError struct {
	Path string
	Err  error
}

// Error names the manifest and why.
func (e *MergeError) Error() string {
	return fmt.Sprintf("rebuilding the sweep from %s: %v", e.Path, e.Err)
}

// Unwrap returns why.
func (e *MergeError) Unwrap() error { return e.Err }

// Merge writes into dst the output of one process from the shards of a
// sweep (read and verified, rundir.ReadShards) whose merged manifest is m:
// the Spec from the configuration the manifests record and fingerprint
// (FromConfig; never the arguments), cells.csv the shards' rows in order
// (Join), summary.csv summarized from them cell by cell as the sweep
// does, and summary.json the sweep's, with the shards' seconds. It
// refuses a configuration that is not a sweep's (*MergeError) and rows
// that are not the shards' units (ErrRows); a shard's file that fails its
// check is rundir's error.
func Merge(dst string, shards []rundir.Shard, m *rundir.Manifest) error {
	where := filepath.Join(shards[0].Dir, rundir.ManifestName)
	s, err := FromConfig(m.Config)
	if err != nil {
		return &MergeError{where, err}
	}
	cells := s.Cells()
	if len(cells)*s.Replicates != m.Units {
		return fmt.Errorf("the sweep of %s has %d units, its manifest says %d", where, len(cells)*s.Replicates, m.Units)
	}
	parts := make([]ShardCells, len(shards))
	for i, sd := range shards {
		parts[i] = ShardCells{Dir: sd.Dir, First: sd.Manifest.First, End: sd.Manifest.End,
			Read: func() ([]byte, error) { return sd.ReadFile(Files[0]) }}
	}
	lines, summary, err := s.Join(cells, parts)
	if err != nil {
		return err
	}
	if err := rundir.WriteFile(filepath.Join(dst, Files[0]), func(w io.Writer) error { return WriteCells(w, lines) }); err != nil {
		return err
	}
	if err := rundir.WriteFile(filepath.Join(dst, Files[1]), func(w io.Writer) error { return csv.NewWriter(w).WriteAll(summary) }); err != nil {
		return err
	}
	r := Report{Cells: len(cells), Completed: len(cells), Elapsed: m.ElapsedSeconds, Out: dst}
	return s.writeJSON(filepath.Join(dst, "summary.json"), r)
}

// Execute runs the units [lo, hi) of the sweep of cells (study.Execute
// over Spec.Plan, with o's workers and progress, without log Z: o's
// Result is replaced), appends each finished piece to out (nil: none,
// Out.Piece), and then passes it with its summary to done (nil: none).
// When ctx ends the sweep, the error matches study.ErrInterrupted and
// cell is the index of the cell under way.
func (s *Spec) Execute(ctx context.Context, cells []Cell, lo, hi int, out *Out, o study.Options,
	done func(c Cell, res *batch.Result, m Summary) error) (cell int, err error) {
	plan := s.Plan(cells)
	pieces := plan.Range(lo, hi)
	finished := 0
	o.NoLogZ = true
	o.Result = func(pc study.Piece, res *batch.Result) error {
		finished++
		m, err := out.Piece(s, cells[pc.Run], pc, res)
		if err == nil && done != nil {
			err = done(cells[pc.Run], res, m)
		}
		return err
	}
	if _, err := study.Execute(ctx, &plan, pieces, o); err != nil {
		if finished < len(pieces) {
			cell = pieces[finished].Run
		}
		return cell, err
	}
	return 0, nil
}
