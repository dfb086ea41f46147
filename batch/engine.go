package batch

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/ptbatch/ptbatch/layout"
)

// Progress is reported after every scan.
type Progress struct {
	Scan, Scans int
	Elapsed     time.Duration
}

// Run executes the configured run: Scans scans of Iterations/Scans
// iterations each, with the tuning of alg:PT_tuning after every scan as the
// configuration asks. When ctx is cancelled the run stops at the end of
// the current scan and returns the results so far with Interrupted set.
// progress, if not nil, is called from one goroutine after every scan.
func Run(ctx context.Context, cfg Config, progress func(Progress)) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Iterations%cfg.Scans != 0 {
		return nil, &ConfigError{"iterations", cfg.Iterations, fmt.Sprintf("must be a multiple of --scans (%d) so that scans are equal", cfg.Scans)}
	}
	perScan := cfg.Iterations / cfg.Scans
	shape := layout.Shape{Replicates: cfg.Replicates, Chains: cfg.Chains, Dim: 1}
	nb := shape.Blocks()
	nw := cfg.workers(nb)
	blocks := make([]*block, nb)

	start := time.Now()
	var cpus []int
	if cfg.Pin {
		cpus = pinOrder()
	}
	// Workers own disjoint ranges of blocks for the whole run; the
	// coordinator hands out one scan at a time so that every replicate
	// stops at the same scan when the run is interrupted.
	orders := make([]chan int, nw)
	var ready, step, exit sync.WaitGroup
	errs := make([]error, nw)
	for w := 0; w < nw; w++ {
		orders[w] = make(chan int)
		lo, hi := w*nb/nw, (w+1)*nb/nw
		cpu := -1
		if len(cpus) > 0 {
			cpu = cpus[w%len(cpus)]
		}
		ready.Add(1)
		exit.Add(1)
		go func(w int, ch chan int) {
			defer exit.Done()
			if cpu >= 0 {
				errs[w] = pinThread(cpu)
			}
			// First touch: each worker allocates its own blocks.
			for i := lo; i < hi; i++ {
				blocks[i] = newBlock(&cfg, i*layout.Lanes, perScan)
			}
			ready.Done()
			for s := range ch {
				for i := lo; i < hi; i++ {
					runScan(blocks[i], &cfg, s, perScan)
				}
				step.Done()
			}
		}(w, orders[w])
	}
	ready.Wait()
	stop := func() {
		for _, ch := range orders {
			close(ch)
		}
		exit.Wait()
	}
	for _, err := range errs {
		if err != nil {
			stop()
			return nil, fmt.Errorf("pinning workers: %w", err)
		}
	}

	scans := 0
	for s := 1; s <= cfg.Scans; s++ {
		if ctx.Err() != nil {
			break
		}
		step.Add(nw)
		for _, ch := range orders {
			ch <- s
		}
		step.Wait()
		scans = s
		if progress != nil {
			progress(Progress{Scan: s, Scans: cfg.Scans, Elapsed: time.Since(start)})
		}
	}
	stop()
	res := collect(&cfg, blocks, scans, perScan, time.Since(start))
	res.Interrupted = scans < cfg.Scans
	return res, nil
}

// runScan runs scan s of iters iterations on one block and closes it.
// It times the iterations and the end-of-scan work (statistics, path step
// and schedule update) separately, for Result.TuningFraction.
func runScan(b *block, cfg *Config, s, iters int) {
	m0 := (s - 1) * iters
	t0 := time.Now()
	for k := 0; k < iters; k++ {
		b.iterate(cfg.Algorithm, m0+k+1, k)
	}
	t1 := time.Now()
	b.endScan(cfg, s, iters)
	b.iterTime += t1.Sub(t0)
	b.tuneTime += time.Since(t1)
}

// Result holds what a run measured; per-replicate slices are indexed by
// replicate.
type Result struct {
	Config      Config
	Scans       int // scans completed
	Iterations  int // iterations completed
	Interrupted bool
	Elapsed     time.Duration

	RoundTrips           []int       // per replicate, whole run
	RoundTripRates       []float64   // per replicate, round trips per iteration in the last scan
	RoundTripRate        float64     // mean of RoundTripRates
	Rejection            []float64   // per pair, mean over replicates of the last scan's mean rejection
	Barrier              float64     // mean over replicates of Σ_n r_n in the last scan
	NonAsymptoticBarrier float64     // mean over replicates of Σ_n r_n/(1-r_n)
	TauPredicted         float64     // 1/(2+2·NonAsymptoticBarrier) (eq:nrpt_rtr)
	SKL                  float64     // mean over replicates of the last scan's SKL estimate
	TargetMean           float64     // mean over replicates of the target chain's first-coordinate mean
	TargetVar            float64     // … and variance, in the last scan
	Schedules            [][]float64 // per replicate, final schedule
	Knots                [][][2]float64
	History              [][]ScanStats // per replicate, one entry per scan

	// TuningFraction is the share of the workers' time spent at the ends
	// of scans (statistics, path gradient step and schedule update) rather
	// than in iterations.
	TuningFraction float64
}

// ChainStepsPerSecond is replicates × chains × iterations / elapsed.
func (r *Result) ChainStepsPerSecond() float64 {
	return float64(r.Config.Replicates) * float64(r.Config.Chains) * float64(r.Iterations) / r.Elapsed.Seconds()
}

func collect(cfg *Config, blocks []*block, scans, perScan int, elapsed time.Duration) *Result {
	R := cfg.Replicates
	res := &Result{
		Config:         *cfg,
		Scans:          scans,
		Iterations:     scans * perScan,
		Elapsed:        elapsed,
		RoundTrips:     make([]int, R),
		RoundTripRates: make([]float64, R),
		Rejection:      make([]float64, cfg.Chains-1),
		Schedules:      make([][]float64, R),
		Knots:          make([][][2]float64, R),
		History:        make([][]ScanStats, R),
	}
	if scans == 0 {
		nan := math.NaN()
		res.RoundTripRate, res.Barrier, res.NonAsymptoticBarrier, res.TauPredicted = nan, nan, nan, nan
		res.SKL, res.TargetMean, res.TargetVar = nan, nan, nan
	}
	for r := 0; r < R; r++ {
		b, j := blocks[r/lanes], r%lanes
		res.RoundTrips[r] = b.trips[j]
		res.Schedules[r] = append([]float64(nil), b.sched[j]...)
		res.Knots[r] = b.path[j].Knots()
		res.History[r] = b.hist[j]
		if scans == 0 {
			continue
		}
		last := &b.last[j]
		st := b.hist[j][scans-1]
		res.RoundTripRates[r] = last.tripsPerIteration
		res.RoundTripRate += last.tripsPerIteration / float64(R)
		for n, x := range last.rejection {
			res.Rejection[n] += x / float64(R)
		}
		res.Barrier += st.Barrier / float64(R)
		res.NonAsymptoticBarrier += st.NonAsymptoticBarrier / float64(R)
		res.SKL += st.SKL / float64(R)
		res.TargetMean += last.targetMean / float64(R)
		res.TargetVar += last.tVar / float64(R)
	}
	if scans > 0 {
		res.TauPredicted = 1 / (2 + 2*res.NonAsymptoticBarrier)
	}
	var iterTime, tuneTime time.Duration
	for _, b := range blocks {
		iterTime += b.iterTime
		tuneTime += b.tuneTime
	}
	if total := iterTime + tuneTime; total > 0 {
		res.TuningFraction = tuneTime.Seconds() / total.Seconds()
	}
	return res
}
