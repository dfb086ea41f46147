package runout

import (
	"fmt"
	"strings"

	"github.com/ptbatch/ptbatch/batch"
)

// LegFigures are one leg's figures of a run with two legs
// (batch.Config.VariationalLeg, the stabilised two-leg PT of Surjanovic
// et al., NeurIPS 2022), per replicate (batch.Result.Legs): leg 1 runs
// from the model's own reference to the target, leg 2 from the target to
// the fitted Gaussian. Each leg's round trips and restarts are counted at
// its own reference (batch.Leg), so that legs of different lengths are
// counted right.
type LegFigures struct {
	// Chains is the leg's number of chains, its target chain included.
	Chains int
	// RoundTrips and Restarts are each replicate's over the whole run.
	RoundTrips, Restarts []int
	// Barriers are each replicate's Λ of the leg, Σ r_n over its pairs in
	// the last scan, and RoundTripRates its round trips per iteration in
	// the last scan.
	Barriers, RoundTripRates []float64
}

// Legs returns the figures of leg 1 and leg 2 of res, nil for a run with
// one leg (res.Legs nil).
func Legs(res *batch.Result) []LegFigures {
	if res.Legs == nil {
		return nil
	}
	out := make([]LegFigures, 2)
	for leg := range out {
		l := &out[leg]
		for _, rep := range res.Legs {
			x := rep[leg]
			l.Chains = x.Chains
			l.RoundTrips, l.Restarts = append(l.RoundTrips, x.RoundTrips), append(l.Restarts, x.Restarts)
			l.Barriers, l.RoundTripRates = append(l.Barriers, x.Barrier), append(l.RoundTripRates, x.RoundTripRate)
		}
	}
	return out
}

// legNames say where each leg runs, for LegRows.
var legNames = [2]string{"leg 1 (model's reference → target)", "leg 2 (target → fitted Gaussian)"}

// LegRows returns the rows of `ptbatch run`'s table (tab-separated label
// and value, one per line) that give each leg's figures of a run with two
// legs, and "" for a run with one leg, whose table is unchanged: the
// leg's chains, its round trips and restarts summed over the whole run
// and the replicates, its barrier Λ (mean ± se over replicates) and its
// last scan's round-trip rate (mean ± sd). The table's other rows sum
// both legs.
func LegRows(res *batch.Result) string {
	var b strings.Builder
	for i, l := range Legs(res) {
		trips, restarts := 0, 0
		for r := range l.RoundTrips {
			trips, restarts = trips+l.RoundTrips[r], restarts+l.Restarts[r]
		}
		lm, lse := batch.MeanSE(l.Barriers)
		rm, rsd := batch.MeanSD(l.RoundTripRates)
		fmt.Fprintf(&b, "%s\t%d chains; barrier Λ %.4f ± %.4f (mean ± se over replicates); %d round trips and %d restarts (all scans, all replicates, counted at the leg's reference); round-trip rate %.5f ± %.5f (last scan only, mean ± sd over replicates)\n",
			legNames[i], l.Chains, lm, lse, trips, restarts, rm, rsd)
	}
	return b.String()
}

// legsJSON returns the summary's "legs" field of a run with two legs:
// per leg its chains, round trips, restarts, barriers and last-scan
// round-trip rates per replicate, with the barrier's and the rate's
// means over replicates.
func legsJSON(res *batch.Result) []map[string]any {
	var out []map[string]any
	for _, l := range Legs(res) {
		lm, _ := batch.MeanSD(l.Barriers)
		rm, _ := batch.MeanSD(l.RoundTripRates)
		out = append(out, map[string]any{
			"chains": l.Chains, "round_trips": l.RoundTrips, "restarts": l.Restarts,
			"barrier": Num(lm), "barriers": Nums(l.Barriers),
			"round_trip_rate": Num(rm), "round_trip_rates": Nums(l.RoundTripRates),
		})
	}
	return out
}
