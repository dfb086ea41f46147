package gaussexact

import (
	"math"

	"github.com/ptbatch/ptbatch/tune"
	"gonum.org/v1/gonum/optimize"
)

// knotsFromLogits fills the interior knots of a monotone spline from
// 2(K-1) unconstrained parameters: each component's K increments along the
// knots are a softmax of K logits, the last one fixed at 0, so η0 decreases
// from 1 to 0 and η1 increases from 0 to 1 through strictly positive
// values. Knot k has η0 = Σ_{j>k} gap0_j and η1 = Σ_{j≤k} gap1_j, summed
// from the small end so that tiny components keep their relative accuracy.
func knotsFromLogits(knots [][2]float64, x []float64) {
	numKnots := len(knots) - 1
	gaps := make([]float64, numKnots)
	for i := 0; i < 2; i++ {
		mx := 0.0
		for j := 0; j < numKnots-1; j++ {
			mx = math.Max(mx, x[i*(numKnots-1)+j])
		}
		sum := 0.0
		for j := 0; j < numKnots; j++ {
			l := 0.0
			if j < numKnots-1 {
				l = x[i*(numKnots-1)+j]
			}
			gaps[j] = math.Exp(l - mx)
			sum += gaps[j]
		}
		if i == 0 { // η0 of knot k: the gaps k+1..K, j = k..K-1
			acc := 0.0
			for k := numKnots - 1; k >= 1; k-- {
				acc += gaps[k]
				knots[k][0] = acc / sum
			}
		} else {
			acc := 0.0
			for k := 1; k < numKnots; k++ {
				acc += gaps[k-1]
				knots[k][1] = acc / sum
			}
		}
	}
	knots[0] = [2]float64{1, 0}
	knots[numKnots] = [2]float64{0, 1}
}

// logitsFromKnots inverts knotsFromLogits; ok is false when the knots are
// not strictly monotone.
func logitsFromKnots(knots [][2]float64) (x []float64, ok bool) {
	numKnots := len(knots) - 1
	x = make([]float64, 2*(numKnots-1))
	for i := 0; i < 2; i++ {
		gap := func(j int) float64 { // increment j = 0..K-1, from knot j to j+1
			if i == 0 {
				return knots[j][0] - knots[j+1][0]
			}
			return knots[j+1][1] - knots[j][1]
		}
		last := gap(numKnots - 1)
		if !(last > 0) {
			return nil, false
		}
		for j := 0; j < numKnots-1; j++ {
			gj := gap(j)
			if !(gj > 0) {
				return nil, false
			}
			x[i*(numKnots-1)+j] = math.Log(gj / last)
		}
	}
	return x, true
}

// Settings of the Nelder–Mead runs of OptimalKnots: the initial simplex is
// x0 and x0 + nmSimplexSize·e_i in logit space; a run stops when the best
// value has not improved by more than nmRelTol relative for nmStall
// consecutive iterations (optimize.FunctionConverge; nmStall is the
// iteration count of gonum's default converger) or after nmMaxEval
// evaluations of Λ. (gonum has no test on the spread of the simplex
// values; the restarts of OptimalKnots make up for an early stop.)
const (
	nmSimplexSize = 0.5
	nmRelTol      = 1e-10
	nmStall       = 100
	nmMaxEval     = 20000
)

// nelderMead minimises f from x0 with gonum's optimize.NelderMead (the
// adaptive coefficients of Gao and Han 2012) and the settings above, and
// returns the best point and value found. A start where f is not finite
// is returned unchanged.
func nelderMead(f func([]float64) float64, x0 []float64) ([]float64, float64) {
	settings := &optimize.Settings{
		FuncEvaluations: nmMaxEval,
		Converger:       &optimize.FunctionConverge{Relative: nmRelTol, Iterations: nmStall},
	}
	res, err := optimize.Minimize(optimize.Problem{Func: f}, x0, settings,
		&optimize.NelderMead{SimplexSize: nmSimplexSize})
	if err != nil || res == nil {
		return x0, f(x0)
	}
	return res.X, res.F
}

// OptimalKnots returns the K-knot monotone spline path with the smallest
// global communication barrier Λ (Barrier) that it finds, and that Λ: it
// minimises Λ over the interior knots by Nelder–Mead (gonum's
// optimize.NelderMead, see nelderMead), the knots parametrised by the
// logarithms of their increments (knotsFromLogits), which keeps them
// monotone and positive, restarting from the best point until a restart no
// longer improves Λ by 1e-9 relative. It starts from the linear path, from
// a path through small η (inflated variance) and, for K > 2, from the
// optimal 2-knot path, and keeps the best result. A local search: the
// answer is an upper bound on the family's best Λ.
func (g GaussianPair) OptimalKnots(numKnots int) (*tune.Spline, float64) {
	return OptimalKnotsOf(numKnots, g.knotsBarrier)
}

// OptimalKnotsOf is OptimalKnots for any family: barrier returns Λ of the
// spline with the given knots (φ_0 … φ_K, monotone, interior components
// positive), NaN or +Inf where it is not defined. Other exact families
// (internal/betaexact) use it.
func OptimalKnotsOf(numKnots int, barrier func(knots [][2]float64) float64) (*tune.Spline, float64) {
	path := tune.NewSpline(numKnots)
	if numKnots == 1 {
		return path, barrier(path.Knots())
	}
	dim := 2 * (numKnots - 1)
	knots := make([][2]float64, numKnots+1)
	objective := func(x []float64) float64 {
		knotsFromLogits(knots, x)
		// Logits beyond the float64 range of exp can make a component 0,
		// which tune.Spline.SetKnots rejects: treat such points as
		// infeasible, so the answer is always a valid spline.
		for _, kn := range knots[1:numKnots] {
			if !(kn[0] > 0 && kn[1] > 0) {
				return math.Inf(1)
			}
		}
		v := barrier(knots)
		if math.IsNaN(v) {
			return math.Inf(1)
		}
		return v
	}
	starts := [][]float64{make([]float64, dim)}
	// A start with interior knots near the origin, where the annealed
	// densities are wide: η0 falls at once (large first increment) and η1
	// rises at the end (large last increment).
	bent := make([]float64, dim)
	bent[0] = 6
	for j := 0; j < numKnots-1; j++ {
		bent[numKnots-1+j] = -6
	}
	starts = append(starts, bent)
	if numKnots > 2 {
		// The optimal 2-knot path, sampled at the K-knot positions.
		p2, _ := OptimalKnotsOf(2, barrier)
		emb := tune.NewSpline(numKnots).Knots()
		for k := 1; k < numKnots; k++ {
			emb[k][0], emb[k][1] = p2.Eta(float64(k) / float64(numKnots))
		}
		if x, ok := logitsFromKnots(emb); ok {
			starts = append(starts, x)
		}
	}
	bestX, bestF := starts[0], math.Inf(1)
	for _, x0 := range starts {
		x, f := append([]float64(nil), x0...), objective(x0)
		for restart := 0; restart < 10; restart++ {
			xn, fn := nelderMead(objective, x)
			improved := f - fn
			if fn < f {
				x, f = xn, fn
			}
			if !(improved > 1e-9*math.Abs(f)) {
				break
			}
		}
		if f < bestF {
			bestX, bestF = x, f
		}
	}
	knotsFromLogits(knots, bestX)
	if err := path.SetKnots(knots); err != nil {
		panic("gaussexact: " + err.Error()) // unreachable: the objective rejects such knots
	}
	return path, barrier(path.Knots())
}
