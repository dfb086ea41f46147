package batch

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/internal/gaussexact"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/tune"
)

// TestBarrierProfileMatchesRun checks that the profile is that of the last
// scan: its rejections are Result.Rejections, its schedule is the one the
// schedule update turned into Result.Schedules, Λ(1) is the scan's barrier
// Σ r_n (ScanStats.Barrier) exactly, and the grid has Points points.
func TestBarrierProfileMatchesRun(t *testing.T) {
	p := &BarrierProfile{Points: 50}
	cfg := Config{Model: gaussian(t, 0.1), Chains: 20, Replicates: 10, Iterations: 3000, Scans: 3, TuneSchedule: true,
		Knots: 3, TunePath: true, LearningRate: 0.2, Seed: 3, Statistics: []Statistic{p}}
	res := mustRun(t, cfg)
	if p.Scan() != 3 || len(p.Grid()) != 50 || p.Grid()[49] != 1 {
		t.Fatalf("scan %d, grid of %d points ending at %g", p.Scan(), len(p.Grid()), p.Grid()[len(p.Grid())-1])
	}
	for b := 0; b < cfg.Replicates; b++ {
		if !slices.Equal(p.Rejections()[b], res.Rejections[b]) {
			t.Errorf("replicate %d: rejections differ from the result's", b)
		}
		next := slices.Clone(p.Schedules()[b])
		tune.UpdateSchedule(next, next, p.Rejections()[b])
		if !slices.Equal(next, res.Schedules[b]) {
			t.Errorf("replicate %d: the profile's schedule does not update to the final one", b)
		}
		cum := p.Cumulative()[b]
		if barrier := res.History[b][2].Barrier; cum[len(cum)-1] != barrier || cum[0] != 0 {
			t.Errorf("replicate %d: Λ(0) = %g, Λ(1) = %.17g, barrier %.17g", b, cum[0], cum[len(cum)-1], barrier)
		}
		for i, l := range p.Local()[b] {
			if !(l >= 0) || (i > 0 && cum[i] < cum[i-1]) {
				t.Errorf("replicate %d: λ(%g) = %g, Λ %g after %g", b, p.Grid()[i], l, cum[i], cum[max(i-1, 0)])
			}
		}
	}
}

// TestBarrierProfileGaussianLinear checks the measured local barrier of
// the linear path between N(-1·1, 0.5² I) and N(1·1, 0.5² I) in d = 4
// against its closed form: π_t = N(μ_t·1, σ² I) and
// dW_t/dt(x) = (W_1-W_0)(x) = (μ1-μ0) Σ_d x_d/σ² + const, so by
// thm:general_GCB λ = ½ E|(μ1-μ0) Σ_d (X_d-X'_d)|/σ² with Σ_d (X_d-X'_d) ~
// N(0, 2dσ²), that is λ = z√d/√π, z = |μ1-μ0|/σ = 4: λ = 8/√π = 4.514,
// constant (gaussexact.GaussianPair.LocalBarrier agrees). At every one of
// the 100 grid points the mean over 64 replicates of the measured λ(t)
// must be within 4.5 standard errors (across replicates) of λ, plus the
// discretisation's own deviation: the mean profile computed the same way
// from the exact rejections r_n = erf(δ_n z√d/2) on each replicate's
// schedule (engine_test.go's exactLinearRejection with z√d, since the
// energy difference is linear in Σ_d x_d), about -0.35%. (4.5 rather than
// 4: a test at 100 points, with standard errors estimated from 64 values,
// has a family-wise false alarm rate of about 0.3% at 4.5, 2% at 4.) The
// barrier Λ(1) = Σ r_n must be within 4 standard errors of its
// discretised value, 0.35% below Λ = λ.
func TestBarrierProfileGaussianLinear(t *testing.T) {
	const d, sigma, chains, reps = 4, 0.5, 40, 64
	g, err := models.NewGaussian(d, -1, 1, sigma, sigma)
	if err != nil {
		t.Fatal(err)
	}
	z := 2 / sigma
	lambda := z * math.Sqrt(d) / math.Sqrt(math.Pi)
	pair := gaussexact.GaussianPair{Dim: d, Mu0: -1, Mu1: 1, Sigma0: sigma, Sigma1: sigma}
	if l := pair.LocalBarrier([2]float64{0.3, 0.7}, [2]float64{-1, 1}); math.Abs(l/lambda-1) > 1e-6 {
		t.Fatalf("closed form λ = %g, gaussexact %g", lambda, l)
	}
	p := new(BarrierProfile)
	cfg := Config{Model: g, Chains: chains, Replicates: reps, Iterations: 16000, Scans: 4, TuneSchedule: true, Knots: 1, Seed: 17,
		Statistics: []Statistic{p}}
	mustRun(t, cfg)
	grid := p.Grid()
	if len(grid) != 100 {
		t.Fatalf("%d grid points, want 100", len(grid))
	}
	// The profiles from the exact rejections on each replicate's schedule.
	exactCum, exactLocal := make([][]float64, reps), make([][]float64, reps)
	for b := range exactCum {
		sched := p.Schedules()[b]
		rej := make([]float64, chains-1)
		for n := range rej {
			rej[n] = exactLinearRejection(sched[n+1]-sched[n], z*math.Sqrt(d))
		}
		exactCum[b], exactLocal[b] = make([]float64, len(grid)), make([]float64, len(grid))
		tune.BarrierProfile(exactCum[b], exactLocal[b], grid, sched, rej)
	}
	column := func(x [][]float64, i int) []float64 {
		var c []float64
		for _, row := range x {
			c = append(c, row[i])
		}
		return c
	}
	worst := 0.0
	for i, x := range grid {
		m, se := meanSE(column(p.Local(), i))
		disc, _ := meanSE(column(exactLocal, i))
		if math.Abs(m-lambda) > 4.5*se+math.Abs(disc-lambda) {
			t.Errorf("λ(%.3f) = %.4f ± %.4f, closed form %.4f (discretised %.4f)", x, m, se, lambda, disc)
		}
		worst = max(worst, (math.Abs(m-lambda)-math.Abs(disc-lambda))/se)
	}
	last := len(grid) - 1
	mb, seb := meanSE(column(p.Cumulative(), last))
	disc, _ := meanSE(column(exactCum, last))
	t.Logf("λ = Λ = %.4f; Λ(1) = %.4f ± %.4f (discretised %.4f); largest deviation of λ(t) beyond the discretisation's: %.2f standard errors",
		lambda, mb, seb, disc, worst)
	if math.Abs(mb-disc) > 4*seb {
		t.Errorf("Λ(1) = %.4f ± %.4f, discretised Λ %.4f", mb, seb, disc)
	}
}

