package paper

import (
	"fmt"
	"strconv"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/runout"
)

// stats are the statistics a reproduction adds to every run of an
// experiment: log Z of the last scan (batch.LogZ from
// runout.LogZFromScan, as `ptbatch run`), restarts, and the last scan's
// barrier profile. They are read from their record (rec): the run's own
// once it is recorded, or in a merge the record joined from the shards.
type stats struct {
	logZ     *batch.LogZ
	restarts *batch.Restarts
	profile  *batch.BarrierProfile
	rec      *runout.Record
}

// newStats adds the statistics to cfg.
func newStats(cfg *batch.Config) *stats {
	logZ, restarts := &batch.LogZ{FromScan: runout.LogZFromScan(cfg)}, new(batch.Restarts)
	profile := &batch.BarrierProfile{Points: runout.LambdaPoints}
	cfg.Statistics = append(cfg.Statistics, logZ, restarts, profile)
	return &stats{logZ: logZ, restarts: restarts, profile: profile}
}

// record sets the records of the run's statistics in r, and reads them
// from r from now on.
func (s *stats) record(r *runout.Record) {
	p := s.profile.Record()
	r.LogZ, r.Restarts, r.Profile = s.logZ.Record(), s.restarts.Record(), &p
	s.rec = r
}

// restartsSummary returns the mean over replicates of the restarts of the
// whole run and of the last scan's restarts per iteration.
func (s *stats) restartsSummary() (mean, rate float64) {
	counts := s.rec.Restarts.Counts()
	c := make([]float64, len(counts))
	for b, n := range counts {
		c[b] = float64(n)
	}
	mean, _ = batch.MeanSD(c)
	rate, _ = batch.MeanSD(s.rec.Restarts.ScanRates())
	return mean, rate
}

// appendLambdaRows appends one method's rows of lambda.csv
// (LambdaHeader): a row per replicate and grid point of the last scan's
// barrier profile.
func (s *stats) appendLambdaRows(rows [][]string, method string) [][]string {
	grid, loc, cum := s.rec.Profile.Grid(), s.rec.Profile.Local(), s.rec.Profile.Cumulative()
	for b := range cum {
		for i, t := range grid {
			rows = append(rows, []string{method, strconv.Itoa(b), Short(t), Short(loc[b][i]), Short(cum[b][i])})
		}
	}
	return rows
}

// logZNote says what log Z is for the experiment's model, with its exact
// value when there is a closed form (runout.ExactLogZ).
func logZNote(m models.Model) string {
	const what = "log Z is the stepping-stone estimate of log(Z1/Z0), Z_i = ∫ exp(W_i), from the last scan (average of the forward and reverse estimates; ± the standard error across replicates)"
	if x, ok := runout.ExactLogZ(m); ok {
		return fmt.Sprintf("%s; its exact value for this model is %.4f.", what, x)
	}
	return what + "; W0 is the normalised prior, so log Z is the log evidence, which has no closed form."
}
