package study

import (
	"fmt"
	"math"
	"slices"

	"github.com/ptbatch/ptbatch/batch"
)

// Cell is what one replicate of one run measured.
type Cell struct {
	Run       int // the run's index in the plan
	Replicate int // the replicate's number in its run (its stream)
	// RoundTrips is the replicate's round trips over the whole run.
	RoundTrips int
	// TailRate is the round trips per iteration over the last tenth of the
	// scans (batch.Result.TailRoundTripRates): the estimate of τ
	// (eq:nrpt_rtr).
	TailRate float64
	// Barrier is Λ = Σ_n r_n of the last scan's rejection rates (§3).
	Barrier float64
	// LogZ is the stepping-stone estimate of log(Z_1/Z_0) over the kept
	// scans (batch.LogZ.Estimates).
	LogZ float64
}

// cells returns the cells of a piece's finished run: res and lz (nil: no
// estimate, NaN) of an engine of the piece's replicates.
func cells(pc Piece, res *batch.Result, lz *batch.LogZ) []Cell {
	tail := res.TailRoundTripRates()
	logz := make([]float64, pc.Replicates)
	for b := range logz {
		logz[b] = math.NaN()
	}
	if lz != nil {
		logz = lz.Estimates()
	}
	out := make([]Cell, pc.Replicates)
	for b := range out {
		lambda := 0.0
		for _, r := range res.Rejections[b] {
			lambda += r
		}
		out[b] = Cell{Run: pc.Run, Replicate: pc.First + b, RoundTrips: res.RoundTrips[b],
			TailRate: tail[b], Barrier: lambda, LogZ: logz[b]}
	}
	return out
}

// Merge returns the cells of the shards of one plan as one process gives
// them: every unit of the plan once, run after run and replicate after
// replicate. It returns an error naming a unit that is missing, given
// twice or not in the plan.
func Merge(p *Plan, shards ...[]Cell) ([]Cell, error) {
	start := make([]int, len(p.Runs)+1)
	for r, run := range p.Runs {
		start[r+1] = start[r] + run.Replicates
	}
	out := make([]Cell, start[len(p.Runs)])
	seen := make([]bool, len(out))
	for _, cs := range shards {
		for _, c := range cs {
			if c.Run < 0 || c.Run >= len(p.Runs) || c.Replicate < 0 || c.Replicate >= p.Runs[c.Run].Replicates {
				return nil, fmt.Errorf("study: merge: run %d replicate %d is not in the plan", c.Run, c.Replicate)
			}
			u := start[c.Run] + c.Replicate
			if seen[u] {
				return nil, fmt.Errorf("study: merge: run %d replicate %d is in two shards", c.Run, c.Replicate)
			}
			out[u], seen[u] = c, true
		}
	}
	if u := slices.Index(seen, false); u >= 0 {
		r, _ := slices.BinarySearch(start, u+1)
		return nil, fmt.Errorf("study: merge: run %d replicate %d is in no shard", r-1, u-start[r-1])
	}
	return out, nil
}