// TestBarrierProfileReadBetweenSteps checks the profiles computed when
// read (BarrierProfile.profiles): read after every Engine.Step, they are
// those of that scan's schedules and rejections (tune.BarrierProfile),
// not an earlier scan's, and reading them changes nothing: the last
// scan's profiles, checkpoint and result are those of a run whose
// profiles are read only at its end.
func TestBarrierProfileReadBetweenSteps(t *testing.T) {
	run := func(readEvery bool) (*BarrierProfile, *Result) {
		p := &BarrierProfile{Points: 9}
		cfg := Config{Model: gaussian(t, 0.1), Chains: 12, Replicates: 10, Iterations: 600, Scans: 6, TuneSchedule: true,
			Knots: 3, TunePath: true, LearningRate: 0.2, Seed: 4, Workers: 2, Statistics: []Statistic{p}}
		e, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var last [][]float64
		for !e.Done() {
			if err := e.Step(context.Background()); err != nil {
				t.Fatal(err)
			}
			if !readEvery {
				continue
			}
			cum, loc, sched, rej := p.Cumulative(), p.Local(), p.Schedules(), p.Rejections()
			for b := range cum {
				wantCum, wantLoc := make([]float64, len(p.Grid())), make([]float64, len(p.Grid()))
				tune.BarrierProfile(wantCum, wantLoc, p.Grid(), sched[b], rej[b])
				if !slices.Equal(cum[b], wantCum) || !slices.Equal(loc[b], wantLoc) {
					t.Fatalf("scan %d, replicate %d: the profile read is not that of the scan's schedule and rejections", e.Scans(), b)
				}
			}
			if last != nil && slices.EqualFunc(last, cum, slices.Equal) {
				t.Fatalf("scan %d: the profiles did not change from the scan before", e.Scans())
			}
			last = cum
		}
		return p, e.Result()
	}
	read, resRead := run(true)
	once, resOnce := run(false)
	a, _ := read.MarshalBinary()
	b, _ := once.MarshalBinary()
	if string(a) != string(b) {
		t.Error("the profiles' checkpoints differ with reading between steps")
	}
	if !slices.EqualFunc(read.Cumulative(), once.Cumulative(), slices.Equal) ||
		!slices.EqualFunc(resRead.Schedules, resOnce.Schedules, slices.Equal) {
		t.Error("reading the profiles between steps changed the run")
	}
}
