package batch

import (
	"github.com/ptbatch/ptbatch/internal/wire"
)

// Leg is one leg's figures of one replicate in a run with two legs
// (Config.VariationalLeg): leg 1 runs from the model's own reference at
// chain 0 to the target chain C1−1, leg 2 from the second target chain C1
// to its reference at chain Chains−1.
//
// A leg's round trip is a replica's trip from the leg's reference chain
// to a target chain (C1−1 or C1, whichever it reaches first) and back to
// the same reference; a leg's restart is the first half, from its
// reference to a target chain (Restarts). Each is counted at its own
// reference, so a replica that comes up one leg and goes down the other
// completes no round trip of either until it returns, and legs of
// different lengths are counted right. Result.RoundTrips and
// ScanStats.RoundTrips are the sums over the two legs.
type Leg struct {
	// Chains is the number of chains of the leg, its target chain
	// included: C1 and C2 = VariationalLeg.
	Chains int
	// RoundTrips and Restarts are counted over the run, up to the end of
	// the last completed scan.
	RoundTrips, Restarts int
	// RoundTripRate is the leg's round trips per iteration in the last
	// completed scan.
	RoundTripRate float64
	// Barrier is Λ of the leg, Σ_n r_n over the leg's pairs of chains of
	// the last completed scan (the junction's pair, always accepted,
	// belongs to neither leg).
	Barrier float64
}

// legTrips counts the round trips and restarts of each leg of a two-leg
// run, per lane. Arrays by replica and lane (replica*lanes+j), per leg L:
// been[L] says the replica has been at leg L's reference, fresh[L] that it
// has been there since it last reached a target chain (a restart on its
// way), up[L] that it has reached a target chain since it was last at the
// reference (a round trip on its way).
type legTrips struct {
	ref                [2]int // each leg's reference chain
	lo, hi             int    // the target chains C1−1 and C1
	been, fresh, up    [2][]bool
	trips, restarts    [2][lanes]int // whole run
	scanTrips, scanRes [2][lanes]int // in the current scan
	lastTrips, lastRes [2][lanes]int // in the scan that ended last
}

func newLegTrips(info BlockInfo) *legTrips {
	l := &legTrips{ref: [2]int{0, info.Chains - 1}, lo: info.SecondLeg - 1, hi: info.SecondLeg}
	n := info.Chains * lanes
	for leg, ref := range l.ref {
		l.been[leg], l.fresh[leg], l.up[leg] = make([]bool, n), make([]bool, n), make([]bool, n)
		for j := 0; j < lanes; j++ {
			// Replica ref starts at the leg's reference chain.
			l.been[leg][ref*lanes+j], l.fresh[leg][ref*lanes+j] = true, true
		}
	}
	return l
}

// iterate updates the counts from the replicas at the target chains and
// at the two references, and adds each lane's new round trips of either
// leg to total and scan.
func (l *legTrips) iterate(v *View, total, scan *[lanes]int) {
	for leg, ref := range l.ref {
		been, fresh, up := l.been[leg], l.fresh[leg], l.up[leg]
		for j := 0; j < lanes; j++ {
			for _, n := range [2]int{l.lo, l.hi} {
				r := v.Replica(n, j)*lanes + j
				if fresh[r] {
					l.restarts[leg][j]++
					l.scanRes[leg][j]++
					fresh[r] = false
				}
				if been[r] {
					up[r] = true
				}
			}
			r0 := v.Replica(ref, j)*lanes + j
			if up[r0] {
				l.trips[leg][j]++
				l.scanTrips[leg][j]++
				total[j]++
				scan[j]++
				up[r0] = false
			}
			been[r0], fresh[r0] = true, true
		}
	}
}

// endScan closes the scan's counts.
func (l *legTrips) endScan() {
	l.lastTrips, l.scanTrips = l.scanTrips, [2][lanes]int{}
	l.lastRes, l.scanRes = l.scanRes, [2][lanes]int{}
}

// marshal appends the counter's state.
func (l *legTrips) marshal(w *wire.Writer) {
	for leg := range l.ref {
		w.Bools(l.been[leg])
		w.Bools(l.fresh[leg])
		w.Bools(l.up[leg])
		for _, v := range []*[lanes]int{&l.trips[leg], &l.restarts[leg], &l.scanTrips[leg], &l.scanRes[leg], &l.lastTrips[leg], &l.lastRes[leg]} {
			lanesInts(w, v)
		}
	}
}

// unmarshal reads what marshal appended.
func (l *legTrips) unmarshal(r *wire.Reader) {
	for leg := range l.ref {
		r.BoolsInto(l.been[leg], "leg flags")
		r.BoolsInto(l.fresh[leg], "leg flags")
		r.BoolsInto(l.up[leg], "leg flags")
		for _, v := range []*[lanes]int{&l.trips[leg], &l.restarts[leg], &l.scanTrips[leg], &l.scanRes[leg], &l.lastTrips[leg], &l.lastRes[leg]} {
			readLanesInts(r, v)
		}
	}
}

// legs returns one lane's figures of both legs from its counts at the
// end of the last completed scan, of perScan iterations, and that scan's
// rejection by pair rej.
func (l *legTrips) legs(chains, perScan int, rej []float64, last legCounts) [2]Leg {
	var out [2]Leg
	out[0].Chains, out[1].Chains = l.hi, chains-l.hi
	for n, r := range rej {
		switch {
		case n < l.lo:
			out[0].Barrier += r
		case n > l.lo:
			out[1].Barrier += r
		}
	}
	for leg := range out {
		out[leg].RoundTrips, out[leg].Restarts = last.trips[leg], last.restarts[leg]
		out[leg].RoundTripRate = float64(last.scanTrips[leg]) * (1 / float64(perScan))
	}
	return out
}

// legCounts are one lane's counts at the end of a scan, kept in its
// ScanStats' place so that a Result reports the last completed scan's.
type legCounts struct {
	trips, restarts, scanTrips [2]int
}

// counts returns lane j's counts now, at the end of a scan.
func (l *legTrips) counts(j int) legCounts {
	var c legCounts
	for leg := range c.trips {
		c.trips[leg], c.restarts[leg], c.scanTrips[leg] = l.trips[leg][j], l.restarts[leg][j], l.lastTrips[leg][j]
	}
	return c
}
