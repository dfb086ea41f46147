package benchmarks

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Logistic is the model name of `ptbatch bench --model logistic`.
const Logistic = registry.Logistic

// LogisticWorkload is what `ptbatch bench --model logistic` times: the
// logistic regression on Rows observations simulated from Seed with
// Covariates covariates and an intercept (models.SimulateLogistic), prior
// N(0, 5² I), explored by MALA, on one worker.
type LogisticWorkload struct {
	Rows, Covariates               int
	Chains, Replicates, Iterations int
	Repeats                        int
	Seed                           uint64
	Explorer                       string // a registry.ExplorerNames name
	EvalStates                     int    // states per batched call in the evaluation timing
	PriorSD                        float64
}

// DefaultLogisticWorkload is the workload: n = 1000, d = 10 (plus
// the intercept), 50 chains, 64 replicates, MALA.
func DefaultLogisticWorkload() LogisticWorkload {
	return LogisticWorkload{Rows: 1000, Covariates: 10, Chains: 50, Replicates: 64, Iterations: 4, Repeats: 3, Seed: 1,
		Explorer: "mala", EvalStates: 64, PriorSD: 5}
}

// LogisticReport is the outcome of RunLogistic: medians over the repeats.
type LogisticReport struct {
	Workload   LogisticWorkload
	CPU        string
	GoVersion  string
	KernelImpl string
	// BatchNs, FuncsNs and ScalarNs are CPU ns (the process's user and
	// system time, so that other processes on the cores do not count) per
	// chain step (one replicate × chain × iteration) on one worker: the engine on the batched model
	// (models.NewLogistic), the engine on the same posterior through
	// FromFuncs (models.LogisticFuncs), and the plain scalar NRPT
	// (ScalarModel) around the FromFuncs model's scalar reference.
	BatchNs, FuncsNs, ScalarNs                float64
	BatchSamples, FuncsSamples, ScalarSamples []float64
	// EvalNs is the batched model's energies and gradients per state, in
	// calls of EvalStates states; DgemmNs is gonum's Dgemm alone computing
	// those calls' two products (X·B and Xᵀ·R) at the same shapes, and
	// DgemmGflops its rate.
	EvalNs, DgemmNs, DgemmGflops float64
}

// SpeedupVsFuncs is FuncsNs / BatchNs.
func (r *LogisticReport) SpeedupVsFuncs() float64 { return r.FuncsNs / r.BatchNs }

// SpeedupVsScalar is ScalarNs / BatchNs.
func (r *LogisticReport) SpeedupVsScalar() float64 { return r.ScalarNs / r.BatchNs }

// FractionOfDgemm is DgemmNs / EvalNs: the share of a batched evaluation
// that gonum's Dgemm alone would take at the same shapes (1 would be an
// evaluation at Dgemm's throughput).
func (r *LogisticReport) FractionOfDgemm() float64 { return r.DgemmNs / r.EvalNs }

// logisticModels returns the batched and the FromFuncs model of w.
func (w LogisticWorkload) logisticModels() (batched, funcs models.Model, d *models.LogisticData, err error) {
	if w.Rows < 1 || w.Covariates < 1 || w.Chains < 2 || w.Replicates < 1 || w.Iterations < 1 || w.Repeats < 1 || w.EvalStates < 1 {
		return nil, nil, nil, fmt.Errorf("benchmarks: logistic workload needs positive sizes and at least 2 chains: %+v", w)
	}
	ex, ok := registry.NewExplorer(w.Explorer)
	if !ok {
		return nil, nil, nil, fmt.Errorf("benchmarks: unknown explorer %q (want one of %v)", w.Explorer, registry.ExplorerNames)
	}
	d = models.SimulateLogistic(w.Rows, w.Covariates, w.Seed)
	if batched, err = models.NewLogistic(d, w.PriorSD, ex); err != nil {
		return nil, nil, nil, err
	}
	funcs, err = models.FromFuncs(models.LogisticFuncs(d, w.PriorSD), ex)
	return batched, funcs, d, err
}

