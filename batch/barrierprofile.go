package batch

import (
	"sync"

	"github.com/ptbatch/ptbatch/tune"
)

// BarrierProfile is a Statistic: per replicate, the estimated cumulative
// barrier Λ(t) = ∫_0^t λ and local barrier λ(t) (thm:general_GCB) of the
// last completed scan's path, on a fixed grid of Points equally spaced
// t in [0, 1], by tune.BarrierProfile from that scan's schedule and mean
// rejections r_n: the monotone interpolant the schedule update
// (eq:equicrit) builds from them. The schedule is the one the scan sampled
// with (View.Schedule), not the one tuned after it (Result.Schedules), so
// that schedule and rejections match; Λ(1) is the scan's barrier Σ_n r_n
// (ScanStats.Barrier). With AutoTuning, once a replicate's tuner has
// stopped (View.Frozen) its rejections are pooled over every scan since,
// all of which ran on the final path and schedule, and Λ(1) is the mean of
// those scans' barriers. In a run with two legs (Config.VariationalLeg)
// the profile is leg 1's, chains 0 … C1−1 (Schedules and Rejections too).
// It does nothing during iterations; at a scan's end it keeps each
// replicate's schedule and rejections, and the profiles' interpolants are
// computed when the profiles are read (Cumulative, Local, Record, a
// checkpoint): from the same schedule and rejections, so with the same
// bits as at the scan's end, once per reading rather than once per scan.
// A BarrierProfile observes one run.
type BarrierProfile struct {
	// Points is the number of grid points t_i = i/(Points-1); 0 means
	// 100. A value of 1 counts as 2 (the grid {0, 1}).
	Points int

	mu        sync.Mutex
	observers []*profileObserver
	scan      int
	grid      []float64
	cum, loc  [][]float64
	sched     [][]float64
	rej       [][]float64
	// stale reports that cum and loc are not yet the profiles of sched
	// and rej (profiles computes them).
	stale bool
}

// NewObserver returns the profile of one block.
func (s *BarrierProfile) NewObserver(info BlockInfo) Observer {
	points := s.Points
	if points == 0 {
		points = 100
	}
	o := &profileObserver{info: info, grid: tune.UniformSchedule(max(2, points))}
	// Every lane's arrays from one slab, whose memory is written when it
	// is allocated (layout.Float64s): their pages are mapped when the
	// block is built, not at the first end of a scan, which writes them
	// first.
	c1, g := info.TargetChain()+1, len(o.grid)
	sl := newSlab(info.Replicates * (slabLen(c1) + 2*slabLen(c1-1) + 2*slabLen(g)))
	for j := 0; j < info.Replicates; j++ {
		o.sched[j], o.rej[j], o.rejSum[j] = sl.take(c1), sl.take(c1-1), sl.take(c1-1)
		o.cum[j], o.loc[j] = sl.take(g), sl.take(g)
	}
	s.mu.Lock()
	s.observers = append(s.observers, o)
	s.mu.Unlock()
	return o
}

// CollectScan takes every block's schedules and rejections of scan scan,
// in replicate order; the profiles are computed when they are read.
func (s *BarrierProfile) CollectScan(scan int) error {
	info := func(o *profileObserver) BlockInfo { return o.info }
	sortByReplicate(s.observers, info)
	r := numReplicates(s.observers, info)
	s.sched, s.rej = resizeRows(s.sched, r), resizeRows(s.rej, r)
	for _, o := range s.observers {
		s.grid = o.grid
		for j := 0; j < o.info.Replicates; j++ {
			b := o.info.FirstReplicate + j
			s.sched[b] = append(s.sched[b][:0], o.sched[j]...)
			s.rej[b] = append(s.rej[b][:0], o.rej[j]...)
		}
	}
	s.scan, s.stale = scan, true
	return nil
}

// resizeRows returns x with n rows, keeping the first min(n, len(x))
// rows' arrays for reuse.
func resizeRows(x [][]float64, n int) [][]float64 {
	if len(x) >= n {
		return x[:n]
	}
	return append(x, make([][]float64, n-len(x))...)
}

// profiles computes, when they are stale, every replicate's profiles from
// its schedule and rejections: tune.BarrierProfile of the same arrays as
// at the scan's end.
func (s *BarrierProfile) profiles() {
	if !s.stale {
		return
	}
	r := len(s.sched)
	s.cum, s.loc = resizeRows(s.cum, r), resizeRows(s.loc, r)
	for b := range s.sched {
		s.cum[b], s.loc[b] = resize(s.cum[b], len(s.grid)), resize(s.loc[b], len(s.grid))
		tune.BarrierProfile(s.cum[b], s.loc[b], s.grid, s.sched[b], s.rej[b])
	}
	s.stale = false
}

// resize returns x with length n, reallocated only when too short.
func resize(x []float64, n int) []float64 {
	if cap(x) < n {
		return make([]float64, n)
	}
	return x[:n]
}

// Scan returns the scan the profiles come from: the last completed one, or
// 0 before the first.
func (s *BarrierProfile) Scan() int { return s.scan }

// Grid returns the points t_i of the profiles.
func (s *BarrierProfile) Grid() []float64 { return append([]float64(nil), s.grid...) }

// Cumulative returns, per run-relative replicate and grid point, the
// cumulative barrier Λ(t_i). Call it between Engine.Steps or after the run.
func (s *BarrierProfile) Cumulative() [][]float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.profiles()
	return clone2(s.cum)
}

// Local returns, per replicate and grid point, the local barrier λ(t_i).
func (s *BarrierProfile) Local() [][]float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.profiles()
	return clone2(s.loc)
}

// Schedules returns, per replicate, the schedule the scan sampled with.
func (s *BarrierProfile) Schedules() [][]float64 { return clone2(s.sched) }

// Rejections returns, per replicate and pair, the scan's mean rejection r_n
// (as Result.Rejections after that scan).
func (s *BarrierProfile) Rejections() [][]float64 { return clone2(s.rej) }

func clone2(x [][]float64) [][]float64 {
	out := make([][]float64, len(x))
	for i, v := range x {
		out[i] = append([]float64(nil), v...)
	}
	return out
}

// profileObserver keeps one block's schedules and rejections at every
// scan's end.
type profileObserver struct {
	info       BlockInfo
	grid       []float64
	sched, rej [lanes][]float64
	// cum and loc hold the lanes' profiles for the observer's checkpoint,
	// computed when it is written (stale: not yet for the lane's last
	// scan).
	cum, loc [lanes][]float64
	stale    [lanes]bool
	// The rejection sums and iterations pooled over the scans since the
	// lane's path and schedule were last changed (one scan, unless frozen).
	rejSum [lanes][]float64
	iters  [lanes]int
}

// Iterate does nothing.
func (o *profileObserver) Iterate(*View) {}

// EndScan keeps every replicate's schedule and the scan's rejections,
// pooled with the earlier scans' while the replicate's path and schedule
// are frozen: the points of its profile.
func (o *profileObserver) EndScan(v *View) {
	for j := 0; j < o.info.Replicates; j++ {
		copy(o.sched[j], v.Schedule(j))
		o.iters[j] += v.Step
		inv := 1 / float64(o.iters[j])
		for n := range o.rej[j] {
			o.rejSum[j][n] += v.RejectionSum(n, j)
			o.rej[j][n] = o.rejSum[j][n] * inv
		}
		o.stale[j] = true
		if !v.Frozen(j) {
			clear(o.rejSum[j])
			o.iters[j] = 0
		}
	}
}
