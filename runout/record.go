package runout

import (
	"errors"
	"fmt"
	"math"
	"reflect"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/rundir"
)

// RecordFormat is the version of the Record's layout in result.gob.
const RecordFormat = 2

// RecordName is the file a run's Record goes to.
const RecordName = "result.gob"

// Record is a run's complete result as data, exactly (gob keeps every
// float's bits): what every file after the run is written from, and what
// a merge joins. Result.Config holds the configuration without its Model
// and Statistics. The statistics' records are empty when the run did not
// compute them (Profile nil: no lambda.csv); Settings is nil in the
// records of reproduce's runs, which write no run directory.
type Record struct {
	Format   int
	Result   batch.Result
	Settings *Settings
	Moments  batch.MomentsRecord
	LogZ     batch.LogZRecord
	Restarts batch.RestartsRecord
	ESS      *batch.ESSRecord
	Profile  *batch.ProfileRecord

	// Args is the command line that made the run, when a command made
	// it: provenance only, never parsed. A merge compares it with the
	// argument list a shard's manifest records, to refuse an edited one.
	Args []string
}

// ErrFormat is returned by ReadRecord for a record of another layout.
var ErrFormat = errors.New("runout: result record of another format")

// NewRecord returns the record of res, with its configuration stripped of
// the model and the statistics, and no statistics yet.
func NewRecord(res *batch.Result, s *Settings) *Record {
	r := &Record{Format: RecordFormat, Result: *res, Settings: s}
	r.Result.Config.Model, r.Result.Config.Statistics = nil, nil
	return r
}

// SetMoments records the target moments m, with a row per replicate (nil
// rows for replicates without one).
func (r *Record) SetMoments(m batch.MomentsRecord) {
	n := r.Result.Config.Replicates
	r.Moments = batch.MomentsRecord{Mean: padRows(m.Mean, n), Var: padRows(m.Var, n)}
}

// padRows returns rows with exactly n rows (nil rows added).
func padRows(rows [][]float64, n int) [][]float64 {
	for len(rows) < n {
		rows = append(rows, nil)
	}
	return rows
}

// WriteRecord writes r to path atomically (rundir.WriteRecord).
func WriteRecord(path string, r *Record) error { return rundir.WriteRecord(path, r) }

// ReadRecord reads the record at path, refusing another layout
// (ErrFormat).
func ReadRecord(path string) (*Record, error) {
	var r Record
	if err := rundir.ReadRecord(path, &r); err != nil {
		return nil, err
	}
	if r.Format != RecordFormat {
		return nil, fmt.Errorf("%s: format %d, this ptbatch reads %d: %w", path, r.Format, RecordFormat, ErrFormat)
	}
	return &r, nil
}

// Merge joins the records of consecutive replicate ranges of one run, in
// order, into the record of all of them: the Results' per-replicate
// fields concatenated (mergeResults), and each statistic's record merged
// by its own Merge. The settings must be equal in every part.
func Merge(parts []*Record) (*Record, error) {
	if len(parts) == 0 {
		return nil, errors.New("runout: nothing to merge")
	}
	res, err := mergeResults(parts)
	if err != nil {
		return nil, err
	}
	out := *parts[0]
	out.Result = res
	for k, p := range parts[1:] {
		if err := out.mergeStats(p); err != nil {
			return nil, fmt.Errorf("part %d: %w", k+1, err)
		}
		if !sameSettings(p.Settings, parts[0].Settings) {
			return nil, fmt.Errorf("part %d: its settings differ from part 0's", k+1)
		}
	}
	return &out, nil
}

// mergeStats merges p's statistics' records after r's.
func (r *Record) mergeStats(p *Record) error {
	var err error
	if r.Moments, err = r.Moments.Merge(p.Moments); err != nil {
		return err
	}
	if r.LogZ, err = r.LogZ.Merge(p.LogZ); err != nil {
		return err
	}
	if r.Restarts, err = r.Restarts.Merge(p.Restarts); err != nil {
		return err
	}
	if (r.ESS == nil) != (p.ESS == nil) || (r.Profile == nil) != (p.Profile == nil) {
		return fmt.Errorf("%w: a statistic is in one part only", batch.ErrRecordMismatch)
	}
	if r.ESS != nil {
		e, err := r.ESS.Merge(*p.ESS)
		if err != nil {
			return err
		}
		r.ESS = &e
	}
	if r.Profile != nil {
		pr, err := r.Profile.Merge(*p.Profile)
		if err != nil {
			return err
		}
		r.Profile = &pr
	}
	return nil
}

// sameSettings reports whether a and b are the settings of one run: equal
// but for the workers and the memory limit, which its shards may set
// differently.
func sameSettings(a, b *Settings) bool {
	if a == nil || b == nil {
		return a == b
	}
	x, y := *a, *b
	x.Workers, x.MaxMemory = y.Workers, y.MaxMemory
	same := math.Float64bits(x.ExactLogZ) == math.Float64bits(y.ExactLogZ) && // NaN for none
		math.Float64bits(x.ExactBarrier) == math.Float64bits(y.ExactBarrier)
	x.ExactLogZ, y.ExactLogZ = 0, 0
	x.ExactBarrier, y.ExactBarrier = 0, 0
	return same && reflect.DeepEqual(x, y)
}
