package batch

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ptbatch/ptbatch/layout"
)

// Engine is a run of alg:NRPT with the tuning of alg:PT_tuning for
// Config.Replicates replicates, held as a value: New builds its state, Step
// advances it by one scan, Result reports it. Its state is in named parts
// per block of layout.Lanes replicates (see block): the model's states,
// the random streams, the index process and swaps, round trips, the scan's
// accumulators, and each replicate's tuner.
//
// An Engine is not safe for concurrent use; Step runs the blocks on
// Config.Workers goroutines of its own.
type Engine struct {
	cfg     Config
	perScan int
	blocks  []*block
	ranges  [][2]int // blocks [lo, hi) of each worker
	cpus    []int    // CPUs to pin worker w to: cpus[w%len(cpus)]
	scans   int      // scans completed
	start   time.Time
	elapsed time.Duration // time spent in New and Step
	failed  error         // a worker's panic, after which the engine refuses to go on
	// packed, for an engine of several runs' replicates packed into
	// shared blocks (Packed), holds the runs' configurations (cfg is the
	// first's); nil for an engine of one run.
	packed []Config
}

// statistics returns the statistics of the engine's run, or of its
// packed runs in order.
func (e *Engine) statistics() []Statistic {
	if e.packed == nil {
		return e.cfg.Statistics
	}
	var all []Statistic
	for i := range e.packed {
		all = append(all, e.packed[i].Statistics...)
	}
	return all
}

// Progress is reported after every scan.
type Progress struct {
	Scan, Scans int
	Elapsed     time.Duration
}

// New validates cfg and builds a run's initial state: every block's model
// states, streams and tuning state, built by the workers. With Config.Pin
// each block is allocated by the worker that will own it, pinned to its
// CPU, so that its memory is local to that CPU's NUMA node; without, the
// workers take the blocks in turn as they start, so that a worker whose
// thread starts late (an idle CPU's thread wakes in tens of microseconds,
// as long as building a block or two) builds fewer of them. A block's
// state depends only on its index, whichever worker builds it.
//
// Before anything is allocated (before Validate lists the model's
// observables), New refuses a run that cannot fit: ErrMemoryOverflow when
// its size does not fit in 64 bits, and a *MemoryError (errors.Is
// ErrNotEnoughMemory) when EstimateMemory exceeds AvailableMemory, rather
// than the runtime's fatal out-of-memory error.
func New(cfg Config) (*Engine, error) {
	if err := checkFits(&cfg); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Knots = max(cfg.Knots, 1)
	e := &Engine{cfg: cfg, perScan: cfg.Iterations / cfg.Scans, start: time.Now()}
	shape := layout.Shape{Replicates: cfg.Replicates, Chains: cfg.Chains, Dim: 1}
	e.setWorkers(shape.Blocks())
	err := e.buildBlocks()
	e.elapsed = time.Since(e.start)
	return e, err
}

// buildBlocks builds every block on the workers, as New says: with
// Config.Pin each worker its own range, otherwise the blocks in turn as
// the workers claim them. A panic (user code in a model) is that of the
// lowest block that fails, whichever worker built it and however the
// workers' starts fell: blocks are claimed in order and a worker stops
// only at a failure, so every block below the lowest failing one is
// built and that one is always tried.
func (e *Engine) buildBlocks() error {
	// The buffers of the ends of scans, one set per worker (scanScratch).
	scratch := make([]*scanScratch, len(e.blocks))
	for _, r := range e.ranges {
		if r[0] < r[1] {
			sc := newScanScratch(&e.cfg, false)
			for i := r[0]; i < r[1]; i++ {
				scratch[i] = sc
			}
		}
	}
	if e.cfg.Pin {
		return e.parallel(func(lo, hi int) {
			for i := lo; i < hi; i++ {
				e.blocks[i] = newSharingBlock(&e.cfg, i*layout.Lanes, e.perScan, scratch[i])
			}
		})
	}
	var next atomic.Int64 // the next block to claim
	panics := make([]any, len(e.blocks))
	build := func(i int) {
		defer func() { panics[i] = recover() }()
		e.blocks[i] = newSharingBlock(&e.cfg, i*layout.Lanes, e.perScan, scratch[i])
	}
	err := e.parallel(func(int, int) {
		for i := int(next.Add(1) - 1); i < len(e.blocks); i = int(next.Add(1) - 1) {
			if build(i); panics[i] != nil {
				return
			}
		}
	})
	for _, p := range panics {
		if p != nil {
			e.failed = modelPanic(p)
			return e.failed
		}
	}
	return err
}

