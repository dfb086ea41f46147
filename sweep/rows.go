package sweep

import (
	"math"
	"strconv"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/tune"
)

// CellsHeader and SummaryHeader are the columns of cells.csv (a row per
// cell × replicate) and summary.csv (a row per cell).
var (
	CellsHeader = []string{"dim", "chains", "knots", "seed", "replicate", "round_trip_rate", "round_trip_rate_run",
		"round_trips", "barrier", "nonasymptotic_barrier", "skl", "tau_predicted", "linear_bound"}
	SummaryHeader = []string{"dim", "chains", "knots", "seed", "replicates", "round_trip_rate_mean", "round_trip_rate_ci95",
		"round_trip_rate_run_mean", "round_trip_rate_run_ci95", "barrier_mean", "barrier_ci95", "tau_predicted_mean", "linear_bound"}
)

// Values are the per-replicate values of a cell that summary.csv
// summarizes: the round-trip rate of the last scan and of the whole run,
// the barrier Λ of the last scan and the predicted rate 1/(2+2Σr/(1−r)).
type Values struct {
	Rates, RunRates, Barriers, Taus []float64
}

// Summary is a cell's means and 95% CI half-widths, as the table prints
// them.
type Summary struct {
	Rate, RateCI, RunRate, RunRateCI, Barrier float64
}

// Rows returns a finished piece's cells.csv rows, its replicates numbered
// from first, and their values; bound is the cell's (Spec.Bound).
func Rows(c Cell, first int, res *batch.Result, bound float64) ([][]string, Values) {
	var v Values
	var rows [][]string
	for r := 0; r < res.Config.Replicates; r++ {
		st := res.History[r][len(res.History[r])-1]
		tau := tune.RoundTripRate(st.NonAsymptoticBarrier)
		runRate := float64(res.RoundTrips[r]) / float64(res.Iterations)
		rows = append(rows, append(cellKey(c, first+r),
			exact(res.RoundTripRates[r]), exact(runRate), itoa(res.RoundTrips[r]), exact(st.Barrier),
			exact(st.NonAsymptoticBarrier), exact(st.SKL), exact(tau), exact(bound)))
		v.Rates = append(v.Rates, res.RoundTripRates[r])
		v.RunRates = append(v.RunRates, runRate)
		v.Barriers = append(v.Barriers, st.Barrier)
		v.Taus = append(v.Taus, tau)
	}
	return rows, v
}

// cellKey returns the first five columns of a cells.csv row.
func cellKey(c Cell, replicate int) []string {
	return []string{itoa(c.Dim), itoa(c.Chains), itoa(c.Knots), strconv.FormatUint(c.Seed, 10), itoa(replicate)}
}

// SummaryRow returns the cell's summary.csv row: means and 95% CIs over
// the replicates of v. A sweep computes it from the values it measured, a
// merge from cells.csv, whose numbers are written exactly ('g', -1), so
// the two give the same bytes.
func SummaryRow(c Cell, v Values, bound float64) ([]string, Summary) {
	var s Summary
	s.Rate, s.RateCI = MeanCI(v.Rates)
	s.RunRate, s.RunRateCI = MeanCI(v.RunRates)
	var bci float64
	s.Barrier, bci = MeanCI(v.Barriers)
	row := []string{itoa(c.Dim), itoa(c.Chains), itoa(c.Knots), strconv.FormatUint(c.Seed, 10),
		itoa(len(v.Rates)), short(s.Rate), short(s.RateCI), short(s.RunRate), short(s.RunRateCI), short(s.Barrier), short(bci),
		short(stat.Mean(v.Taus, nil)), short(bound)}
	return row, s
}

// MeanCI returns the mean of xs and the half-width of its 95% confidence
// interval (Student t with n−1 degrees of freedom); NaN for fewer than 2.
func MeanCI(xs []float64) (mean, half float64) {
	mean = stat.Mean(xs, nil)
	if len(xs) < 2 {
		return mean, math.NaN()
	}
	sd := stat.StdDev(xs, nil)
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(xs) - 1)}.Quantile(0.975)
	return mean, q * sd / math.Sqrt(float64(len(xs)))
}

func itoa(i int) string { return strconv.Itoa(i) }

// short formats x with 6 significant digits (summary.csv).
func short(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// exact formats x with the fewest digits that read back as x (cells.csv).
func exact(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
