// Command explorers measures the effective sample size per second of
// every built-in explorer, side by side in one run, on two targets with
// the reference N(0, I):
//
//   - gauss50: a 50-dimensional Gaussian with AR(1) correlation,
//     Σ_ij = 0.9^|i−j| (unit variances; its precision is tridiagonal);
//   - funnel: Neal's funnel in 10 dimensions with scale 3 (models.NewFunnel).
//
// ESS is that of the first coordinate (x0; the funnel's v) over the kept
// half of the run, summed over replicates (batch.ESS); seconds are the
// process's CPU time (user + system) during the run, on one worker, so
// that other load on the machine counts less than in wall time. The
// first coordinate's pooled variance is printed beside (truth 1 and 9).
// The row automala-all is autoMALA with the paper's moves of every
// coordinate (models.AutoMALA.AllCoordinates), beside the default's moves
// of random subsets in half the moves.
//
//	go run ./benchmarks/explorers -iterations 4000
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"syscall"
	"time"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// rho is gauss50's AR(1) correlation.
const rho = 0.9

// gauss50 returns the 50-d AR(1) Gaussian of correlation rho with the
// reference N(0, I), with gradients: log π = −xᵀQx/2 with Q tridiagonal,
// Q_11 = Q_nn = 1/(1−ρ²), Q_ii = (1+ρ²)/(1−ρ²) inside, Q_{i,i±1} =
// −ρ/(1−ρ²).
func gauss50(ex models.Explorer) (models.Model, error) {
	const dim = 50
	c := 1 / (1 - rho*rho)
	qx := func(x []float64, i int) float64 {
		d := (1 + rho*rho) * x[i]
		if i == 0 || i == dim-1 {
			d = x[i]
		}
		if i > 0 {
			d -= rho * x[i-1]
		}
		if i < dim-1 {
			d -= rho * x[i+1]
		}
		return c * d
	}
	return models.FromFuncs(models.Funcs{
		Dim:          dim,
		LogReference: models.StdNormalLog, SampleReference: models.StdNormalDraw, GradLogReference: models.StdNormalGrad,
		LogTarget: func(x []float64) float64 {
			s := 0.0
			for i, v := range x {
				s -= v * qx(x, i) / 2
			}
			return s
		},
		GradLogTarget: func(x, g []float64) {
			for i := range x {
				g[i] = -qx(x, i)
			}
		},
	}, ex)
}

// cpuTime returns the process's user + system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measure runs m and returns the summed ESS of the first observable, the
// CPU seconds and the pooled variance of the first observable.
func measure(m models.Model, chains, replicates, iterations int, seed uint64) (ess, secs, variance float64, err error) {
	es := &batch.ESS{Observables: 1}
	mom := new(batch.TargetMoments)
	cfg := batch.Config{Model: m, Chains: chains, Replicates: replicates, Iterations: iterations,
		Scans: max(batch.AutoScans(iterations), 1), Tuning: batch.AutoTuning, TuneSchedule: true, Knots: 4, TunePath: true,
		Seed: seed, Workers: 1, Statistics: []batch.Statistic{es, mom}}
	runtime.GC()
	t0 := cpuTime()
	if _, err = batch.Run(context.Background(), cfg, nil); err != nil {
		return
	}
	secs = (cpuTime() - t0).Seconds()
	for _, v := range es.Values() {
		ess += v[0]
	}
	mean, sq := 0.0, 0.0
	means, vars := mom.Means(), mom.Vars()
	for b := range means {
		mean += means[b][0]
		sq += vars[b][0] + means[b][0]*means[b][0]
	}
	n := float64(len(means))
	return ess, secs, sq/n - (mean/n)*(mean/n), nil
}

func main() {
	iterations := flag.Int("iterations", 4000, "iterations per run")
	replicates := flag.Int("replicates", 8, "replicates per run")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	exs := []struct {
		name string
		ex   models.Explorer
	}{{"rwm", models.RandomWalk{}}, {"slice", models.SliceSampler{}}, {"mala", models.MALA{}},
		{"automala", models.AutoMALA{}}, {"automala-all", models.AutoMALA{AllCoordinates: true}},
		{"hmc", models.HMC{}}, {"autohmc", models.HMC{Auto: true}}}
	targets := []struct {
		name   string
		chains int
		build  func(models.Explorer) (models.Model, error)
	}{
		{"gauss50", 10, gauss50},
		{"funnel", 20, func(ex models.Explorer) (models.Model, error) { return models.NewFunnel(10, 3, ex) }},
	}
	fmt.Printf("| target | explorer | ESS (x0 / v, %d replicates) | CPU s | ESS/s | Var (x0 / v) |\n|---|---|---|---|---|---|\n", *replicates)
	for _, tg := range targets {
		for _, e := range exs {
			m, err := tg.build(e.ex)
			if err == nil {
				var ess, secs, v float64
				if ess, secs, v, err = measure(m, tg.chains, *replicates, *iterations, *seed); err == nil {
					fmt.Printf("| %s | %s | %.0f | %.1f | %.1f | %.3f |\n", tg.name, e.name, ess, secs, ess/math.Max(secs, 1e-9), v)
					continue
				}
			}
			fmt.Fprintln(os.Stderr, "explorers:", err)
			os.Exit(1)
		}
	}
}
