package batch

import (
	"math"
	"sync"
)

// BatchMeans is a streaming estimator of the effective sample size of one
// series x_1, x_2, … of a stationary Markov chain by batch means: the
// asymptotic variance σ² = lim n·Var(x̄_n) is estimated by b times the
// sample variance of the means of a consecutive batches of b draws each
// (b·a ≤ n), and the effective sample size is
//
//	ESS = n·s² / σ̂²,
//
// s² the sample variance of the n draws: n for independent draws, less for
// positively correlated ones (n(1-ρ)/(1+ρ) for an AR(1) series).
//
// Batch means is consistent when b and a both grow with n; the usual choice
// is b = ⌊√n⌋ (Flegal and Jones 2010). A stream does not know n in advance,
// so BatchMeans uses dynamic batches (Yeh and Schmeiser 2000): the batch
// size b is a power of two, and whenever the number of full batches reaches
// 2b adjacent batches are merged in pairs, which halves their number and
// doubles b. So, after n draws, √(n/2) < b ≤ √(2n) and the number of
// batches a is within the same bounds: within a factor √2 of ⌊√n⌋ both,
// with at most 2b+O(1) = O(√n) numbers kept. Draws of the last, incomplete
// batch count in n and s² but not in σ̂². ESS is NaN with fewer than two
// full batches (fewer than 4 draws), and may exceed n for negatively correlated draws.
//
// The running sums are of the draws shifted by the first one, for
// conditioning, and those of the batch sums are kept, so ESS costs O(1);
// a merge costs O(√n) and happens O(log n) times. The zero value is an
// empty series.
//
// References: J. M. Flegal, G. L. Jones. Batch means and spectral variance
// estimators in Markov chain Monte Carlo. Ann. Statist. 38(2), 2010. C. Yeh,
// B. W. Schmeiser. Simulation output analysis via dynamic batch means.
// Proc. Winter Simulation Conference, 2000.
type BatchMeans struct {
	n          int
	shift      float64
	sum, sumSq float64 // Σ (x - shift), Σ (x - shift)² over all draws
	size       int     // batch size b
	part       float64 // Σ (x - shift) over the incomplete batch
	partN      int
	batches    []float64 // Σ (x - shift) over each full batch
	bSum, bSq  float64   // Σ of the batch sums, and of their squares
}

// Add appends x to the series.
func (m *BatchMeans) Add(x float64) {
	if m.n == 0 {
		m.shift, m.size = x, 1
	}
	d := x - m.shift
	m.n++
	m.sum += d
	m.sumSq += d * d
	m.part += d
	m.partN++
	if m.partN < m.size {
		return
	}
	m.batches = append(m.batches, m.part)
	m.bSum += m.part
	m.bSq += m.part * m.part
	m.part, m.partN = 0, 0
	if len(m.batches) == 2*m.size {
		m.bSum, m.bSq = 0, 0
		for i := 0; i < m.size; i++ {
			s := m.batches[2*i] + m.batches[2*i+1]
			m.batches[i] = s
			m.bSum += s
			m.bSq += s * s
		}
		m.batches = m.batches[:m.size]
		m.size *= 2
	}
}

// N returns the number of draws.
func (m *BatchMeans) N() int { return m.n }

// BatchSize returns the current batch size b.
func (m *BatchMeans) BatchSize() int { return m.size }

// Batches returns the number of full batches.
func (m *BatchMeans) Batches() int { return len(m.batches) }

// Mean returns the mean of the draws (NaN with none).
func (m *BatchMeans) Mean() float64 {
	if m.n == 0 {
		return math.NaN()
	}
	return m.shift + m.sum/float64(m.n)
}

// Variance returns the sample variance s² of the draws (divisor n-1; NaN
// with fewer than two).
func (m *BatchMeans) Variance() float64 {
	if m.n < 2 {
		return math.NaN()
	}
	n := float64(m.n)
	return math.Max(0, (m.sumSq-m.sum*m.sum/n)/(n-1))
}

// AsymptoticVariance returns the batch-means estimate σ̂² of the asymptotic
// variance lim n·Var(x̄_n): b times the sample variance (divisor a-1) of
// the a full batches' means; NaN with fewer than two.
func (m *BatchMeans) AsymptoticVariance() float64 {
	a := len(m.batches)
	if a < 2 {
		return math.NaN()
	}
	b := float64(m.size)
	ss := math.Max(0, m.bSq-m.bSum*m.bSum/float64(a)) / (b * b)
	return b * ss / float64(a-1)
}

