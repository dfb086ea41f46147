package batch

import (
	"math"
	"sync"

	"github.com/ptbatch/ptbatch/kernel"
)

// LogZ is a Statistic: the stepping-stone estimate of log(Z_1/Z_0), per
// replicate, where Z_i = ∫ exp(W_i(x)) dx for the model's own reference and
// target log densities W_0, W_1 (eq:non-linear-path: Z_t is the
// normalising constant of π_t ∝ exp(W_t), here W_t = η(t)·W on the
// run's path, with η(0) = (1, 0) and η(1) = (0, 1)). The ratio telescopes
// over the schedule, Z_1/Z_0 = Π_n Z_{t_{n+1}}/Z_{t_n}, and each factor is
// an expectation under one chain's distribution (Gelman and Meng 1998,
// cited in the paper's literature review):
//
//	forward:  log(Z_1/Z_0) ≈ Σ_n log mean_{x ~ π_{t_n}} exp(Δ_n·W(x)),
//	reverse:  log(Z_1/Z_0) ≈ -Σ_n log mean_{x ~ π_{t_{n+1}}} exp(-Δ_n·W(x)),
//
// with Δ_n = η(t_{n+1}) - η(t_n), the means over the states at chain n (or
// n+1) after every iteration's communication step (View.Energies, with the
// chains' coefficients View.Coefficients). By Jensen's inequality the
// forward estimate is biased low and the reverse one high, by O(1/M) for M
// iterations; their difference (Differences) shows the bias, and in their
// average (Estimates) the leading terms cancel when neighbouring chains are
// close.
//
// The estimates use the samples of one scan: the last scan completed when
// they are read (Scan). With PaperTuning the engine retunes the schedule and
// the path after every scan, so only one scan's samples all come from one
// path and one schedule — those that View.Schedule and View.Coefficients
// report during that scan; its estimates therefore use the final path and
// schedule only in the sense of the last ones sampled (Result.Schedules are
// the ones tuned after it, never sampled). With AutoTuning a replicate's
// path and schedule are fixed once its tuner stops (View.Frozen), and the
// estimates pool every scan since then (from FromScan on): all of them ran
// on the final path and schedule, Result.Schedules included. In a run with
// two legs (Config.VariationalLeg) the stepping stone runs along leg 1
// alone, chains 0 … C1−1 from the model's own reference to the target, so
// that the estimate is log(Z1/Z0) for the model's own W0 and W1 whatever
// reference leg 2 has. Every mean is computed in log space, a
// log-sum-exp streamed with a running maximum, so that weights such as
// exp(10⁵) never overflow.
//
// It costs two exponentials per pair of chains and replicate in every
// iteration it accumulates (FromScan on), about 19 ns per pair and
// replicate (BenchmarkStatistics: 2.7 times a plain iteration of the
// Gaussian at d = 1 with 50 chains, 1.85 times at d = 16 with 60 chains);
// Iterate does nothing before FromScan, so FromScan = Config.Scans brings
// the cost over a run of S scans down to about 1/S of that. A LogZ
// observes one run.
type LogZ struct {
	// FromScan is the first scan whose samples are accumulated; 0 means
	// 1 (every scan, so that an interrupted run has the estimate of its
	// last completed scan). Setting it to Config.Scans pays for the final
	// scan only.
	FromScan int
	// Path also keeps the estimate's terms per pair of neighbouring
	// chains and the schedule they were sampled on, so that the estimate
	// of log Z(t_n) along the path accumulates chain by chain
	// (LogZRecord.Path); it costs 3·Chains floats per replicate.
	Path bool

	mu        sync.Mutex
	observers []*logZObserver
	scan      int
	fwd, rev  []float64
	pairs     logZPairs // per replicate, with Path
}

