package benchmarks

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/models"
)

// Workload is what `ptbatch bench` times.
type Workload struct {
	// Model is the model timed (see ModelNames); "" is the Gaussian.
	// Dim and Sigma apply to the Gaussian only; the other models' Dim is
	// 1, so that an element is one replicate × chain step.
	Model                               string
	Dim, Chains, Replicates, Iterations int
	Sigma                               float64
	Workers                             int // worker goroutines; 0 means all CPUs
	Repeats                             int
	Seed                                uint64
}

// DefaultWorkload is the high-dimensional Gaussian of the paper's Figure 5
// at d = 256: ⌈15√d⌉ = 240 chains, σ = 0.1, 64 replicates, all CPUs.
func DefaultWorkload() Workload {
	return Workload{Model: Gaussian, Dim: 256, Chains: 240, Replicates: 64, Iterations: 50, Sigma: 0.1, Workers: 0, Repeats: 5, Seed: 1}
}

// Elements is the number of replicate × chain × coordinate steps of one
// timed run (replicate × chain steps for the models other than the
// Gaussian, whose Dim is 1).
func (w Workload) Elements() float64 {
	return float64(w.Replicates) * float64(w.Chains) * float64(w.Dim) * float64(w.Iterations)
}

// Report is the outcome: medians over the repeats, in ns per element.
type Report struct {
	Workload        Workload
	CPU             string
	GoVersion       string
	KernelImpl      string
	EngineNs        float64
	ScalarNs        float64
	RooflineNs      float64
	EngineSamples   []float64
	ScalarSamples   []float64
	RooflineSamples []float64

	// OneWorkerNs is the engine's median ns per element with one worker,
	// timed interleaved with the others when Workload.Workers > 1 (else
	// equal to EngineNs).
	OneWorkerNs      float64
	OneWorkerSamples []float64

	// TuningFraction is the median share of the engine's time spent at the
	// ends of scans (statistics, schedule update and K=4 path gradient
	// step) in a tuned run of TunedScans scans of TunedScanIterations
	// iterations, the high-dimensional experiment's scan length.
	TuningFraction      float64
	TuningSamples       []float64
	TunedScans          int
	TunedScanIterations int

	// Interrupted reports that the context was done before every repeat
	// ran; the medians are over the repeats completed.
	Interrupted bool
}

// WorkerSpeedup is OneWorkerNs / EngineNs: how much faster the engine runs
// with Workload.Workers workers than with one.
func (r *Report) WorkerSpeedup() float64 { return r.OneWorkerNs / r.EngineNs }

// EngineNsPerCore is EngineNs × Workers: the cost of one element on one
// core.
func (r *Report) EngineNsPerCore() float64 { return r.EngineNs * float64(r.Workload.Workers) }

// SpeedupVsScalar is ScalarNs / EngineNs.
func (r *Report) SpeedupVsScalar() float64 { return r.ScalarNs / r.EngineNs }

// FractionOfRoofline is RooflineNs / EngineNs (1 means the engine runs at
// the speed of its arithmetic alone).
func (r *Report) FractionOfRoofline() float64 { return r.RooflineNs / r.EngineNs }

// ChainStepsPerSecond is the engine's replicates × chains × iterations per
// second.
func (r *Report) ChainStepsPerSecond() float64 {
	return 1e9 / (r.EngineNs * float64(r.Workload.Dim))
}

// tunedScanIterations is the scan length of the tuned run: the paper's
// high-dimensional experiment runs 50,000 iterations in 500 scans.
const tunedScanIterations = 100

// Configs returns the engine configurations Run times: the workload with
// its workers, with one worker, and the tuned run of TunedScans scans
// (schedule and K = 4 path) that measures the tuning fraction. A caller
// can estimate their memory (batch.EstimateMemory) before running them.
func (w Workload) Configs() (engine, oneWorker, tuned batch.Config, err error) {
	g, err := w.NewModel()
	if err != nil {
		return engine, oneWorker, tuned, err
	}
	engine = batch.Config{Model: g, Chains: w.Chains, Replicates: w.Replicates, Iterations: w.Iterations, Scans: 1,
		Knots: 1, Seed: w.Seed, Workers: w.Workers}
	oneWorker = engine
	oneWorker.Workers = 1
	tuned = engine
	tuned.Scans, tuned.Iterations = 2, 2*tunedScanIterations
	tuned.TuneSchedule, tuned.TunePath, tuned.Knots, tuned.LearningRate = true, true, 4, 0.2
	return engine, oneWorker, tuned, nil
}

