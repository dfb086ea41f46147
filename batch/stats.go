package batch

import "math"

// roundTrips counts tempered round trips per lane (Syed et al. 2022,
// §3.5): a replica completes one when it returns to the reference chain
// after having reached the target chain since it last left the reference.
type roundTrips struct {
	leftZero   []bool // by replica and lane: the replica has been at chain 0
	reachedTop []bool // … and has reached the target chain since
	total      [lanes]int
	scan       [lanes]int // in the current scan
	lastScan   [lanes]int // in the scan that ended last
	// legs counts each leg's round trips and restarts in a two-leg run
	// (Config.VariationalLeg), where total and scan are the sums over the
	// legs and the flags above are unused.
	legs *legTrips
}

// newRoundTrips returns the round-trip counts of a block of info, every
// replica starting at its own chain.
func newRoundTrips(info BlockInfo) *roundTrips {
	r := new(roundTrips)
	var flags [2][]bool
	carve(flags[:], info.Chains*lanes, info.Chains*lanes)
	r.leftZero, r.reachedTop = flags[0], flags[1]
	if info.SecondLeg > 0 {
		r.legs = newLegTrips(info)
	}
	for j := 0; j < lanes; j++ {
		r.leftZero[j] = true // replica 0 starts at chain 0
	}
	return r
}

// Iterate updates the count from the replicas at the two ends.
func (r *roundTrips) Iterate(v *View) {
	if r.legs != nil {
		r.legs.iterate(v, &r.total, &r.scan)
		return
	}
	top := v.Chains() - 1
	for j := 0; j < lanes; j++ {
		r0 := v.Replica(0, j)*lanes + j
		rN := v.Replica(top, j)*lanes + j
		if r.leftZero[rN] {
			r.reachedTop[rN] = true
		}
		if r.reachedTop[r0] {
			r.total[j]++
			r.scan[j]++
			r.reachedTop[r0] = false
		}
		r.leftZero[r0] = true
	}
}

// EndScan closes the scan's count.
func (r *roundTrips) EndScan(*View) {
	if r.legs != nil {
		r.legs.endScan()
	}
	r.lastScan = r.scan
	r.scan = [lanes]int{}
}

// firstMoments are the mean and variance over each scan of the target
// chain's first observable (ScanStats.TargetMean and TargetVar): one value
// per lane and iteration, so it costs next to nothing.
type firstMoments struct {
	x                 [1]float64
	shift, sum1, sum2 [lanes]float64
	lastMean, lastVar [lanes]float64 // over the scan that ended last
}

// Iterate adds the target chain's first observable to the scan's sums,
// shifted by the scan's first value to keep them well conditioned.
func (t *firstMoments) Iterate(v *View) {
	for j := 0; j < lanes; j++ {
		v.ObserveTarget(t.x[:], j)
		if v.Step == 0 {
			t.shift[j] = t.x[0]
		}
		d := t.x[0] - t.shift[j]
		t.sum1[j] += d
		t.sum2[j] += d * d
	}
}

// EndScan computes the scan's mean and variance (divisor M-1) and clears
// the sums.
func (t *firstMoments) EndScan(v *View) {
	m := float64(v.Step)
	inv := 1 / m
	for j := 0; j < lanes; j++ {
		mean := t.sum1[j] * inv
		t.lastMean[j] = t.shift[j] + mean
		if v.Step > 1 {
			t.lastVar[j] = (t.sum2[j] - m*mean*mean) / (m - 1)
		} else {
			t.lastVar[j] = math.NaN()
		}
	}
	t.sum1, t.sum2 = [lanes]float64{}, [lanes]float64{}
}
