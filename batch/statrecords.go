package batch

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// The records of the statistics: a statistic's per-replicate results as
// plain data (gob and JSON encode them), read with its Record method after
// a run, and merged with the records of the runs of the following
// replicate ranges (Config.FirstReplicate) by their Merge methods, as
// Pigeons' recorders merge the reports of many processes: the merge of the
// records of the runs of replicates [0, a) and [a, b) of one configuration
// is the record of the run of [0, b), bit for bit (each replicate's
// streams depend on its number alone). The accessor methods read them as
// the statistics themselves are read.

// ErrRecordMismatch is wrapped by the Merge methods of the records when
// the two records cannot be of one configuration: values every replicate
// range shares (a profile's grid, the ESS's number of draws) differ.
var ErrRecordMismatch = errors.New("batch: the records are not of one configuration")

// LogZRecord is a LogZ's result as data: per replicate, the forward and
// the reverse estimates, and with LogZ.Path the terms per pair of
// neighbouring chains and the schedule (rows per replicate; nil without
// Path; LogZRecord.Path).
type LogZRecord struct {
	Fwd, Rev                   []float64
	PairFwd, PairRev, Schedule [][]float64 `json:",omitempty"`
}

// Record returns the LogZ's estimates as data.
func (s *LogZ) Record() LogZRecord {
	return LogZRecord{Fwd: s.Forward(), Rev: s.Reverse(), PairFwd: cloneFloatRows(s.pairs.fwd),
		PairRev: cloneFloatRows(s.pairs.rev), Schedule: cloneFloatRows(s.pairs.sched)}
}

// Forward returns, per replicate, the forward estimate (LogZ.Forward).
func (r LogZRecord) Forward() []float64 { return slices.Clone(r.Fwd) }

// Reverse returns, per replicate, the reverse estimate (LogZ.Reverse).
func (r LogZRecord) Reverse() []float64 { return slices.Clone(r.Rev) }

// Estimates returns, per replicate, the average of the forward and the
// reverse estimates (LogZ.Estimates).
func (r LogZRecord) Estimates() []float64 {
	out := make([]float64, len(r.Fwd))
	for b := range out {
		out[b] = 0.5 * (r.Fwd[b] + r.Rev[b])
	}
	return out
}

// Differences returns, per replicate, the reverse minus the forward
// estimate (LogZ.Differences).
func (r LogZRecord) Differences() []float64 {
	out := make([]float64, len(r.Fwd))
	for b := range out {
		out[b] = r.Rev[b] - r.Fwd[b]
	}
	return out
}

// Merge returns the record of r's replicates followed by next's.
func (r LogZRecord) Merge(next LogZRecord) (LogZRecord, error) {
	if len(r.Fwd) != len(r.Rev) || len(next.Fwd) != len(next.Rev) {
		return LogZRecord{}, fmt.Errorf("%w: log Z has unequal forward and reverse estimates", ErrRecordMismatch)
	}
	out, ok := r.mergePairs(next)
	if !ok {
		return LogZRecord{}, fmt.Errorf("%w: log Z has terms per pair in one part only", ErrRecordMismatch)
	}
	out.Fwd, out.Rev = concat(r.Fwd, next.Fwd), concat(r.Rev, next.Rev)
	return out, nil
}

// RestartsRecord is a Restarts' result as data: per replicate, the
// tempered restarts of the run and the last scan's restarts per iteration.
type RestartsRecord struct {
	Count    []int
	ScanRate []float64
}

// Record returns the Restarts' counts as data.
func (s *Restarts) Record() RestartsRecord {
	return RestartsRecord{Count: s.Counts(), ScanRate: s.ScanRates()}
}

// Counts returns, per replicate, the restarts of the run (Restarts.Counts).
func (r RestartsRecord) Counts() []int { return slices.Clone(r.Count) }

// ScanRates returns, per replicate, the last scan's restarts per
// iteration (Restarts.ScanRates).
func (r RestartsRecord) ScanRates() []float64 { return slices.Clone(r.ScanRate) }