// Run times the engine, the scalar engine and the roofline, interleaved,
// Repeats times each, and reports medians. Workers 0 means all CPUs. Each
// repeat runs the engine once untimed before its timed runs.
//
// When ctx is done Run stops within milliseconds (the engine's runs, the
// scalar engine and the roofline all check it) and returns the medians of
// the repeats completed so far with Interrupted set, and a nil error; a
// report with no completed repeat has NaN medians.
func Run(ctx context.Context, w Workload) (*Report, error) {
	return RunWithProgress(ctx, w, nil)
}

// RunWithProgress is Run calling progress, when not nil, once the
// workload's configurations are built and checked (done = 0) and after
// each repeat that completes (done = 1, 2, …, of = w.Repeats).
func RunWithProgress(ctx context.Context, w Workload, progress func(done, of int)) (*Report, error) {
	if progress == nil {
		progress = func(int, int) {}
	}
	if w.Workers == 0 {
		w.Workers = runtime.NumCPU()
	}
	cfg, one, tuned, err := w.Configs()
	if err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	rep := &Report{Workload: w, CPU: cpuModel(), GoVersion: runtime.Version(), KernelImpl: kernel.Impl(),
		TunedScans: tuned.Scans, TunedScanIterations: tunedScanIterations}
	elems := w.Elements()
	progress(0, w.Repeats)
	for i := 0; i < w.Repeats && !rep.Interrupted; i++ {
		if err := rep.repeat(ctx, w, cfg, one, tuned, elems); err != nil {
			if ctx.Err() == nil {
				return nil, err
			}
			rep.Interrupted = true
			break
		}
		progress(i+1, w.Repeats)
	}
	rep.EngineNs = median(rep.EngineSamples)
	rep.ScalarNs = median(rep.ScalarSamples)
	rep.RooflineNs = median(rep.RooflineSamples)
	rep.OneWorkerNs = rep.EngineNs
	if w.Workers > 1 {
		rep.OneWorkerNs = median(rep.OneWorkerSamples)
	}
	rep.TuningFraction = median(rep.TuningSamples)
	return rep, nil
}

// repeat times one repeat of the three (and the one-worker engine and the
// tuned run), after an untimed run of the engine, and appends its samples
// to the report; an interrupted repeat appends nothing and returns ctx's
// error.
func (rep *Report) repeat(ctx context.Context, w Workload, cfg, one, tuned batch.Config, elems float64) error {
	// Every timed section starts after a collection, as package testing's
	// benchmarks do, so that no section pays for the garbage of the one
	// before it (a collection takes a core from two workers for part of a
	// short run).
	timed := func(c batch.Config) (*batch.Result, error) {
		runtime.GC()
		res, err := batch.Run(ctx, c, nil)
		if err == nil && res.Interrupted {
			err = ctx.Err()
			if err == nil {
				err = context.Canceled
			}
		}
		return res, err
	}
	perElement := func(c batch.Config) (float64, error) {
		res, err := timed(c)
		if err != nil {
			return 0, err
		}
		return float64(res.Elapsed.Nanoseconds()) / elems, nil
	}
	// An untimed run of the engine first: the first run after the scalar
	// engine and the roofline finds the heap's pages returned to the
	// system (hundreds of page faults at d = 1) and the caches cold, a
	// cost of about 0.25 ms that fell on whichever of the two timed runs
	// came first (4 % of the 2-worker run at d = 1, 64 replicates:
	// benchmarks/results.md, "The order of the timed runs").
	if _, err := timed(cfg); err != nil {
		return err
	}
	engine, err := perElement(cfg)
	if err != nil {
		return err
	}
	oneWorker := math.NaN()
	if w.Workers > 1 {
		if oneWorker, err = perElement(one); err != nil {
			return err
		}
	}
	res, err := timed(tuned)
	if err != nil {
		return err
	}
	tuning := res.TuningFraction

	runtime.GC()
	t0 := time.Now()
	if err := runScalar(ctx, w, cfg.Model); err != nil {
		return err
	}
	scalar := float64(time.Since(t0).Nanoseconds()) / elems

	runtime.GC()
	t0 = time.Now()
	if w.isGaussian() {
		err = Roofline(ctx, w)
	} else {
		err = ModelRoofline(ctx, w, cfg.Model)
	}
	if err != nil {
		return err
	}
	roofline := float64(time.Since(t0).Nanoseconds()) / elems

	rep.EngineSamples = append(rep.EngineSamples, engine)
	if w.Workers > 1 {
		rep.OneWorkerSamples = append(rep.OneWorkerSamples, oneWorker)
	}
	rep.TuningSamples = append(rep.TuningSamples, tuning)
	rep.ScalarSamples = append(rep.ScalarSamples, scalar)
	rep.RooflineSamples = append(rep.RooflineSamples, roofline)
	return nil
}

