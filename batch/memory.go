package batch

import (
	"errors"
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/tune"
)

// ErrMemoryOverflow is returned by EstimateMemory when the size of a run
// does not fit in an int64: no machine can hold it.
var ErrMemoryOverflow = errors.New("batch: the run's memory does not fit in 64-bit sizes")

// ErrNotEnoughMemory is the error New returns (as a *MemoryError) for a
// run whose estimated memory exceeds AvailableMemory.
var ErrNotEnoughMemory = errors.New("batch: not enough memory for the run")

// MemoryError is New's refusal of a run that cannot fit: EstimateMemory
// says it needs Need bytes, more than the Limit that AvailableMemory
// reads from Source.
type MemoryError struct {
	Need, Limit int64
	Source      string
}

// Error says how much the run needs and how much there is.
func (e *MemoryError) Error() string {
	return fmt.Sprintf("batch: the run needs an estimated %d bytes (%.3g GiB), more than the %d bytes (%.3g GiB) of %s",
		e.Need, float64(e.Need)/(1<<30), e.Limit, float64(e.Limit)/(1<<30), e.Source)
}

// Is makes errors.Is(err, ErrNotEnoughMemory) true.
func (e *MemoryError) Is(target error) bool { return target == ErrNotEnoughMemory }

// CheckMemory returns a *MemoryError when need, an estimate of
// EstimateMemory (or a sum of them), exceeds limit, which comes from
// source (AvailableMemory's, or a limit of the caller's own); nil when it
// fits.
func CheckMemory(need, limit int64, source string) error {
	if need > limit {
		return &MemoryError{Need: need, Limit: limit, Source: source}
	}
	return nil
}

// checkFits refuses a run of cfg that EstimateMemory says cannot fit in
// AvailableMemory: ErrMemoryOverflow when its size does not fit in an
// int64, a *MemoryError when it exceeds the limit. A configuration error
// is left to Validate, which reports it whole.
func checkFits(cfg *Config) error {
	need, err := EstimateMemory(*cfg)
	switch {
	case errors.Is(err, ErrMemoryOverflow):
		return err
	case err != nil:
		return nil
	}
	limit, source := AvailableMemory()
	return CheckMemory(need, limit, source)
}

// EstimateMemory returns an estimate of the bytes a run of cfg allocates
// at its largest, without allocating it: for every block of layout.Lanes
// replicates (the last one padded) the communication state, the scan's
// energy moments (with Gradient = FullGradient and path tuning, the record
// of every iteration's energies of a scan and the gradient's copies of
// it), the tuners' schedules and splines, the round trips, the history of
// every scan's statistics, the model's states (models.Sizer; a model
// without it is counted as one float64 per observable, row and lane);
// every Statistic that is a MemoryEstimator (all of this package's); then
// the Result. It does not count
// the Go runtime's own overhead or what a caller does with the Result.
//
// It validates only what it needs (a model, at least 2 chains, 1 replicate
// and 1 scan, Iterations ≥ Scans, Knots ≥ 0), returning a *ConfigError,
// and never lists the model's observables when the model is a
// models.ObservableCounter, so it is safe to call on a configuration far
// too large to run: sizes that overflow give ErrMemoryOverflow.
func EstimateMemory(cfg Config) (int64, error) {
	bad := func(f string, v any, why string) error { return &ConfigError{f, v, why} }
	switch {
	case cfg.Model == nil:
		return 0, bad("Model", "<nil>", "no model")
	case cfg.Chains < 2:
		return 0, bad("Chains", cfg.Chains, "need at least 2 chains")
	case cfg.Replicates < 1:
		return 0, bad("Replicates", cfg.Replicates, "need at least 1 replicate")
	case cfg.Scans < 1:
		return 0, bad("Scans", cfg.Scans, "need at least 1 scan")
	case cfg.Iterations < cfg.Scans:
		return 0, bad("Iterations", cfg.Iterations, fmt.Sprintf("need at least one iteration per scan (Scans = %d)", cfg.Scans))
	case cfg.Knots < 0:
		return 0, bad("Knots", cfg.Knots, "must be 0 or 1 (the linear path) or more")
	}
	obs := models.NumObservables(cfg.Model)
	nb := (cfg.Replicates + lanes - 1) / lanes
	b, err := blockMemory(&cfg, obs)
	if err != nil {
		return 0, err
	}
	c, knots := cfg.Chains, max(cfg.Knots, 1)
	var total memCount
	total.addCount(&b, nb)
	// The statistics that say their size (MemoryEstimator).
	shape := shapeOf(&cfg, obs)
	for _, st := range cfg.Statistics {
		if m, ok := st.(MemoryEstimator); ok {
			n, err := m.EstimateStatistic(shape)
			if err != nil {
				return 0, ErrMemoryOverflow
			}
			total.addUint(uint64(n))
		}
	}
	total.add(nb, 8+16) // the blocks' pointers and the workers' ranges
	// The Result (and the Engine's copy of the history it is built from
	// is counted above): per replicate its round trips and rates, the
	// last rejections, the schedule, the knots and the history.
	r := cfg.Replicates
	total.add(r, 8+8+3*24)
	total.add(r, c-1, 8)
	total.add(r, c, 8)
	total.add(r, knots+1, 16)
	total.add(r, cfg.Scans, int(unsafe.Sizeof(ScanStats{})))
	total.add(c, 8) // the summary's rejections
	// The names of the observables: Validate, the Result and a caller each
	// hold a list; a name is a string header and a few bytes.
	total.add(3, obs, 16+24)
	return total.result()
}

