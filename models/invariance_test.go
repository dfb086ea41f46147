package models_test

import (
	"math"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// invCase is a known annealed density: Funcs and coefficients, an exact
// sampler of it, and a map of a state to coordinates that are iid N(0, 1)
// exactly when the state follows it.
type invCase struct {
	name       string
	f          models.Funcs
	eta0, eta1 float64
	draw       func(r models.Rand, x []float64)
	whiten     func(x, z []float64)
}

// invCases are the correlated Gaussian at the target (0, 1) and on the
// way (0.4, 0.6), where the annealed gradient η0·∇W0 + η1·∇W1 matters,
// and the funnel v ~ N(0, 3²), x_i | v ~ N(0, e^v) in 3 dimensions at
// the target.
func invCases() []invCase {
	var cases []invCase
	for _, eta := range [][2]float64{{0, 1}, {0.4, 0.6}} {
		l := annealedChol(eta[0], eta[1])
		cases = append(cases, invCase{
			name: "correlated Gaussian", f: corrGauss(), eta0: eta[0], eta1: eta[1],
			draw: func(r models.Rand, x []float64) {
				z0, z1 := r.Normal(), r.Normal()
				x[0], x[1] = l[0][0]*z0, l[1][0]*z0+l[1][1]*z1
			},
			whiten: func(x, z []float64) {
				z[0] = x[0] / l[0][0]
				z[1] = (x[1] - l[1][0]*z[0]) / l[1][1]
			},
		})
	}
	const scale = 3
	cases = append(cases, invCase{
		name: "funnel", f: funnel(3, scale), eta0: 0, eta1: 1,
		draw: func(r models.Rand, x []float64) {
			x[0] = scale * r.Normal()
			for i := 1; i < len(x); i++ {
				x[i] = math.Exp(x[0]/2) * r.Normal()
			}
		},
		whiten: func(x, z []float64) {
			z[0] = x[0] / scale
			for i := 1; i < len(x); i++ {
				z[i] = x[i] * math.Exp(-x[0]/2)
			}
		},
	})
	return cases
}

// explorersUnderTest are every built-in explorer with its defaults, and
// autoMALA with the paper's moves of every coordinate.
func explorersUnderTest() []models.Explorer {
	return []models.Explorer{models.RandomWalk{}, models.SliceSampler{}, models.MALA{}, models.AutoMALA{},
		models.AutoMALA{AllCoordinates: true}, models.HMC{}, models.HMC{Auto: true}}
}

// Settings of the invariance tests: invN independent starts from the
// exact density, one move each. ksCrit is the Kolmogorov–Smirnov critical
// value c(α)/√n at α = 1e-4, c(α) = √(−ln(α/2)/2) = 2.2253; momentSE is
// the number of standard errors a moment may miss by (4.5: a two-sided
// normal tail of 7e-6 per check).
const (
	invN     = 20000
	momentSE = 4.5
)

var ksCrit = 2.2253 / math.Sqrt(invN)

// ksNormal returns the Kolmogorov–Smirnov distance of the sample zs
// (sorted in place) from N(0, 1).
func ksNormal(zs []float64) float64 {
	slices.Sort(zs)
	n := float64(len(zs))
	d := 0.0
	for i, z := range zs {
		c := 0.5 * math.Erfc(-z/math.Sqrt2)
		d = max(d, math.Abs(c-float64(i)/n), math.Abs(float64(i+1)/n-c))
	}
	return d
}

// afterOneMove draws invN exact states of c, moves each once with ex
// (one explorer state for all, no adaptation), and returns the whitened
// coordinates, by coordinate: afterMoves with one move.
func afterOneMove(t *testing.T, c invCase, ex models.Explorer, seed uint64) [][]float64 {
	t.Helper()
	return afterMoves(t, c, ex, seed, 1)
}

// checkStandardNormal checks that every coordinate of zs is N(0, 1) by
// mean, variance and Kolmogorov–Smirnov, and that the first two are
// uncorrelated; it returns the largest KS distance.
func checkStandardNormal(t *testing.T, what string, zs [][]float64) float64 {
	t.Helper()
	n := float64(len(zs[0]))
	worst := 0.0
	for d, z := range zs {
		m, v := 0.0, 0.0
		for _, x := range z {
			m += x
			v += x * x
		}
		m /= n
		v = v/n - m*m
		// se of the mean 1/√n; of the variance √(2/n) for a normal.
		if math.Abs(m) > momentSE/math.Sqrt(n) || math.Abs(v-1) > momentSE*math.Sqrt(2/n) {
			t.Errorf("%s: coordinate %d has mean %.4f and variance %.4f, want 0 and 1", what, d, m, v)
		}
		if ks := ksNormal(slices.Clone(z)); ks > ksCrit {
			t.Errorf("%s: coordinate %d has KS distance %.4f > %.4f from N(0, 1)", what, d, ks, ksCrit)
		} else {
			worst = max(worst, ks)
		}
	}
	cov := 0.0
	for i := range zs[0] {
		cov += zs[0][i] * zs[1][i]
	}
	if cov /= n; math.Abs(cov) > momentSE/math.Sqrt(n) {
		t.Errorf("%s: whitened coordinates 0 and 1 have covariance %.4f, want 0", what, cov)
	}
	return worst
}

// TestExplorersLeaveTargetInvariant is the invariance test of Pigeons.jl's
// invariance_test, for every explorer: from invN exact draws of a known
// annealed density, one move; the states must still follow it.
func TestExplorersLeaveTargetInvariant(t *testing.T) {
	for _, ex := range explorersUnderTest() {
		for i, c := range invCases() {
			what := ex.Name() + " on " + c.name
			checkStandardNormal(t, what, afterOneMove(t, c, ex, uint64(100+i)))
		}
	}
}

// ula is the unadjusted Langevin step x' = x + θ²/2·∇log π(x) + θ·z, no
// Metropolis correction: not invariant, which the invariance test must
// see.
type ula struct{}

func (ula) Name() string                          { return "ula" }
func (ula) NewState(dim int) models.ExplorerState { return &ulaState{g: make([]float64, dim)} }

type ulaState struct{ g []float64 }

func (s *ulaState) Move(t *models.Target, r models.Rand, x []float64, w *[2]float64) {
	const theta = 0.8
	t.GradLogDensity(x, s.g)
	for d := range x {
		x[d] += theta*theta/2*s.g[d] + theta*r.Normal()
	}
	*w = t.Energies(x)
}
func (*ulaState) EndScan()                       {}
func (*ulaState) MarshalBinary() ([]byte, error) { return nil, nil }
func (*ulaState) UnmarshalBinary([]byte) error   { return nil }

// TestInvarianceTestHasPower checks that the invariance test rejects an
// explorer that is not invariant: ULA with θ = 0.8 on the correlated
// Gaussian, whose stationary law is a Gaussian of inflated variance.
func TestInvarianceTestHasPower(t *testing.T) {
	zs := afterOneMove(t, invCases()[0], ula{}, 7)
	ks := 0.0
	for _, z := range zs {
		ks = max(ks, ksNormal(slices.Clone(z)))
	}
	if ks <= ksCrit {
		t.Errorf("ULA's largest KS distance %.4f is within the critical value %.4f: the test cannot see a biased move", ks, ksCrit)
	}
}
