package paper

import (
	"strconv"

	"github.com/ptbatch/ptbatch/batch"
)

// Headers of an experiment's CSVs: scans.csv (a row per method,
// replicate and scan), summary.csv (a row per method; its seconds are in
// summary.json), lambda.csv (the last scan's barrier profile) and
// knots.csv (replicate 0's tuned knots).
var (
	ScansHeader   = []string{"method", "replicate", "scan", "iteration", "round_trips", "barrier", "nonasymptotic_barrier", "skl", "mean_rejection"}
	SummaryHeader = []string{"method", "replicates", "iterations", "round_trips_mean", "rate_mean", "rate_sd", "tail_rate_mean", "tail_rate_sd", "last_scan_rate_mean", "barrier", "nonasymptotic_barrier", "skl",
		"log_z", "log_z_se", "log_z_reverse_minus_forward", "restarts_mean", "last_scan_restart_rate_mean"}
	LambdaHeader = []string{"method", "replicate", "t", "local_barrier", "cumulative_barrier"}
	KnotsHeader  = []string{"method", "knot", "eta0", "eta1"}
)

// Measures are a method's round trips over its replicates: the mean
// count, the rate of the whole run and the tail rate
// (batch.Result.TailRoundTripRates), each mean ± sd.
type Measures struct {
	TripsMean, Rate, RateSD, Tail, TailSD float64
}

// Measure returns the measures of a run of reps replicates.
func Measure(res *batch.Result, reps int) Measures {
	var m Measures
	rates := make([]float64, reps)
	for r := range rates {
		rates[r] = float64(res.RoundTrips[r]) / float64(res.Iterations)
		m.TripsMean += float64(res.RoundTrips[r]) / float64(reps)
	}
	m.Rate, m.RateSD = batch.MeanSD(rates)
	m.Tail, m.TailSD = batch.MeanSD(res.TailRoundTripRates())
	return m
}

// ScanRows returns the method's scans.csv rows, a run of reps replicates
// whose scans have perScan iterations each, and the mean cumulative
// round trips per scan against the scan in the paper's scans of
// paperPerScan iterations (the figure's curve).
func ScanRows(method string, res *batch.Result, reps, perScan, paperPerScan int) (rows [][]string, xs, cum []float64) {
	cum = make([]float64, res.Scans)
	xs = make([]float64, res.Scans)
	for r := 0; r < reps; r++ {
		for _, st := range res.History[r] {
			rows = append(rows, []string{method, strconv.Itoa(r), strconv.Itoa(st.Scan), strconv.Itoa(st.Scan * perScan), strconv.Itoa(st.RoundTrips),
				Short(st.Barrier), Short(st.NonAsymptoticBarrier), Short(st.SKL), Short(st.MeanRejection)})
			cum[st.Scan-1] += float64(st.RoundTrips) / float64(reps)
			xs[st.Scan-1] = float64(st.Scan*perScan) / float64(paperPerScan)
		}
	}
	return rows, xs, cum
}

// KnotRows returns the method's knots.csv rows of replicate 0's knots,
// and their two coordinates.
func KnotRows(method string, res *batch.Result) (rows [][]string, eta0, eta1 []float64) {
	for k, kn := range res.Knots[0] {
		rows = append(rows, []string{method, strconv.Itoa(k), Short(kn[0]), Short(kn[1])})
		eta0, eta1 = append(eta0, kn[0]), append(eta1, kn[1])
	}
	return rows, eta0, eta1
}

// Short formats x with 6 significant digits, as the CSVs of an
// experiment do.
func Short(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
