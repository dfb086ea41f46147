package batch

import (
	"math"

	"github.com/ptbatch/ptbatch/tune"
)

// tuner is the per-replicate tuning state of alg:PT_tuning for the lanes of
// a block: each lane's schedule and spline path (whose Adagrad
// accumulators live in the Spline), and the scratch of the gradient.
type tuner struct {
	sched  [lanes][]float64
	path   [lanes]*tune.Spline
	work   [lanes]*tune.SKLWorkspace
	grad   []float64
	matrix []float64 // one replicate's recorded energies, M × 2C
	mean   []float64 // one replicate's E_n[W_i] at 2n+i
	cov    []float64 // … and Cov_n(W) at 3n, 3n+1, 3n+2

	// With AutoTuning: each lane's automatic tuner and the scan's
	// statistics handed to it (one lane at a time).
	auto [lanes]*tune.Auto
	scan tune.AutoScan
}

func newTuner(cfg *Config, recordRows int) tuner {
	c := cfg.Chains
	var t tuner
	for j := 0; j < lanes; j++ {
		t.sched[j] = tune.UniformSchedule(c)
		t.path[j] = tune.NewSpline(cfg.Knots)
	}
	if cfg.Tuning == AutoTuning {
		t.auto, t.scan = newAutoTuners(cfg, recordRows)
		return t
	}
	if cfg.TunePath {
		if cfg.Gradient == FullGradient {
			t.matrix = make([]float64, recordRows*2*c)
		} else {
			t.mean = make([]float64, 2*c)
			t.cov = make([]float64, 3*c)
		}
		t.grad = make([]float64, 2*(cfg.Knots-1))
		for j := range t.work {
			t.work[j] = new(tune.SKLWorkspace)
		}
	}
	return t
}

// pathStep computes lane j's SKL gradient from the scan's energies and
// steps its spline.
//
// The block form (the default) uses the moments of each chain accumulated
// during the scan; the full form the recorded energies, whose cross-chain
// covariances have zero expectation under the product target but add
// variance (tune.SKLWorkspace.Gradient).
func (t *tuner) pathStep(cfg *Config, e *energyMoments, j, iters int) {
	if cfg.Gradient != FullGradient {
		t.momentPathStep(cfg, e, j, iters)
		return
	}
	cols := 2 * len(t.sched[j])
	mat := t.matrix[:iters*cols]
	for m := 0; m < iters; m++ {
		for col := 0; col < cols; col++ {
			mat[m*cols+col] = e.record[(m*cols+col)*lanes+j]
		}
	}
	t.work[j].Gradient(t.grad, mat, iters, t.sched[j], t.path[j], true)
	for _, g := range t.grad {
		if math.IsNaN(g) || math.IsInf(g, 0) {
			return // no step on a non-finite gradient; the scan's statistics show why
		}
	}
	t.path[j].Step(t.grad, cfg.LearningRate)
}

// momentPathStep is pathStep's block form: the sample means and
// covariances (divisor M-1) of each chain's energies over the scan, from
// the shifted sums.
func (t *tuner) momentPathStep(cfg *Config, e *energyMoments, j, iters int) {
	if iters < 2 {
		return
	}
	// Multiplications by 1/M and 1/(M-1), not divisions: the divider,
	// five times per chain, was a tenth of the scan's end.
	inv, inv1 := 1/float64(iters), 1/float64(iters-1)
	for n := range t.sched[j] {
		i := n*lanes + j
		s0, s1 := e.sum0[i], e.sum1[i]
		f0, f1 := s0*inv, s1*inv
		t.mean[2*n] = e.shift0[i] + f0
		t.mean[2*n+1] = e.shift1[i] + f1
		t.cov[3*n] = (e.sq00[i] - s0*f0) * inv1
		t.cov[3*n+1] = (e.sq01[i] - s0*f1) * inv1
		t.cov[3*n+2] = (e.sq11[i] - s1*f1) * inv1
	}
	t.work[j].MomentGradient(t.grad, t.mean, t.cov, t.sched[j], t.path[j])
	t.path[j].Step(t.grad, cfg.LearningRate)
}