// RunLogistic times w: the three runs interleaved, Repeats times, then the
// batched evaluation and its Dgemm products. A done ctx stops it with
// ctx's error.
func RunLogistic(ctx context.Context, w LogisticWorkload) (*LogisticReport, error) {
	mb, mf, d, err := w.logisticModels()
	if err != nil {
		return nil, err
	}
	rep := &LogisticReport{Workload: w, CPU: cpuModel(), GoVersion: runtime.Version(), KernelImpl: kernel.Impl()}
	steps := float64(w.Replicates * w.Chains * w.Iterations)
	engine := func(m models.Model) (float64, error) {
		cfg := batch.Config{Model: m, Chains: w.Chains, Replicates: w.Replicates, Iterations: w.Iterations, Scans: 1, Knots: 1, Seed: w.Seed, Workers: 1}
		start := cpuTime()
		_, err := batch.Run(ctx, cfg, nil)
		return float64((cpuTime() - start).Nanoseconds()) / steps, err
	}
	scalar := mf.(models.Referenced).Scalar()
	for range w.Repeats {
		b, err := engine(mb)
		if err != nil {
			return nil, err
		}
		f, err := engine(mf)
		if err != nil {
			return nil, err
		}
		start := cpuTime()
		if _, err := ScalarModel(ctx, scalar, w.Replicates, w.Chains, w.Iterations, w.Seed); err != nil {
			return nil, err
		}
		s := float64((cpuTime() - start).Nanoseconds()) / steps
		rep.BatchSamples, rep.FuncsSamples, rep.ScalarSamples = append(rep.BatchSamples, b), append(rep.FuncsSamples, f), append(rep.ScalarSamples, s)
	}
	rep.BatchNs, rep.FuncsNs, rep.ScalarNs = median(rep.BatchSamples), median(rep.FuncsSamples), median(rep.ScalarSamples)
	rep.EvalNs, rep.DgemmNs = timeEvaluation(w, d)
	rep.DgemmGflops = 4 * float64(d.NumRows()*d.NumCoefs()) / rep.DgemmNs
	return rep, ctx.Err()
}

// timeEvaluation returns the batched model's CPU ns per state
// evaluation (energies and gradients, w.EvalStates states a call) and the
// CPU ns per state of gonum's Dgemm computing the evaluation's two
// products at the workload's shape, each in one call: the predictors X·B
// (n × p times p × states) and the gradients Xᵀ·R (p × n times n ×
// states). Each is the median of repeated timings of at least 50 ms.
func timeEvaluation(w LogisticWorkload, d *models.LogisticData) (evalNs, dgemmNs float64) {
	n, p, rows := w.EvalStates, d.NumCoefs(), d.NumRows()
	b := models.LogisticBatch(d, w.PriorSD)
	x := make([]float64, p*n)
	for i := range x {
		x[i] = 0.1 * float64(i%7-3)
	}
	w0, w1, g0, g1 := make([]float64, n), make([]float64, n), make([]float64, p*n), make([]float64, p*n)
	evalNs = timePerCall(func() { b.Gradients(x, n, w0, w1, g0, g1) }) / float64(n)
	impl := gonum.Implementation{}
	eta, g := make([]float64, rows*n), make([]float64, p*n)
	dgemmNs = timePerCall(func() {
		impl.Dgemm(blas.NoTrans, blas.NoTrans, rows, n, p, 1, d.X, p, x, n, 0, eta, n)
		impl.Dgemm(blas.Trans, blas.NoTrans, p, n, rows, 1, d.X, p, eta, n, 0, g, n)
	}) / float64(n)
	return evalNs, dgemmNs
}

// timePerCall returns the median over 5 timings of f's CPU ns per call,
// each timing as many calls as take 50 ms.
func timePerCall(f func()) float64 {
	calls := 1
	for {
		start := cpuTime()
		for range calls {
			f()
		}
		if (cpuTime() - start) > 50*time.Millisecond {
			break
		}
		calls *= 2
	}
	var ts []float64
	for range 5 {
		start := cpuTime()
		for range calls {
			f()
		}
		ts = append(ts, float64((cpuTime()-start).Nanoseconds())/float64(calls))
	}
	slices.Sort(ts)
	return ts[len(ts)/2]
}
