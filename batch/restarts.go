package batch

import "sync"

// Restarts is a Statistic: tempered restarts per replicate (Syed et al.
// 2022, §3.5; Pigeons' "restarts"). A replica makes a restart when it
// reaches the target chain after having been at the reference chain 0
// since it last reached the target: a fresh sample from the reference that
// makes it all the way up. Replica 0 starts at the reference, so its first
// arrival at the target counts.
//
// Every round trip (0 → target → 0, the engine's Result.RoundTrips)
// contains the restart of its first half, and each replica has at most one
// restart whose round trip is not complete, so at every iteration
//
//	round trips ≤ restarts ≤ round trips + Chains.
//
// The restart rate, restarts per iteration, therefore estimates the
// round-trip rate τ (eq:nrpt_rtr). It costs two reads of the index process
// per replicate and iteration. In a run with two legs
// (Config.VariationalLeg) it counts the restarts of both legs, each from
// its own reference to either target chain (Leg), and the bounds hold for
// the sums over the legs of round trips, restarts and chains. A Restarts
// observes one run.
type Restarts struct {
	mu        sync.Mutex
	observers []*restartObserver
	counts    []int
	scanCount []int
	iters     int
	scanIters int
}

// NewObserver returns the counter of one block.
func (s *Restarts) NewObserver(info BlockInfo) Observer {
	o := &restartObserver{info: info, fromZero: make([]bool, info.Chains*lanes)}
	if info.SecondLeg > 0 {
		o.legs = newLegTrips(info)
	}
	for j := 0; j < lanes; j++ {
		o.fromZero[j] = true // replica 0 starts at chain 0
	}
	s.mu.Lock()
	s.observers = append(s.observers, o)
	s.mu.Unlock()
	return o
}

// CollectScan takes every block's counts at the end of a scan, in
// replicate order.
func (s *Restarts) CollectScan(int) error {
	info := func(o *restartObserver) BlockInfo { return o.info }
	sortByReplicate(s.observers, info)
	r := numReplicates(s.observers, info)
	s.counts = append(s.counts[:0], make([]int, r)...)
	s.scanCount = append(s.scanCount[:0], make([]int, r)...)
	for _, o := range s.observers {
		for j := 0; j < o.info.Replicates; j++ {
			s.counts[o.info.FirstReplicate+j] = o.total[j]
			s.scanCount[o.info.FirstReplicate+j] = o.lastScan[j]
		}
		s.iters, s.scanIters = o.iters, o.scanIters
	}
	return nil
}

// Counts returns, per run-relative replicate, the restarts of the whole
// run up to the end of the last completed scan. Call it between
// Engine.Steps or after the run.
func (s *Restarts) Counts() []int { return append([]int(nil), s.counts...) }

// ScanCounts returns, per replicate, the restarts during the last
// completed scan.
func (s *Restarts) ScanCounts() []int { return append([]int(nil), s.scanCount...) }

// Rates returns, per replicate, the restarts per iteration over the
// completed scans: Counts divided by their iterations.
func (s *Restarts) Rates() []float64 { return perIteration(s.counts, s.iters) }

// ScanRates returns, per replicate, the restarts per iteration in the last
// completed scan, comparable with Result.RoundTripRates.
func (s *Restarts) ScanRates() []float64 { return perIteration(s.scanCount, s.scanIters) }

func perIteration(counts []int, iters int) []float64 {
	out := make([]float64, len(counts))
	for b, c := range counts {
		out[b] = float64(c) / float64(iters)
	}
	return out
}

// restartObserver counts one block's restarts.
type restartObserver struct {
	info BlockInfo
	// fromZero, by replica and lane (replica*lanes+j): the replica has been
	// at chain 0 since it last reached the target chain.
	fromZero    []bool
	total, scan [lanes]int
	lastScan    [lanes]int // in the scan that ended last
	iters       int        // iterations of the completed scans
	scanIters   int        // … of the scan that ended last
	legs        *legTrips  // with two legs: each leg's counts (fromZero unused)
}

// Iterate updates the count from the replicas at the two ends.
func (o *restartObserver) Iterate(v *View) {
	if o.legs != nil {
		var trips, scan [lanes]int
		o.legs.iterate(v, &trips, &scan)
		for j := range o.total {
			d := o.legs.restarts[0][j] + o.legs.restarts[1][j] - o.total[j]
			o.total[j] += d
			o.scan[j] += d
		}
		return
	}
	top := o.info.Chains - 1
	for j := 0; j < lanes; j++ {
		r0 := v.Replica(0, j)*lanes + j
		rN := v.Replica(top, j)*lanes + j
		if o.fromZero[rN] {
			o.total[j]++
			o.scan[j]++
			o.fromZero[rN] = false
		}
		o.fromZero[r0] = true
	}
}

// EndScan closes the scan's count.
func (o *restartObserver) EndScan(v *View) {
	if o.legs != nil {
		o.legs.endScan()
	}
	o.lastScan, o.scan = o.scan, [lanes]int{}
	o.iters += v.Step
	o.scanIters = v.Step
}
