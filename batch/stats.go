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
}

func newRoundTrips(info BlockInfo) *roundTrips {
	r := &roundTrips{
		leftZero:   make([]bool, info.Chains*lanes),
		reachedTop: make([]bool, info.Chains*lanes),
	}
	for j := 0; j < lanes; j++ {
		r.leftZero[j] = true // replica 0 starts at chain 0
	}
	return r
}

// Iterate updates the count from the replicas at the two ends.
func (r *roundTrips) Iterate(v *View) {
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
	r.lastScan = r.scan
	r.scan = [lanes]int{}
}

// targetMoments are the mean and variance of every observable of the
// target chain's state: per scan (kept for the first observable in
// ScanStats), and over the kept scans (the run's final ones, BlockInfo.
// KeepScans) for all of them.
type targetMoments struct {
	numObs   int
	keepFrom int       // first kept scan
	x        []float64 // scratch: one state's observables
	// The current scan's sums of the observables shifted by their first
	// value (observable k, lane j at k*lanes+j).
	shift, sum1, sum2 []float64
	// The first observable's mean and variance over the last scan.
	lastMean, lastVar [lanes]float64
	// Over the kept scans so far: the number of states and, per
	// observable and lane, the mean and sum of squared deviations.
	keptN            float64
	keptMean, keptM2 []float64
}

func newTargetMoments(info BlockInfo) *targetMoments {
	n := info.Observables * lanes
	return &targetMoments{
		numObs:   info.Observables,
		keepFrom: info.Scans - info.KeepScans + 1,
		x:        make([]float64, info.Observables),
		shift:    make([]float64, n),
		sum1:     make([]float64, n),
		sum2:     make([]float64, n),
		keptMean: make([]float64, n),
		keptM2:   make([]float64, n),
	}
}

// Iterate adds the target chain's state to the scan's sums.
func (t *targetMoments) Iterate(v *View) {
	for j := 0; j < lanes; j++ {
		v.ObserveTarget(t.x, j)
		for k, x := range t.x {
			i := k*lanes + j
			if v.Step == 0 {
				t.shift[i] = x
			}
			d := x - t.shift[i]
			t.sum1[i] += d
			t.sum2[i] += d * d
		}
	}
}

// EndScan computes the scan's moments, merges them into the kept ones if
// the scan is kept (Chan, Golub and LeVeque's pairwise update), and clears
// the sums.
func (t *targetMoments) EndScan(v *View) {
	m := float64(v.Step)
	inv := 1 / m
	kept := v.Scan >= t.keepFrom
	for i := range t.sum1 {
		mean := t.sum1[i] * inv
		m2 := t.sum2[i] - m*mean*mean
		if i < lanes {
			t.lastMean[i] = t.shift[i] + mean
			if v.Step > 1 {
				t.lastVar[i] = m2 / (m - 1)
			} else {
				t.lastVar[i] = math.NaN()
			}
		}
		if kept {
			n := t.keptN + m
			delta := t.shift[i] + mean - t.keptMean[i]
			t.keptMean[i] += delta * m / n
			t.keptM2[i] += m2 + delta*delta*t.keptN*m/n
		}
	}
	if kept {
		t.keptN += m
	}
	clear(t.sum1)
	clear(t.sum2)
}

// kept returns lane j's mean and variance of observable k over the kept
// scans (NaN before any, and the variance with fewer than two states).
func (t *targetMoments) kept(k, j int) (mean, variance float64) {
	if t.keptN == 0 {
		return math.NaN(), math.NaN()
	}
	i := k*lanes + j
	variance = math.NaN()
	if t.keptN > 1 {
		variance = t.keptM2[i] / (t.keptN - 1)
	}
	return t.keptMean[i], variance
}
