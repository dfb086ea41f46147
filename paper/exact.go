package paper

import (
	"context"
	"fmt"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/internal/gaussexact"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/tune"
)

// Exact holds the closed forms of a one-dimensional Gaussian experiment
// (gaussexact.GaussianPair).
type Exact struct {
	pair gaussexact.GaussianPair
}

// ExactGaussian returns the closed forms for a one-dimensional Gaussian
// model, nil for any other model.
func ExactGaussian(m models.Model) *Exact {
	g, ok := m.(*models.Gaussian)
	if !ok || g.Dim != 1 {
		return nil
	}
	return &Exact{gaussexact.GaussianPair{Dim: 1, Mu0: g.Mu0, Mu1: g.Mu1, Sigma0: g.Sigma0, Sigma1: g.Sigma1}}
}

// Comparison is a method's tuned paths against the best path of its
// family, by the closed forms: Λ of each replicate's tuned path (mean and
// sd), the mean exact round-trip rate of those paths with the run's chains
// on the equi-barrier schedule, the measured rate, and the best Λ of the
// family with its exact rate.
type Comparison struct {
	Method                 string
	Lambda, LambdaSD, Rate float64
	Measured               float64
	BestLambda, BestRate   float64
}

// Row returns the comparison as a row of the report's Markdown table,
// its cells separated by tabs for a tabwriter.
func (c Comparison) Row() string {
	return fmt.Sprintf("| %s\t| %.2f ± %.2f\t| %.5f\t| %.5f\t| %.3f\t| %.5f\t| %.0f%%\t|",
		c.Method, c.Lambda, c.LambdaSD, c.Rate, c.Measured, c.BestLambda, c.BestRate, 100*c.Measured/c.BestRate)
}

// CompareContext is Compare, abandoned as soon as ctx is done: the closed
// forms (quadrature and Nelder–Mead) run on a goroutine of their own and
// cannot be stopped, so an interrupted program returns at once and leaves
// that goroutine to end with the process.
func (x *Exact) CompareContext(ctx context.Context, meth Method, res *batch.Result, chains int, measured float64) (Comparison, error) {
	type answer struct {
		c   Comparison
		err error
	}
	done := make(chan answer, 1)
	go func() {
		c, err := x.Compare(meth, res, chains, measured)
		done <- answer{c, err}
	}()
	select {
	case a := <-done:
		return a.c, a.err
	case <-ctx.Done():
		return Comparison{}, ctx.Err()
	}
}

// Compare returns the exact Λ and rate of the method's tuned paths (the
// knots of res, one path per replicate) against the best path of its
// family, with chains chains; measured is the run's measured rate.
func (x *Exact) Compare(meth Method, res *batch.Result, chains int, measured float64) (Comparison, error) {
	c := Comparison{Method: meth.Name, Measured: measured}
	lambdas := make([]float64, len(res.Knots))
	rates := make([]float64, len(res.Knots))
	for r, knots := range res.Knots {
		path := tune.NewSpline(meth.Knots)
		if err := path.SetKnots(knots); err != nil {
			return c, err
		}
		lambdas[r] = x.pair.Barrier(path)
		rate, err := x.pair.RoundTripRate(path, chains)
		if err != nil {
			return c, err
		}
		rates[r] = rate
	}
	c.Lambda, c.LambdaSD = batch.MeanSD(lambdas)
	c.Rate, _ = batch.MeanSD(rates)
	best, bestLambda := x.pair.OptimalKnots(meth.Knots)
	bestRate, err := x.pair.RoundTripRate(best, chains)
	if err != nil {
		return c, err
	}
	c.BestLambda, c.BestRate = bestLambda, bestRate
	return c, nil
}
