package paper

import (
	"strconv"

	"github.com/ptbatch/ptbatch/batch"
)

// HighDimHeader is the header of highdim's rates.csv.
var HighDimHeader = []string{"method", "dim", "chains", "replicate", "rate", "last_scan_barrier"}

// HighDimRows returns the round-trip rate per iteration of each of the
// reps replicates of res, the highdim run of the method named method at
// dimension d, and rates.csv's rows of them (HighDimHeader; numbers in 6
// significant digits): the method, d, its chains, the replicate, the rate
// and the barrier Λ its last scan estimated.
func HighDimRows(method string, d, reps int, res *batch.Result) (rows [][]string, rates []float64) {
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	rates = make([]float64, reps)
	for r := range rates {
		rates[r] = float64(res.RoundTrips[r]) / float64(res.Iterations)
		last := res.History[r][len(res.History[r])-1]
		rows = append(rows, []string{method, strconv.Itoa(d), strconv.Itoa(HighDimChains(d)), strconv.Itoa(r), g(rates[r]), g(last.Barrier)})
	}
	return rows, rates
}
