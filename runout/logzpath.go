package runout

import (
	"path/filepath"
	"slices"
	"strconv"

	"github.com/ptbatch/ptbatch/batch"
)

// LogZPoint is one chain's point of the log Z curve along the path: the
// stepping-stone estimate of log(Z(t_n)/Z_0) accumulated over the pairs of
// chains below it (batch.LogZRecord.Path), over the replicates.
type LogZPoint struct {
	Chain int
	// T is the mean over replicates of the chain's t_n, TMin and TMax its
	// extremes: equal unless the schedules were tuned per replicate.
	T, TMin, TMax float64
	// LogZ is the mean over replicates of log Z(t_n), SE its standard
	// error across them (sd/√R; NaN for one replicate).
	LogZ, SE float64
}

// LogZPath returns the log Z curve of lz, a point per chain, or nil when
// lz has no terms per pair (batch.LogZ.Path unset).
func LogZPath(lz batch.LogZRecord) []LogZPoint {
	sched, path := lz.Path()
	if len(path) == 0 {
		return nil
	}
	out := make([]LogZPoint, len(path[0]))
	for n := range out {
		ts, zs := make([]float64, len(path)), make([]float64, len(path))
		for b := range path {
			ts[b], zs[b] = sched[b][n], path[b][n]
		}
		p := LogZPoint{Chain: n, TMin: slices.Min(ts), TMax: slices.Max(ts)}
		p.T, _ = batch.MeanSD(ts)
		p.LogZ, p.SE = batch.MeanSE(zs)
		out[n] = p
	}
	return out
}

// WriteLogZPath writes logz_path.csv into dir,
// `chain,t,t_min,t_max,log_z,log_z_se` (LogZPath), when lz has terms per
// pair; without them it writes nothing.
func WriteLogZPath(dir string, lz batch.LogZRecord) error {
	points := LogZPath(lz)
	if points == nil {
		return nil
	}
	rows := [][]string{{"chain", "t", "t_min", "t_max", "log_z", "log_z_se"}}
	for _, p := range points {
		rows = append(rows, []string{strconv.Itoa(p.Chain), FullFloat(p.T), FullFloat(p.TMin), FullFloat(p.TMax),
			FullFloat(p.LogZ), FullFloat(p.SE)})
	}
	return WriteCSV(filepath.Join(dir, "logz_path.csv"), rows)
}
