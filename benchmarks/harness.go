package benchmarks

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
	"github.com/ptbatch/ptbatch/models"
)

// Workload is what `ptbatch bench` times.
type Workload struct {
	Dim, Chains, Replicates, Iterations int
	Sigma                               float64
	Workers                             int
	Repeats                             int
	Seed                                uint64
}

// DefaultWorkload is the high-dimensional Gaussian of the paper's Figure 5
// at d = 256: ⌈15√d⌉ = 240 chains, σ = 0.1, 64 replicates.
func DefaultWorkload() Workload {
	return Workload{Dim: 256, Chains: 240, Replicates: 64, Iterations: 50, Sigma: 0.1, Workers: runtime.NumCPU(), Repeats: 5, Seed: 1}
}

// Elements is the number of replicate × chain × coordinate steps of one
// timed run.
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

// Run times the engine, the scalar engine and the roofline, interleaved,
// Repeats times each, and reports medians.
func Run(ctx context.Context, w Workload) (*Report, error) {
	g, err := models.NewGaussian(w.Dim, -1, 1, w.Sigma, w.Sigma)
	if err != nil {
		return nil, err
	}
	cfg := batch.Config{Model: g, Chains: w.Chains, Replicates: w.Replicates, Iterations: w.Iterations, Scans: 1,
		Knots: 1, Seed: w.Seed, Workers: w.Workers}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	one := cfg
	one.Workers = 1
	tuned := cfg
	tuned.Scans, tuned.Iterations = 2, 2*tunedScanIterations
	tuned.TuneSchedule, tuned.TunePath, tuned.Knots, tuned.LearningRate = true, true, 4, 0.2
	rep := &Report{Workload: w, CPU: cpuModel(), GoVersion: runtime.Version(), KernelImpl: kernel.Impl(),
		TunedScans: tuned.Scans, TunedScanIterations: tunedScanIterations}
	elems := w.Elements()
	for i := 0; i < w.Repeats; i++ {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		res, err := batch.Run(ctx, cfg, nil)
		if err != nil {
			return nil, err
		}
		rep.EngineSamples = append(rep.EngineSamples, float64(res.Elapsed.Nanoseconds())/elems)

		if w.Workers > 1 {
			res, err := batch.Run(ctx, one, nil)
			if err != nil {
				return nil, err
			}
			rep.OneWorkerSamples = append(rep.OneWorkerSamples, float64(res.Elapsed.Nanoseconds())/elems)
		}

		res, err = batch.Run(ctx, tuned, nil)
		if err != nil {
			return nil, err
		}
		rep.TuningSamples = append(rep.TuningSamples, res.TuningFraction)

		t0 := time.Now()
		ScalarGaussian(w.Replicates, w.Chains, w.Dim, w.Iterations, -1, 1, w.Sigma, w.Seed)
		rep.ScalarSamples = append(rep.ScalarSamples, float64(time.Since(t0).Nanoseconds())/elems)

		t0 = time.Now()
		Roofline(w)
		rep.RooflineSamples = append(rep.RooflineSamples, float64(time.Since(t0).Nanoseconds())/elems)
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

// Roofline draws the normals and runs the energy FMA stream for the same
// number of elements as the engine, with the same worker count and no
// engine logic (no swaps, no bookkeeping, no permutations).
func Roofline(w Workload) {
	blocks := (w.Replicates + layout.Lanes - 1) / layout.Lanes
	workers := w.Workers
	if workers > blocks {
		workers = blocks
	}
	done := make(chan struct{})
	for k := 0; k < workers; k++ {
		go func(k int) {
			defer func() { done <- struct{}{} }()
			lo, hi := k*blocks/workers, (k+1)*blocks/workers
			z := layout.Float64s(w.Dim * layout.Lanes)
			m := layout.Float64s(layout.Lanes)
			s := layout.Float64s(layout.Lanes)
			w0 := layout.Float64s(layout.Lanes)
			w1 := layout.Float64s(layout.Lanes)
			first := layout.Float64s(layout.Lanes)
			for i := range s {
				s[i] = w.Sigma
			}
			for b := lo; b < hi; b++ {
				rng := kernel.NewStream(w.Seed, b*layout.Lanes)
				for it := 0; it < w.Iterations; it++ {
					for c := 0; c < w.Chains; c++ {
						rng.Normal(z)
						kernel.GaussEnergy(w0, w1, first, m, s, z, w.Dim, -1, 1, 50, 50)
					}
				}
			}
		}(k)
	}
	for k := 0; k < workers; k++ {
		<-done
	}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n == 0 {
		return 0
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