// ESS returns the effective sample size n·s²/σ̂² (NaN with fewer than two
// full batches, or when the draws are all equal).
func (m *BatchMeans) ESS() float64 {
	return float64(m.n) * m.Variance() / m.AsymptoticVariance()
}

// EffectiveSampleSize returns the batch-means effective sample size of the
// series x, n·s²/σ̂² with dynamic batches of size within a factor √2 of
// √n (BatchMeans: the estimator of the ESS statistic); NaN for a series of
// fewer than 4 draws (fewer than two full batches) or of equal draws.
func EffectiveSampleSize(x []float64) float64 {
	var m BatchMeans
	for _, v := range x {
		m.Add(v)
	}
	return m.ESS()
}

// ESS is a Statistic: the effective sample size, per replicate and
// observable, of the target chain's states (View.ObserveTarget after every
// iteration's communication step) over the kept scans (the run's last
// Config.KeepScans, or FromScan on), estimated by streaming batch means
// (BatchMeans). It keeps O(√n) numbers per replicate and observable for n
// kept iterations, and costs one observation of the target state and a few
// floating-point operations per observable, replicate and kept iteration;
// a model with many observables can limit them with Observables. An ESS
// observes one run.
//
// The number of round trips bounds the number of independent excursions
// of the target chain to the reference and back, so for a target whose
// local exploration mixes slowly it is the ceiling of a reported ESS; an
// exact sampler (models.Exact) gives independent target draws and an ESS
// near the number of draws.
type ESS struct {
	// FromScan is the first scan whose target-chain states count; 0
	// means the first of the kept scans (Config.KeepScans).
	FromScan int
	// Observables is the number of leading model observables whose ESS is
	// estimated; 0 means all.
	Observables int

	mu        sync.Mutex
	observers []*essObserver
	values    [][]float64
	draws     int
}

// NewObserver returns the estimator of one block.
func (s *ESS) NewObserver(info BlockInfo) Observer {
	k := info.Observables
	if s.Observables > 0 {
		k = min(k, s.Observables)
	}
	o := &essObserver{
		info:   info,
		from:   s.FromScan,
		x:      make([]float64, k),
		series: make([]BatchMeans, k*lanes),
	}
	if o.from == 0 {
		o.from = info.FirstKeptScan()
	}
	s.mu.Lock()
	s.observers = append(s.observers, o)
	s.mu.Unlock()
	return o
}

// CollectScan takes the effective sample sizes at the end of a scan, in
// replicate order.
func (s *ESS) CollectScan(int) error {
	info := func(o *essObserver) BlockInfo { return o.info }
	sortByReplicate(s.observers, info)
	s.values = make([][]float64, numReplicates(s.observers, info))
	for _, o := range s.observers {
		k := len(o.x)
		for j := 0; j < o.info.Replicates; j++ {
			v := make([]float64, k)
			for i := range v {
				v[i] = o.series[i*lanes+j].ESS()
			}
			s.values[o.info.FirstReplicate+j] = v
		}
		if k > 0 {
			s.draws = o.series[0].N()
		}
	}
	return nil
}

// Values returns, per run-relative replicate and observable, the
// effective sample size of the target chain's states of the kept scans
// completed so far (NaN before there are 4 of them). Call it between
// Engine.Steps or after the run.
func (s *ESS) Values() [][]float64 {
	out := make([][]float64, len(s.values))
	for b, v := range s.values {
		out[b] = append([]float64(nil), v...)
	}
	return out
}

// Draws returns the number n of target-chain states each replicate's
// estimates are over (the iterations of the kept scans completed so far).
func (s *ESS) Draws() int { return s.draws }

// essObserver holds one block's series: observable k of lane j at
// k*lanes+j.
type essObserver struct {
	info   BlockInfo
	from   int
	x      []float64
	series []BatchMeans
}

// Iterate adds the target chain's observables of every replicate during
// the kept scans.
func (o *essObserver) Iterate(v *View) {
	if v.Scan < o.from {
		return
	}
	for j := 0; j < o.info.Replicates; j++ {
		v.ObserveTarget(o.x, j)
		for k, x := range o.x {
			o.series[k*lanes+j].Add(x)
		}
	}
}

// EndScan does nothing: the estimates are taken after every block ends the
// scan.
func (o *essObserver) EndScan(*View) {}