// parallel runs f on every worker's range of blocks, each on a goroutine
// of its own (pinned when the configuration asks), and waits for all. A
// panic in a worker (user code in a model: a *models.CallError, or any
// other) is recovered and returned as an error; the blocks are then in an
// unknown state, so the engine keeps the error and refuses every later
// call.
func (e *Engine) parallel(f func(lo, hi int)) error {
	if e.failed != nil {
		return e.failed
	}
	var wg sync.WaitGroup
	errs := make([]error, len(e.ranges))
	panics := make([]error, len(e.ranges))
	for w, r := range e.ranges {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[w] = modelPanic(recover()) }()
			if len(e.cpus) > 0 {
				// The goroutine exits locked to its thread, so the thread
				// and its affinity end with it.
				if errs[w] = pinThread(e.cpus[w%len(e.cpus)]); errs[w] != nil {
					return
				}
			}
			f(r[0], r[1])
		}()
	}
	wg.Wait()
	for _, err := range panics {
		if err != nil {
			e.failed = err
			return err
		}
	}
	for _, err := range errs {
		if err != nil {
			return fmt.Errorf("pinning workers: %w", err)
		}
	}
	return nil
}

// Config returns the run's configuration.
func (e *Engine) Config() Config { return e.cfg }

// Scans returns the number of scans completed.
func (e *Engine) Scans() int { return e.scans }

// Done reports whether every configured scan has run.
func (e *Engine) Done() bool { return e.scans == e.cfg.Scans }

// Step runs the next scan on every block — Iterations/Scans iterations,
// then the scan's statistics and the tuning of alg:PT_tuning — and then
// lets every ScanCollector collect it. It returns an error if the run is
// done or a collector fails.
//
// When ctx is cancelled during the scan, every block stops within one
// iteration and Step returns ctx's error: the scan is not completed, and
// the engine keeps each block's place in it, so that a later Step goes on
// where this one stopped and the run's results are the same as if it had
// not been interrupted.
func (e *Engine) Step(ctx context.Context) error {
	if e.Done() {
		return fmt.Errorf("batch: all %d scans have run", e.cfg.Scans)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	t0 := time.Now()
	s := e.scans + 1
	done := ctx.Done()
	err := e.parallel(func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if !e.blocks[i].runScan(&e.cfg, s, e.perScan, done) {
				return
			}
		}
	})
	e.elapsed += time.Since(t0)
	if err != nil {
		return err
	}
	for _, b := range e.blocks {
		if b.scans < s {
			return ctx.Err()
		}
	}
	e.scans = s
	for _, st := range e.statistics() {
		if c, ok := st.(ScanCollector); ok {
			if err := c.CollectScan(s); err != nil {
				return err
			}
		}
	}
	return nil
}

// runScan runs scan s of iters iterations on one block, from where it
// stopped if an earlier call was interrupted, and closes it. It returns
// false, leaving the scan open, when done is closed before the scan's end:
// it checks before every iteration (a non-blocking receive, a few
// nanoseconds against microseconds per iteration). It times the
// iterations and the end-of-scan work (statistics, path step and schedule
// update) separately, for Result.TuningFraction.
func (b *block) runScan(cfg *Config, s, iters int, done <-chan struct{}) bool {
	if b.scans >= s {
		return true
	}
	m0 := (s - 1) * iters
	t0 := time.Now()
	for ; b.pos < iters; b.pos++ {
		select {
		case <-done:
			b.iterTime += time.Since(t0)
			return false
		default:
		}
		b.iterate(b.alg, s, m0+b.pos+1, b.pos)
	}
	t1 := time.Now()
	b.endScan(cfg, s, iters)
	b.iterTime += t1.Sub(t0)
	b.tuneTime += time.Since(t1)
	b.scans, b.pos = s, 0
	return true
}

// Run builds an engine for cfg and runs it to its end: Scans scans of
// Iterations/Scans iterations each, with the tuning of alg:PT_tuning after
// every scan as the configuration asks. When ctx is cancelled the run stops
// within one iteration and returns the results of the scans completed,
// with Interrupted set. progress, if not nil, is called after every scan.
func Run(ctx context.Context, cfg Config, progress func(Progress)) (*Result, error) {
	e, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if err := e.runScans(ctx, progress); err != nil {
		return nil, err
	}
	return e.Result(), nil
}

// setWorkers makes room for nb blocks and gives each worker its range of
// them, and each its CPU when the configuration pins workers.
func (e *Engine) setWorkers(nb int) {
	nw := e.cfg.workers(nb)
	e.blocks = make([]*block, nb)
	for w := 0; w < nw; w++ {
		e.ranges = append(e.ranges, [2]int{w * nb / nw, (w + 1) * nb / nw})
	}
	if e.cfg.Pin {
		e.cpus = pinOrder()
	}
}

// runScans steps the engine to its end, calling progress (if not nil)
// after every scan. It returns nil when ctx is cancelled, leaving the run
// where the cancellation stopped it, and a step's error otherwise.
func (e *Engine) runScans(ctx context.Context, progress func(Progress)) error {
	for !e.Done() && ctx.Err() == nil {
		if err := e.Step(ctx); err != nil {
			if ctx.Err() != nil {
				break
			}
			return err
		}
		if progress != nil {
			progress(Progress{Scan: e.scans, Scans: e.cfg.Scans, Elapsed: time.Since(e.start)})
		}
	}
	return nil
}