// blockMemory counts the bytes of one block of a run of cfg (obs
// observables): the communication state, the scan's energy moments, the
// tuners, the round trips and history, and the model's states.
func blockMemory(cfg *Config, obs int) (memCount, error) {
	c := cfg.Chains
	knots := max(cfg.Knots, 1)
	perScan := cfg.Iterations / cfg.Scans
	exact := models.IsExact(cfg.Model)

	// One block.
	var b memCount
	b.add(int(unsafe.Sizeof(block{})))
	b.add(int(unsafe.Sizeof(kernel.Stream{})))
	// exchange: coefficients and energies by chain, replica and chain
	// indices, swap scratch, and by slot for a model that is not exact.
	byChain := 4
	if !exact {
		byChain += 4
	}
	for i := 0; i < byChain; i++ {
		b.float64s(c, lanes)
	}
	b.add(2, c, lanes, 4) // replica, chainOf
	b.float64s(c-1, lanes)
	b.float64s(c-1, lanes)
	b.float64s(c/2, lanes)
	b.float64s(lanes)
	// energyMoments.
	rows := 4 // shift0, shift1, sum0, sum1
	if (cfg.TunePath && cfg.Gradient != FullGradient) || cfg.Tuning == AutoTuning {
		rows += 3 // sq00, sq01, sq11
	}
	b.add(rows, c, lanes, 8)
	if cfg.TunePath && cfg.Gradient == FullGradient {
		// The record (every lane), the tuner's matrix (one lane at a time)
		// and the centred copy in each lane's SKL workspace.
		b.add(perScan, 2, c, lanes, 8)
		b.add(perScan, 2, c, 8)
		b.add(lanes, perScan, 2, c, 8)
		b.add(lanes, perScan, 8) // the workspaces' v
	}
	b.addTuner(cfg, c, knots)
	// Round trips, the last scan's rejections, and the history of every
	// scan's statistics.
	b.add(2, c, lanes)
	b.add(lanes, c-1, 8)
	b.add(lanes, cfg.Scans, int(unsafe.Sizeof(ScanStats{})))
	// The model's states.
	if s, ok := cfg.Model.(models.Sizer); ok {
		n, err := s.BlockBytes(c)
		if err != nil {
			return b, ErrMemoryOverflow
		}
		b.add(int(n))
	} else {
		b.add(c, lanes, obs, 8)
	}
	return b, nil
}

// addTuner counts a block's tuners: per lane a schedule, a spline (knots
// and Adagrad sums) and, when tuning the path, an SKL workspace; the
// gradient and moments.
func (b *memCount) addTuner(cfg *Config, c, knots int) {
	b.add(lanes, c, 8)
	// What endScan reports of each lane: rejections, schedule and knots.
	b.add(lanes, 2*c-1, 8)
	b.add(lanes, knots+1, 16)
	if cfg.TuneSchedule {
		// The schedule updater's buffers (tune.NewScheduleUpdater): 12
		// points per chain and 8 rows of the root finding, rounded up.
		b.add(20, c+8, 8)
	}
	b.add(lanes, int(unsafe.Sizeof(tune.Spline{})))
	b.add(lanes, knots+1, 16)
	b.add(lanes, 2, knots-1, 8)
	if cfg.Tuning == AutoTuning {
		// Each lane's tune.Auto: Rprop state, round moments and scratch.
		b.add(lanes, int(unsafe.Sizeof(tune.Auto{})))
		b.add(lanes, 5, knots-1, 8)
		b.add(lanes, 18, c, 8)
		b.add(7, c, 8) // the scan's moments handed to it
	}
	if cfg.TunePath {
		b.add(2, knots-1, 8)  // grad
		b.add(5, c, 8)        // mean, cov
		b.add(lanes, 8, c, 8) // each workspace's mean, eta, z, a
	}
}

// memCount adds up byte counts with overflow checks (layout.Mul, math/bits); after the
// first overflow it stays overflowed.
type memCount struct {
	n    uint64
	over bool
}

// add adds the product of the factors (layout.Mul: exact, or an
// overflow), each of which must be at least 0.
func (m *memCount) add(factors ...int) {
	p, err := layout.Mul(factors...)
	if err != nil {
		m.over = true
		return
	}
	m.addUint(uint64(p))
}

func (m *memCount) addUint(p uint64) {
	sum, carry := bits.Add64(m.n, p, 0)
	if carry != 0 || sum > 1<<63-1 {
		m.over = true
		return
	}
	m.n = sum
}

// addCount adds k times the count o.
func (m *memCount) addCount(o *memCount, k int) {
	if o.over || k < 0 {
		m.over = true
		return
	}
	hi, lo := bits.Mul64(o.n, uint64(k))
	if hi != 0 {
		m.over = true
		return
	}
	m.addUint(lo)
}

// float64s adds a layout.Float64s buffer of the product of the factors:
// its elements and the alignment padding.
func (m *memCount) float64s(factors ...int) {
	m.add(append(factors, 8)...)
	m.add(layout.Align)
}

func (m *memCount) result() (int64, error) {
	if m.over {
		return 0, ErrMemoryOverflow
	}
	return int64(m.n), nil
}
