package runout

import (
	"errors"

	"github.com/ptbatch/ptbatch/batch"
)

// RunStats are the statistics of issue 10 that `ptbatch run` adds to
// every run, with their files: the target moments of every observable
// (batch.TargetMoments) when the run follows them all, the kept states
// streamed to samples.csv (SampleWriter) with an output directory, the
// stepping-stone log(Z1/Z0) of the last
// scans (batch.LogZ from LogZFromScan), tempered restarts
// (batch.Restarts), the effective sample size of the target chain's
// observables over the kept scans (batch.ESS), the multi-chain
// diagnostics of the kept samples (batch.Diagnostics), and with an output
// directory the barrier profile λ(t), Λ(t) of the last scan
// (batch.BarrierProfile) and, when recorded, the index process
// (IndexWriter).
//
// The last scan is the last one sampled with one path and one schedule:
// under the paper's tuning the engine retunes both after every scan, so
// the final scan's samples are the only ones of the final path and
// schedule that were sampled.
type RunStats struct {
	Moments  *batch.TargetMoments // nil unless every observable is followed
	Samples  *SampleWriter        // samples.csv; nil without an output directory
	LogZ     *batch.LogZ
	Restarts *batch.Restarts
	ESS      *batch.ESS
	Diag     *batch.Diagnostics
	Profile  *batch.BarrierProfile // nil without an output directory
	Index    *IndexWriter          // nil unless the index process is recorded

	// Settings are the run's file settings and Args its command line,
	// kept in its Record.
	Settings *Settings
	Args     []string

	report *Diagnostics
}

// StatsOptions say which of RunStats' statistics a run adds.
type StatsOptions struct {
	// Thin keeps every Thin-th state for the diagnostics, the states
	// samples.csv holds, so that a merge computes the same from the
	// merged file (at least 1).
	Thin int
	// AllObservables follows every observable (up to
	// MaxDiagObservables for the diagnostics) and adds their target
	// moments; otherwise the first one.
	AllObservables bool
	// Dir is the output directory ("": none): with it the kept states
	// are streamed to Dir/samples.csv and the barrier profile is added,
	// and log Z keeps its path.
	Dir string
	// Index, when not nil, records the index process into
	// Dir/index.csv.
	Index *IndexSpec
	// Extra, when not nil, adds statistics of the caller's after the
	// diagnostics and before the barrier profile (the order a
	// checkpoint records).
	Extra func(cfg *batch.Config)
	// Settings and Args are kept in the run's Record.
	Settings *Settings
	Args     []string
}

// NewRunStats adds the statistics to cfg, in the order a checkpoint
// records: the target moments, samples.csv's, log Z, restarts, ESS,
// diagnostics, o.Extra's, the barrier profile and the index process.
// Close must be called when the run is over. Its error is samples.csv's
// or index.csv's creation's.
func NewRunStats(cfg *batch.Config, o StatsOptions) (*RunStats, error) {
	var samples *batch.Samples
	var index *batch.IndexProcess
	s := &RunStats{Settings: o.Settings, Args: o.Args}
	var err error
	if o.Dir != "" {
		if s.Samples, err = NewSampleWriter(o.Dir, cfg.Model.Observables(), cfg.FirstReplicate); err != nil {
			return nil, err
		}
		samples = &batch.Samples{Thin: o.Thin, Write: s.Samples.Write, Flush: s.Samples.Flush}
	}
	if o.Index != nil {
		if s.Index, err = NewIndexWriter(o.Dir, *o.Index, cfg.FirstReplicate); err != nil {
			s.Close()
			return nil, err
		}
		index = s.Index.Stat
	}
	s.add(cfg, o, samples, index)
	return s, nil
}