// NewObserver returns the accumulator of one block.
func (s *LogZ) NewObserver(info BlockInfo) Observer {
	// The rows in one allocation, written now, so that their pages are
	// mapped when the block is built and not at the first end of a scan
	// (fLog and rLog are first written there).
	var rows [8][]float64
	n := (info.Chains - 1) * lanes
	carve(rows[:], n, n)
	touch(rows[:]...)
	o := &logZObserver{
		info: info,
		from: max(1, s.FromScan),
		fMax: rows[0],
		fSum: rows[1],
		rMax: rows[2],
		rSum: rows[3],
		d0:   rows[4],
		d1:   rows[5],
		fLog: rows[6],
		rLog: rows[7],
	}
	if s.Path {
		o.pairs = newLogZObserverPairs(info.TargetChain() + 1)
	}
	o.reset()
	s.mu.Lock()
	s.observers = append(s.observers, o)
	s.mu.Unlock()
	return o
}

// CollectScan takes every block's estimates of scan scan, in replicate
// order.
func (s *LogZ) CollectScan(scan int) error {
	info := func(o *logZObserver) BlockInfo { return o.info }
	sortByReplicate(s.observers, info)
	r := numReplicates(s.observers, info)
	s.fwd, s.rev = nanSlice(s.fwd, r), nanSlice(s.rev, r)
	for _, o := range s.observers {
		for j := 0; j < o.info.Replicates; j++ {
			b := o.info.FirstReplicate + j
			s.fwd[b], s.rev[b] = o.fwd[j], o.rev[j]
		}
	}
	if s.Path {
		s.collectPairs(r)
	}
	s.scan = scan
	return nil
}

// Scan returns the scan whose samples the estimates come from: the last
// scan completed, or 0 before the first one (when every estimate is NaN).
// Scans before FromScan give NaN.
func (s *LogZ) Scan() int { return s.scan }

// Forward returns, per run-relative replicate, the forward stepping-stone
// estimate Σ_n log mean_{π_{t_n}} exp(Δ_n·W) of log(Z_1/Z_0). Call it
// between Engine.Steps or after the run.
func (s *LogZ) Forward() []float64 { return append([]float64(nil), s.fwd...) }

// Reverse returns, per replicate, the reverse estimate
// -Σ_n log mean_{π_{t_{n+1}}} exp(-Δ_n·W).
func (s *LogZ) Reverse() []float64 { return append([]float64(nil), s.rev...) }

// Estimates returns, per replicate, the average of the forward and the
// reverse estimates: the estimate of log(Z_1/Z_0).
func (s *LogZ) Estimates() []float64 {
	out := make([]float64, len(s.fwd))
	for b := range out {
		out[b] = 0.5 * (s.fwd[b] + s.rev[b])
	}
	return out
}

// Differences returns, per replicate, the reverse minus the forward
// estimate: positive in expectation (the two are biased in opposite
// directions), and small against the spread of the estimates across
// replicates when the scan is long enough and the chains close enough.
func (s *LogZ) Differences() []float64 {
	out := make([]float64, len(s.fwd))
	for b := range out {
		out[b] = s.rev[b] - s.fwd[b]
	}
	return out
}

// logZObserver accumulates one block's log weights of the current scan:
// for pair n and lane j at n*lanes+j, the running maximum and the sum of
// exp(weight - maximum) of the forward weights Δ_n·W(x_n) and of the
// reverse ones -Δ_n·W(x_{n+1}).
type logZObserver struct {
	info       BlockInfo
	from       int
	fMax, fSum []float64
	rMax, rSum []float64
	d0, d1     []float64      // Δ_n of the current scan
	fLog, rLog []float64      // log fSum, log rSum at the end of a scan
	count      [lanes]int     // iterations accumulated, per lane, since the last reset
	fwd, rev   [lanes]float64 // the estimates of the scan that ended last
	pairs      *logZObserverPairs
}

func (o *logZObserver) reset() {
	for j := range o.count {
		o.resetLane(j)
	}
}

// resetLane clears lane j's sums.
func (o *logZObserver) resetLane(j int) {
	for i := j; i < len(o.fMax); i += lanes {
		o.fMax[i], o.rMax[i] = math.Inf(-1), math.Inf(-1)
		o.fSum[i], o.rSum[i] = 0, 0
	}
	o.count[j] = 0
}