// Merge returns the record of r's replicates followed by next's.
func (r RestartsRecord) Merge(next RestartsRecord) (RestartsRecord, error) {
	if len(r.Count) != len(r.ScanRate) || len(next.Count) != len(next.ScanRate) {
		return RestartsRecord{}, fmt.Errorf("%w: restarts have unequal counts and rates", ErrRecordMismatch)
	}
	return RestartsRecord{Count: concat(r.Count, next.Count), ScanRate: concat(r.ScanRate, next.ScanRate)}, nil
}

// ESSRecord is an ESS's result as data: per replicate and observable the
// effective sample size, over N draws each.
type ESSRecord struct {
	PerReplicate [][]float64
	N            int
}

// Record returns the ESS's values as data.
func (s *ESS) Record() ESSRecord { return ESSRecord{PerReplicate: s.Values(), N: s.Draws()} }

// Values returns, per replicate and observable, the ESS (ESS.Values).
func (r ESSRecord) Values() [][]float64 { return r.PerReplicate }

// Draws returns the number of draws of every replicate (ESS.Draws).
func (r ESSRecord) Draws() int { return r.N }

// Merge returns the record of r's replicates followed by next's; both
// must be over the same number of draws.
func (r ESSRecord) Merge(next ESSRecord) (ESSRecord, error) {
	if r.N != next.N {
		return ESSRecord{}, fmt.Errorf("%w: the ESS is over %d and %d draws", ErrRecordMismatch, r.N, next.N)
	}
	return ESSRecord{PerReplicate: concat(r.PerReplicate, next.PerReplicate), N: r.N}, nil
}

// ProfileRecord is a BarrierProfile's result as data: the grid of t and,
// per replicate, the local and cumulative barriers on it.
type ProfileRecord struct {
	T        []float64
	Loc, Cum [][]float64
}

// Record returns the BarrierProfile's last profiles as data.
func (s *BarrierProfile) Record() ProfileRecord {
	return ProfileRecord{T: s.Grid(), Loc: s.Local(), Cum: s.Cumulative()}
}

// Grid returns the grid of t (BarrierProfile.Grid).
func (r ProfileRecord) Grid() []float64 { return slices.Clone(r.T) }

// Local returns, per replicate, λ on the grid (BarrierProfile.Local).
func (r ProfileRecord) Local() [][]float64 { return r.Loc }

// Cumulative returns, per replicate, Λ on the grid
// (BarrierProfile.Cumulative).
func (r ProfileRecord) Cumulative() [][]float64 { return r.Cum }

// Merge returns the record of r's replicates followed by next's; both
// must be on the same grid, bit for bit.
func (r ProfileRecord) Merge(next ProfileRecord) (ProfileRecord, error) {
	if !sameBits(r.T, next.T) {
		return ProfileRecord{}, fmt.Errorf("%w: the barrier profiles' grids differ", ErrRecordMismatch)
	}
	return ProfileRecord{T: r.T, Loc: concat(r.Loc, next.Loc), Cum: concat(r.Cum, next.Cum)}, nil
}

// MomentsRecord is a TargetMoments' result as data: per replicate and
// observable, the mean and the variance of the kept samples.
type MomentsRecord struct{ Mean, Var [][]float64 }

// Record returns the TargetMoments' moments as data.
func (s *TargetMoments) Record() MomentsRecord { return MomentsRecord{Mean: s.Means(), Var: s.Vars()} }

// Means returns the means (TargetMoments.Means).
func (r MomentsRecord) Means() [][]float64 { return r.Mean }

// Vars returns the variances (TargetMoments.Vars).
func (r MomentsRecord) Vars() [][]float64 { return r.Var }

// Merge returns the record of r's replicates followed by next's.
func (r MomentsRecord) Merge(next MomentsRecord) (MomentsRecord, error) {
	return MomentsRecord{Mean: concat(r.Mean, next.Mean), Var: concat(r.Var, next.Var)}, nil
}

// concat returns a new slice of a's elements followed by b's.
func concat[T any](a, b []T) []T { return append(slices.Clone(a), b...) }

// sameBits reports whether a and b hold the same float64 bits.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}
