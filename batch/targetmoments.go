package batch

import (
	"math"
	"sync"
)

// TargetMoments is a Statistic: the mean and variance of every observable
// of the target chain's states over the kept scans (Config.KeepScans), per
// replicate. It observes every model observable at every kept iteration,
// which for a model with many (a d = 256 Gaussian) costs a few percent of
// an iteration; the engine's own statistics observe only the first.
type TargetMoments struct {
	mu        sync.Mutex
	observers []*momentObserver
}

// NewObserver returns the accumulator of one block.
func (s *TargetMoments) NewObserver(info BlockInfo) Observer {
	n := info.Observables * lanes
	o := &momentObserver{
		info:     info,
		keepFrom: info.FirstKeptScan(),
		x:        make([]float64, info.Observables),
		shift:    make([]float64, n),
		sum1:     make([]float64, n),
		sum2:     make([]float64, n),
		mean:     make([]float64, n),
		m2:       make([]float64, n),
	}
	s.mu.Lock()
	s.observers = append(s.observers, o)
	s.mu.Unlock()
	return o
}

// Means returns, per run-relative replicate b and observable k, the mean
// of observable k over replicate b's target-chain states of the kept scans
// so far (NaN before the first kept scan ends). Call it between
// Engine.Steps or after the run.
func (s *TargetMoments) Means() [][]float64 { return s.collect(false) }

// Vars returns the variances (divisor n-1) matching Means (NaN with fewer
// than two states).
func (s *TargetMoments) Vars() [][]float64 { return s.collect(true) }

func (s *TargetMoments) collect(variance bool) [][]float64 {
	var out [][]float64
	for _, o := range s.observers {
		for j := 0; j < o.info.Replicates; j++ {
			b := o.info.FirstReplicate + j
			for len(out) <= b {
				out = append(out, nil)
			}
			out[b] = make([]float64, o.info.Observables)
			for k := range out[b] {
				out[b][k] = o.kept(k, j, variance)
			}
		}
	}
	return out
}

// momentObserver accumulates one block's moments: the current scan's sums
// of every observable shifted by its first value (observable k, lane j at
// k*lanes+j), and the kept scans' count, means and sums of squared
// deviations, merged scan by scan.
type momentObserver struct {
	info              BlockInfo
	keepFrom          int
	x                 []float64
	shift, sum1, sum2 []float64
	n                 float64
	mean, m2          []float64
}

// Iterate adds the target chain's state of every lane during kept scans.
func (o *momentObserver) Iterate(v *View) {
	if v.Scan < o.keepFrom {
		return
	}
	for j := 0; j < lanes; j++ {
		v.ObserveTarget(o.x, j)
		for k, x := range o.x {
			i := k*lanes + j
			if v.Step == 0 {
				o.shift[i] = x
			}
			d := x - o.shift[i]
			o.sum1[i] += d
			o.sum2[i] += d * d
		}
	}
}

// EndScan merges a kept scan's moments into the kept ones (the pairwise
// update of Chan, Golub and LeVeque, 1979) and clears the sums.
func (o *momentObserver) EndScan(v *View) {
	if v.Scan < o.keepFrom {
		return
	}
	m := float64(v.Step)
	n := o.n + m
	for i := range o.sum1 {
		mean := o.sum1[i] / m
		delta := o.shift[i] + mean - o.mean[i]
		o.mean[i] += delta * m / n
		o.m2[i] += o.sum2[i] - m*mean*mean + delta*delta*o.n*m/n
	}
	o.n = n
	clear(o.sum1)
	clear(o.sum2)
}

func (o *momentObserver) kept(k, j int, variance bool) float64 {
	i := k*lanes + j
	switch {
	case o.n == 0, variance && o.n < 2:
		return math.NaN()
	case variance:
		return o.m2[i] / (o.n - 1)
	}
	return o.mean[i]
}