// runScalar runs the workload's scalar engine: ScalarGaussian for the
// Gaussian, ScalarModel on the model's scalar reference for the others.
func runScalar(ctx context.Context, w Workload, m models.Model) error {
	if w.isGaussian() {
		_, err := ScalarGaussian(ctx, w.Replicates, w.Chains, w.Dim, w.Iterations, -1, 1, w.Sigma, w.Seed)
		return err
	}
	ref, ok := m.(models.Referenced)
	if !ok {
		return fmt.Errorf("benchmarks: model %s has no scalar reference", w.Model)
	}
	_, err := ScalarModel(ctx, ref.Scalar(), w.Replicates, w.Chains, w.Iterations, w.Seed)
	return err
}

// Roofline draws the normals and runs the energy FMA stream for the same
// number of elements as the engine, with the same worker count (0: all
// CPUs) and no engine logic (no swaps, no bookkeeping, no permutations).
// Like the Gaussian model's move, it draws the normals of up to
// models.GaussianChunkRows(Dim) chains per call, so that at small d the roofline
// pays no more calls than the engine. Its workers check ctx every
// checkElements elements or so and return ctx's error once it is done.
func Roofline(ctx context.Context, w Workload) error {
	const L = layout.Lanes
	blocks := (w.Replicates + L - 1) / L
	workers := w.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = min(workers, blocks)
	fill := min(models.GaussianChunkRows(w.Dim), w.Chains)
	every := checkEvery(fill, w.Dim)
	var wg sync.WaitGroup
	for k := 0; k < workers; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			lo, hi := k*blocks/workers, (k+1)*blocks/workers
			z := layout.Float64s(fill * w.Dim * L)
			m := layout.Float64s(fill * L)
			s := layout.Float64s(fill * L)
			w0 := layout.Float64s(fill * L)
			w1 := layout.Float64s(fill * L)
			first := layout.Float64s(fill * L)
			for i := range s {
				s[i] = w.Sigma
			}
			step := 0
			for b := lo; b < hi; b++ {
				rng := kernel.NewStream(w.Seed, b*L)
				for it := 0; it < w.Iterations; it++ {
					for c0 := 0; c0 < w.Chains; c0 += fill {
						if step++; step%every == 0 && ctx.Err() != nil {
							return
						}
						n := min(fill, w.Chains-c0)
						rng.Normal(z[:n*w.Dim*L])
						kernel.GaussEnergy(w0[:n*L], w1[:n*L], first[:n*L], m[:n*L], s[:n*L], z[:n*w.Dim*L], w.Dim, -1, 1, 50, 50)
					}
				}
			}
		}(k)
	}
	wg.Wait()
	return ctx.Err()
}

// median returns the median of xs, NaN when xs is empty.
func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// cpuModel reads the CPU's model name from /proc/cpuinfo.
func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	return fmt.Sprintf("unknown (%s/%s)", runtime.GOOS, runtime.GOARCH)
}
