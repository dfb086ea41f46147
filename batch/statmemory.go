package batch

import (
	"math"
	"unsafe"
)

// MemoryShape is what a MemoryEstimator sizes itself by: the run's shape
// as EstimateMemory sees it, before any allocation.
type MemoryShape struct {
	// Replicates is the run's (a shard's) replicates, and Blocks the
	// blocks of layout.Lanes of them that hold them (the last padded).
	Replicates, Blocks int
	// Lanes is layout.Lanes, the replicates of a block.
	Lanes int
	// Chains and Observables are the run's chains and its model's
	// observables.
	Chains, Observables int
	// Scans, KeepScans (Config.KeepScansInEffect) and PerScan (the
	// iterations of a scan) are the run's.
	Scans, KeepScans, PerScan int
}

// MemoryEstimator is a Statistic that says how many bytes it allocates in
// a run of a given shape (its observers, and what it collects and hands
// out), so that EstimateMemory, and with it New's refusal of a run that
// cannot fit, counts it, as Pigeons' recorders each know their own size.
// Every Statistic of this package is one; EstimateMemory counts a
// Statistic that is not as nothing. EstimateStatistic returns
// ErrMemoryOverflow when the size does not fit in an int64.
type MemoryEstimator interface {
	Statistic
	EstimateStatistic(s MemoryShape) (int64, error)
}

// shapeOf returns the MemoryShape of cfg (already checked by
// EstimateMemory: at least 1 scan).
func shapeOf(cfg *Config, obs int) MemoryShape {
	return MemoryShape{Replicates: cfg.Replicates, Blocks: (cfg.Replicates + lanes - 1) / lanes, Lanes: lanes,
		Chains: cfg.Chains, Observables: obs, Scans: cfg.Scans, KeepScans: cfg.KeepScansInEffect(), PerScan: cfg.Iterations / cfg.Scans}
}

// bytesOf adds up products of factors, each at least 0 (memCount).
func bytesOf(terms ...[]int) (int64, error) {
	var m memCount
	for _, t := range terms {
		m.add(t...)
	}
	return m.result()
}

// kept returns the leading observables of the model that a statistic
// of setting k follows (0: all of them) and the iterations of the kept
// scans; ok is false when they overflow an int.
func (s MemoryShape) kept(k int) (obs, n int, ok bool) {
	obs = s.Observables
	if k > 0 {
		obs = min(obs, k)
	}
	n = s.PerScan * s.KeepScans
	return obs, n, s.KeepScans == 0 || n/s.KeepScans == s.PerScan
}

// EstimateStatistic counts each block's six sums per pair of chains and
// lane, and the estimates collected per replicate with their copies.
func (st *LogZ) EstimateStatistic(s MemoryShape) (int64, error) {
	return bytesOf([]int{s.Blocks, 6, s.Chains, s.Lanes, 8}, []int{4, s.Replicates, 8})
}

// EstimateStatistic counts each block's flag per chain and lane, and the
// counts collected per replicate with their copies.
func (st *Restarts) EstimateStatistic(s MemoryShape) (int64, error) {
	return bytesOf([]int{s.Blocks, s.Chains, s.Lanes}, []int{4, s.Replicates, 8})
}

// EstimateStatistic counts the batch means of each observable and lane
// (at most 4√(2n)+8 numbers for n kept iterations, append's slack
// included, and the struct's 16 bytes) and the values collected.
func (st *ESS) EstimateStatistic(s MemoryShape) (int64, error) {
	obs, n, ok := s.kept(st.Observables)
	if !ok {
		return 0, ErrMemoryOverflow
	}
	series := 4*int(math.Sqrt(2*float64(n))) + 8 + 16
	return bytesOf([]int{s.Blocks, obs, s.Lanes, series, 8}, []int{2, s.Replicates, obs, 8})
}

// EstimateStatistic counts the states kept per replicate and observable
// (at most 2·MaxDraws of every Thin-th, with append's slack). It does not
// count the scan's states that its Samples buffers before they are kept
// (a Samples' estimate, as large as samples.csv's buffer): a known
// under-count for runs of very long scans, which `ptbatch run` accepts
// today and a later change to Diagnostics (keeping states as they come)
// is to remove.
func (st *Diagnostics) EstimateStatistic(s MemoryShape) (int64, error) {
	obs, n, ok := s.kept(st.Observables)
	if !ok {
		return 0, ErrMemoryOverflow
	}
	draws := n/max(st.Thin, 1) + 1
	if st.MaxDraws > 0 {
		draws = min(draws, 2*st.MaxDraws)
	}
	return bytesOf([]int{2, s.Replicates, obs, draws, 8})
}

// EstimateStatistic counts the grid's profiles and the schedules and
// rejections per replicate: each block's, collected, and copied.
func (st *BarrierProfile) EstimateStatistic(s MemoryShape) (int64, error) {
	points := st.Points
	if points == 0 {
		points = 100
	}
	return bytesOf([]int{3, s.Replicates, 2*max(points, 2) + 2*s.Chains, 8})
}

// EstimateStatistic counts one scan's records per lane (the iterations of
// the window in a scan, every Thin-th, one chain per replica followed),
// with append's slack, and the positions of the chains.
func (st *IndexProcess) EstimateStatistic(s MemoryShape) (int64, error) {
	per := s.PerScan
	if st.Window > 0 {
		per = min(per, st.Window)
	}
	recs := per/max(st.Thin, 1) + 1
	k := len(st.Replicas)
	if st.Replicas == nil {
		k = s.Chains
	}
	return bytesOf([]int{s.Blocks, s.Lanes, 2, recs, 8 + 4*k}, []int{s.Blocks, 2, s.Chains, 8})
}

// EstimateStatistic counts the proposals and invalid ones per replicate
// and chain: each block's, collected, and copied.
func (st *Proposals) EstimateStatistic(s MemoryShape) (int64, error) {
	return bytesOf([]int{s.Blocks, s.Lanes, 2, s.Chains, 8}, []int{4, s.Replicates, s.Chains, 8})
}

// EstimateStatistic counts each block's observer: five moments per
// observable and lane, and its state.
func (st *TargetMoments) EstimateStatistic(s MemoryShape) (int64, error) {
	return bytesOf([]int{s.Blocks, int(unsafe.Sizeof(momentObserver{}))}, []int{s.Blocks, 5, s.Observables, s.Lanes, 8},
		[]int{s.Blocks, s.Observables, 8})
}

// EstimateStatistic counts each block's observer and one scan's kept
// states per lane, with room for append's growth (a quarter for large
// slices).
func (st *Samples) EstimateStatistic(s MemoryShape) (int64, error) {
	kept := s.PerScan/max(st.Thin, 1) + 1
	return bytesOf([]int{s.Blocks, int(unsafe.Sizeof(sampleObserver{}))}, []int{s.Blocks, s.Observables, 8},
		[]int{s.Blocks, s.Lanes, kept, s.Observables + 1, 10})
}
