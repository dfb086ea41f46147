package paper

import (
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/internal/gaussexact"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/tune"
)

// TestExactCompare checks the closed-form comparison on a result whose
// two replicates hold the linear path (K = 1 knots (0,1)…(1,0)) and the
// best K = 2 path of the family: the linear path's Λ is the closed form
// √d·z/√π (z = |μ1−μ0|/σ = 2 here, prop:badlinear), the best path's Λ is
// OptimalKnots', and a replicate on the best path has its exact rate.
func TestExactCompare(t *testing.T) {
	g, err := models.NewGaussian(1, -1, 1, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	x := ExactGaussian(g)
	if x == nil {
		t.Fatal("no closed forms for the one-dimensional Gaussian")
	}
	if g3, _ := models.NewGaussian(3, -1, 1, 1, 1); ExactGaussian(g3) != nil {
		t.Error("closed forms offered for d = 3")
	}
	pair := gaussexact.GaussianPair{Dim: 1, Mu0: -1, Mu1: 1, Sigma0: 1, Sigma1: 1}
	best, bestLambda := pair.OptimalKnots(2)
	lin := tune.NewSpline(2) // K = 2 knots on the straight line: the linear path
	res := &batch.Result{Knots: [][][2]float64{lin.Knots(), best.Knots()}}
	c, err := x.Compare(Method{Name: "K2", Algorithm: batch.NRPT, Knots: 2}, res, 10, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	linLambda := pair.Barrier(lin)
	if want := 2 / math.Sqrt(math.Pi); math.Abs(linLambda-want) > 1e-6 {
		t.Errorf("linear path Λ %v, closed form %v", linLambda, want)
	}
	if math.Abs(c.Lambda-(linLambda+bestLambda)/2) > 1e-9 || c.BestLambda != bestLambda || !(bestLambda < linLambda) {
		t.Errorf("comparison %+v: want Λ mean of %v and %v, best %v below the linear", c, linLambda, bestLambda, bestLambda)
	}
	if c.Measured != 0.1 || !(c.BestRate > 0) || !(c.Rate <= c.BestRate+1e-12) {
		t.Errorf("rates %+v: want the measured 0.1 and exact rates no better than the best", c)
	}
}
