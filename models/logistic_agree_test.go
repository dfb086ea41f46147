package models_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
	"gonum.org/v1/gonum/stat"
)

// agreeReplicates, agreeIterations and agreeThin set the runs of the
// agreement test: 32 independent replicates, 3000 iterations in 10 scans,
// the last 5 scans kept, every 50th state (MALA on a 4-coefficient
// posterior forgets its state within a few tens of moves, so that kept
// states are close to independent).
const (
	agreeReplicates = 32
	agreeIterations = 3000
	agreeThin       = 50
)

// keptStates runs m and returns, per replicate and coefficient, the kept
// target states.
func keptStates(t *testing.T, m models.Model, seed uint64) [][][]float64 {
	t.Helper()
	p := len(m.Observables())
	out := make([][][]float64, agreeReplicates)
	for b := range out {
		out[b] = make([][]float64, p)
	}
	s := &batch.Samples{Thin: agreeThin, Write: func(b, _ int, x []float64) error {
		for k, v := range x {
			out[b][k] = append(out[b][k], v)
		}
		return nil
	}}
	cfg := batch.Config{Model: m, Chains: 6, Replicates: agreeReplicates, Iterations: agreeIterations, Scans: 10,
		TuneSchedule: true, Knots: 1, Seed: seed, Workers: 2, Statistics: []batch.Statistic{s}}
	if _, err := batch.Run(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	return out
}

// replicateMoments returns the mean over replicates of the replicates'
// means and variances of coefficient k, with their standard errors (the
// replicates are independent, so that the errors hold whatever the
// autocorrelation within one).
func replicateMoments(s [][][]float64, k int) (mean, seMean, variance, seVar float64) {
	var ms, vs []float64
	for _, rep := range s {
		m, v := stat.MeanVariance(rep[k], nil)
		ms, vs = append(ms, m), append(vs, v)
	}
	m, v := stat.MeanVariance(ms, nil)
	mv, vv := stat.MeanVariance(vs, nil)
	n := float64(len(s))
	return m, math.Sqrt(v / n), mv, math.Sqrt(vv / n)
}

// TestLogisticBatchAgreesWithFuncsInDistribution runs the batched
// logistic model and the same posterior through FromFuncs
// (models.LogisticFuncs) with different seeds, and checks for every
// coefficient that the posterior means and variances agree within 4
// standard errors of their difference (a two-sided chance of 6e-5 each
// for agreeing models), and that the two-sample Kolmogorov–Smirnov
// distance of the kept states is below 1.95·√((n+m)/(nm)) (the asymptotic
// 0.001 critical value).
func TestLogisticBatchAgreesWithFuncsInDistribution(t *testing.T) {
	if testing.Short() {
		t.Skip("two runs of 32 replicates × 3000 iterations")
	}
	d := models.SimulateLogistic(100, 3, 5)
	mb, err := models.NewLogistic(d, 5, models.MALA{})
	if err != nil {
		t.Fatal(err)
	}
	mf, err := models.FromFuncs(models.LogisticFuncs(d, 5), models.MALA{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := keptStates(t, mb, 1), keptStates(t, mf, 2)
	for k, name := range mb.Observables() {
		ma, sma, va, sva := replicateMoments(a, k)
		mb, smb, vb, svb := replicateMoments(b, k)
		if z := math.Abs(ma-mb) / math.Hypot(sma, smb); z > 4 {
			t.Errorf("%s: mean %.4f ± %.4f (batched), %.4f ± %.4f (FromFuncs): %.1f standard errors apart", name, ma, sma, mb, smb, z)
		}
		if z := math.Abs(va-vb) / math.Hypot(sva, svb); z > 4 {
			t.Errorf("%s: variance %.4f ± %.4f (batched), %.4f ± %.4f (FromFuncs): %.1f standard errors apart", name, va, sva, vb, svb, z)
		}
		xa, xb := flatten(a, k), flatten(b, k)
		slices.Sort(xa)
		slices.Sort(xb)
		n, m := float64(len(xa)), float64(len(xb))
		if ks, crit := stat.KolmogorovSmirnov(xa, nil, xb, nil), 1.95*math.Sqrt((n+m)/(n*m)); ks > crit {
			t.Errorf("%s: Kolmogorov–Smirnov distance %.4f above %.4f (%d and %d states)", name, ks, crit, len(xa), len(xb))
		}
		t.Logf("%s: mean %.4f ± %.4f / %.4f ± %.4f, variance %.4f / %.4f, %d states each", name, ma, sma, mb, smb, va, vb, len(xa))
	}
}

// flatten returns the kept states of coefficient k of every replicate.
func flatten(s [][][]float64, k int) []float64 {
	var out []float64
	for _, rep := range s {
		out = append(out, rep[k]...)
	}
	return out
}
