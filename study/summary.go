package study

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Interval is a mean over replicates with its 95 % confidence interval,
// mean ± t_{0.975, n−1}·s/√n (Student's t, s the sample standard
// deviation). With one replicate the interval is NaN.
type Interval struct {
	Mean, Lo, Hi float64
}

// interval returns the Interval of xs.
func interval(xs []float64) Interval {
	n := float64(len(xs))
	if len(xs) == 0 {
		return Interval{math.NaN(), math.NaN(), math.NaN()}
	}
	if len(xs) == 1 {
		return Interval{xs[0], math.NaN(), math.NaN()}
	}
	mean, sd := stat.MeanStdDev(xs, nil)
	h := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975) * sd / math.Sqrt(n)
	return Interval{mean, mean - h, mean + h}
}

// RunSummary is one run's replicates summarised.
type RunSummary struct {
	Run        int
	Replicates int
	RoundTrips Interval
	TailRate   Interval
	Barrier    Interval
	LogZ       Interval
}

// Summarize returns a RunSummary per run with cells, in plan
// order, from cells in the order Merge gives them (a run's cells
// together). Runs without cells are left out.
func Summarize(cells []Cell) []RunSummary {
	var out []RunSummary
	for lo := 0; lo < len(cells); {
		hi := lo
		for hi < len(cells) && cells[hi].Run == cells[lo].Run {
			hi++
		}
		var trips, tail, lambda, logz []float64
		for _, c := range cells[lo:hi] {
			trips = append(trips, float64(c.RoundTrips))
			tail, lambda, logz = append(tail, c.TailRate), append(lambda, c.Barrier), append(logz, c.LogZ)
		}
		out = append(out, RunSummary{Run: cells[lo].Run, Replicates: hi - lo, RoundTrips: interval(trips),
			TailRate: interval(tail), Barrier: interval(lambda), LogZ: interval(logz)})
		lo = hi
	}
	return out
}