// add creates the statistics of o and adds them to cfg, with samples
// and index when not nil.
func (s *RunStats) add(cfg *batch.Config, o StatsOptions, samples *batch.Samples, index *batch.IndexProcess) {
	if o.AllObservables {
		s.Moments = new(batch.TargetMoments)
		cfg.Statistics = append(cfg.Statistics, s.Moments)
	}
	if samples != nil {
		cfg.Statistics = append(cfg.Statistics, samples)
	}
	s.LogZ, s.Restarts, s.ESS = &batch.LogZ{FromScan: LogZFromScan(cfg), Path: o.Dir != ""}, new(batch.Restarts), new(batch.ESS)
	s.Diag = &batch.Diagnostics{Thin: o.Thin, Observables: MaxDiagObservables, MaxDraws: DiagMaxDraws}
	if !o.AllObservables {
		s.ESS.Observables, s.Diag.Observables = 1, 1
	}
	cfg.Statistics = append(cfg.Statistics, s.LogZ, s.Restarts, s.ESS, s.Diag)
	if o.Extra != nil {
		o.Extra(cfg)
	}
	if o.Dir != "" {
		s.Profile = &batch.BarrierProfile{Points: LambdaPoints}
		cfg.Statistics = append(cfg.Statistics, s.Profile)
	}
	if index != nil {
		cfg.Statistics = append(cfg.Statistics, index)
	}
}

// LogZFromScan returns the first scan log Z accumulates (batch.LogZ's
// FromScan): the last scan with the paper's tuning, whose path and
// schedule change after every scan; with the automatic tuner, whose path
// and schedule are fixed in the kept scans, the last tenth of the scans
// (the iterations of the tail round-trip rate), which LogZ pools.
func LogZFromScan(cfg *batch.Config) int {
	if cfg.Tuning == batch.AutoTuning {
		return cfg.Scans - max(cfg.Scans/10, 1) + 1
	}
	return cfg.Scans
}

// Close closes samples.csv and index.csv (when written); later calls do
// nothing.
func (s *RunStats) Close() error {
	var err error
	if s.Samples != nil {
		err = s.Samples.Close()
	}
	if s.Index != nil {
		err = errors.Join(err, s.Index.Close())
	}
	return err
}

// Record returns the run's record: res, its target moments (nil: none)
// and the statistics' records, with the run's settings and arguments.
func (s *RunStats) Record(res *batch.Result, moments *batch.MomentsRecord) *Record {
	rec := NewRecord(res, s.Settings)
	rec.Args = s.Args
	if moments != nil {
		rec.SetMoments(*moments)
	}
	rec.LogZ, rec.Restarts = s.LogZ.Record(), s.Restarts.Record()
	ess := s.ESS.Record()
	rec.ESS = &ess
	if s.Profile != nil {
		p := s.Profile.Record()
		rec.Profile = &p
	}
	return rec
}

// RecordMoments is Record with the target moments the run followed
// (Moments; none when it did not follow every observable): the record
// `ptbatch run` keeps in result.gob and prints.
func (s *RunStats) RecordMoments(res *batch.Result) *Record {
	if s.Moments == nil {
		return s.Record(res, nil)
	}
	return s.Record(res, &batch.MomentsRecord{Mean: s.Moments.Means(), Var: s.Moments.Vars()})
}

// Diagnostics returns the run's diagnostics, computed once.
func (s *RunStats) Diagnostics(res *batch.Result) *Diagnostics {
	if s.report == nil {
		s.report = NewDiagnostics(res.Observables, DrawsOf(s.Diag), res)
	}
	return s.report
}

// WriteFiles writes logz.csv, lambda.csv and the figure lambda.png/svg
// into dir, the index process's figure when recorded (samples.csv and
// index.csv are closed first): WriteStatFiles of the run's record; then
// diagnostics.csv and samples.png/svg (WriteDiagnosticFiles), in the
// order WriteFiles writes them.
func (s *RunStats) WriteFiles(dir string, res *batch.Result) error {
	if err := s.Close(); err != nil {
		return err
	}
	var trace *IndexTrace
	if s.Index != nil {
		trace = s.Index.Trace()
	}
	if err := WriteStatFiles(dir, s.Record(res, nil), trace); err != nil {
		return err
	}
	return WriteDiagnosticFiles(dir, s.Diagnostics(res))
}