// Iterate adds the log weights of every pair of the block's replicates.
// The coefficients are fixed during a scan (and after a replicate's tuning
// has stopped), so their differences Δ_n are taken at the first iteration
// accumulated since the lane's sums were cleared.
func (o *logZObserver) Iterate(v *View) {
	if v.Scan < o.from {
		return
	}
	c, r := o.info.TargetChain()+1, o.info.Replicates
	for j := 0; j < r; j++ {
		if o.count[j] > 0 {
			continue
		}
		for n := 0; n+1 < c; n++ {
			a0, a1 := v.Coefficients(n, j)
			b0, b1 := v.Coefficients(n+1, j)
			o.d0[n*lanes+j], o.d1[n*lanes+j] = b0-a0, b1-a1
		}
	}
	for n := 0; n+1 < c; n++ {
		for j := 0; j < r; j++ {
			i := n*lanes + j
			d0, d1 := o.d0[i], o.d1[i]
			w0, w1 := v.Energies(n, j)
			u0, u1 := v.Energies(n+1, j)
			addLogWeight(&o.fMax[i], &o.fSum[i], dot(d0, d1, w0, w1))
			addLogWeight(&o.rMax[i], &o.rSum[i], -dot(d0, d1, u0, u1))
		}
	}
	for j := 0; j < r; j++ {
		o.count[j]++
	}
}

// dot returns d0·w0 + d1·w1, a term whose coefficient is zero counting as
// zero even when its energy is infinite.
func dot(d0, d1, w0, w1 float64) float64 {
	s := 0.0
	if d0 != 0 {
		s = d0 * w0
	}
	if d1 != 0 {
		s += d1 * w1
	}
	return s
}

// addLogWeight adds exp(a) to the sum exp(*m)·(*s), keeping *m the largest
// weight so far so that *s stays in [1, count]: one exponential per weight,
// no overflow. A weight of -∞ adds nothing; a NaN weight makes the sum NaN.
func addLogWeight(m, s *float64, a float64) {
	switch d := a - *m; {
	case d > 0:
		*s = *s*math.Exp(-d) + 1
		*m = a
	case a == *m:
		// Equal, both -∞ included: while only -∞ has been added *s
		// counts it, and *m = -∞ keeps the sum 0.
		*s++
	default:
		*s += math.Exp(d)
	}
}

// EndScan turns the sums into the forward and reverse estimates and clears
// them, except for the lanes whose path and schedule are frozen
// (View.Frozen), whose sums go on over the next scans.
func (o *logZObserver) EndScan(v *View) {
	o.logSums(v)
	for j := 0; j < lanes; j++ {
		if v.Scan < o.from || o.count[j] == 0 {
			o.fwd[j], o.rev[j] = math.NaN(), math.NaN()
			o.pairs.clear(j)
			continue
		}
		logM := math.Log(float64(o.count[j]))
		f, r := 0.0, 0.0
		for n := 0; n < o.info.TargetChain(); n++ {
			i := n*lanes + j
			tf := o.fMax[i] + o.fLog[i] - logM
			tr := o.rMax[i] + o.rLog[i] - logM
			f += tf
			r -= tr
			o.pairs.set(i, tf, -tr)
		}
		o.fwd[j], o.rev[j] = f, r
		o.pairs.setSchedule(j, v.Schedule(j))
		if !v.Frozen(j) {
			o.resetLane(j)
		}
	}
}

// logSums sets fLog and rLog to the logarithms of the sums of the pairs
// of leg 1, every lane's at once (kernel.MixLog is math.Log bit for bit),
// unless the scan is before FromScan.
func (o *logZObserver) logSums(v *View) {
	if v.Scan < o.from {
		return
	}
	n := o.info.TargetChain() * lanes
	kernel.MixLog(o.fLog[:n], o.fSum[:n])
	kernel.MixLog(o.rLog[:n], o.rSum[:n])
}

// nanSlice returns s resized to n elements, all NaN.
func nanSlice(s []float64, n int) []float64 {
	s = append(s[:0], make([]float64, n)...)
	for i := range s {
		s[i] = math.NaN()
	}
	return s
}
