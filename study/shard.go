package study

import (
	"fmt"

	"github.com/ptbatch/ptbatch/rundir"
)

// Piece is the part of one run that a shard holds: replicates [First,
// First+Replicates) of run Run.
type Piece struct {
	Run        int
	First      int
	Replicates int
}

// Shard returns the pieces of shard i of n (1 ≤ i ≤ n) of the plan: the
// contiguous units [(i−1)·U/n, i·U/n) of the plan's U run × replicate
// units, cut at the runs' ends. Shards 1..n cover every unit once; a shard
// may be empty when n exceeds U. It returns an error for i or n out of
// range.
func (p *Plan) Shard(i, n int) ([]Piece, error) {
	if n < 1 || i < 1 || i > n {
		return nil, fmt.Errorf("study: shard %d/%d: want 1 ≤ i ≤ n", i, n)
	}
	return p.Range(rundir.Share(i, n, p.Units())), nil
}

// Range returns the pieces of the units [lo, hi) of the plan, cut at the
// runs' ends: run r's replicate b is unit Σ_{q<r} Runs[q].Replicates + b.
func (p *Plan) Range(lo, hi int) []Piece {
	var out []Piece
	start := 0
	for r, run := range p.Runs {
		end := start + run.Replicates
		if a, b := max(lo, start), min(hi, end); a < b {
			out = append(out, Piece{Run: r, First: a - start, Replicates: b - a})
		}
		start = end
	}
	return out
}

// Pieces returns the whole plan as pieces: every run with all its
// replicates (shard 1 of 1).
func (p *Plan) Pieces() []Piece {
	out, _ := p.Shard(1, 1)
	return out
}
