package main

import "github.com/ptbatch/ptbatch/batch"

// The statistics of reproduceStats are read through these interfaces,
// which the batch statistics and their records (batch.LogZRecord, …)
// satisfy, so that a merge can give them the records joined from the
// shards.
type (
	logZValues interface {
		Forward() []float64
		Reverse() []float64
		Estimates() []float64
		Differences() []float64
	}
	restartValues interface {
		Counts() []int
		ScanRates() []float64
	}
	essValues interface {
		Values() [][]float64
		Draws() int
	}
	profileValues interface {
		Grid() []float64
		Local() [][]float64
		Cumulative() [][]float64
	}
)

// statValues are the statistics a record keeps; nil ones are absent.
type statValues struct {
	logZ     logZValues
	restarts restartValues
	ess      essValues
	profile  profileValues
}

// record sets the records of v's statistics in r.
func (v statValues) record(r *runRecord) {
	if v.logZ != nil {
		r.LogZ = batch.LogZRecord{Fwd: v.logZ.Forward(), Rev: v.logZ.Reverse()}
	}
	if v.restarts != nil {
		r.Restarts = batch.RestartsRecord{Count: v.restarts.Counts(), ScanRate: v.restarts.ScanRates()}
	}
	if v.ess != nil {
		r.ESS = &batch.ESSRecord{PerReplicate: v.ess.Values(), N: v.ess.Draws()}
	}
	if v.profile != nil {
		r.Profile = &batch.ProfileRecord{T: v.profile.Grid(), Loc: v.profile.Local(), Cum: v.profile.Cumulative()}
	}
}

// restoreStats returns the statistics recorded in r.
func restoreStats(r *runRecord) statValues {
	v := statValues{logZ: r.LogZ, restarts: r.Restarts}
	if r.ESS != nil {
		v.ess = *r.ESS
	}
	if r.Profile != nil {
		v.profile = *r.Profile
	}
	return v
}
