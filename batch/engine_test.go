package batch

import (
	"context"
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// raceEnabled is set by race_test.go under the race detector, whose
// shadow memory is mapped as the program first touches the memory it
// shadows, at page faults of its own.
var raceEnabled bool

func gaussian(t *testing.T, sigma float64) *models.Gaussian {
	t.Helper()
	g, err := models.NewGaussian(1, -1, 1, sigma, sigma)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mustRun(t *testing.T, cfg Config) *Result {
	t.Helper()
	res, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// exactLinearRejection is r(t, t') for the linear path between N(μ0, σ²)
// and N(μ1, σ²) with |t'-t| = δ and z = |μ1-μ0|/σ. Derivation: π_t =
// N(μ_t, σ²) and A = (W_t'-W_t)(X) - (W_t'-W_t)(X') = δ(μ1-μ0)(X-X')/σ² with
// X ~ π_t, X' ~ π_t' independent, so A ~ N(-c², 2c²) with c = δz. Then
// E[min(1, e^A)] = P(A > 0) + E[e^A; A < 0] = Φ(-c/√2) + Φ(-c/√2), and
// r = 1 - 2Φ(-c/√2) = erf(c/2). (Its slope at δ = 0 is z/√π = λ, the
// paper's appendix proof of prop:badlinear.)
func exactLinearRejection(delta, z float64) float64 { return math.Erf(delta * z / 2) }

// TestRejectionMatchesExactLinearGaussian checks the mean rejection of every
// pair against erf(δz/2) on the uniform schedule, within Monte Carlo error.
func TestRejectionMatchesExactLinearGaussian(t *testing.T) {
	const chains, iters = 20, 4000
	cfg := Config{Model: gaussian(t, 0.1), Chains: chains, Replicates: 8, Iterations: iters, Scans: 1, Knots: 1, Seed: 3}
	res := mustRun(t, cfg)
	want := exactLinearRejection(1.0/(chains-1), 20)
	// Each iteration gives one 1-α in [0,1] per pair and replicate; with
	// exact independent draws they are i.i.d. with variance ≤ 1/4, so the
	// mean over iters × 8 values has SE ≤ 0.5/sqrt(32000) = 0.0028; we allow
	// 4 SE.
	tol := 4 * 0.5 / math.Sqrt(iters*8)
	for n, r := range res.Summary().Rejection {
		if math.Abs(r-want) > tol {
			t.Errorf("pair %d: rejection %.4f, exact %.4f (tolerance %.4f)", n, r, want, tol)
		}
	}
}

// TestTargetMomentsMatchTarget checks the first coordinate at the target
// chain has the target's mean 1 and variance σ² = 0.01.
func TestTargetMomentsMatchTarget(t *testing.T) {
	cfg := Config{Model: gaussian(t, 0.1), Chains: 20, Replicates: 8, Iterations: 4000, Scans: 1, Knots: 1, Seed: 5}
	res := mustRun(t, cfg)
	// The target chain's states are exact draws (own or swapped in from a
	// stationary neighbour), so over 8 × 4000 values SE(mean) ≈ 0.1/sqrt(32000)
	// = 5.6e-4 (swaps add mild correlation; allow 5 SE) and SE(var)/var ≈
	// sqrt(2/32000) = 0.8%, allow 5%.
	if d := math.Abs(res.Summary().TargetMean - 1); d > 5*0.1/math.Sqrt(32000) {
		t.Errorf("target mean %.5f, want 1", res.Summary().TargetMean)
	}
	if d := math.Abs(res.Summary().TargetVar/0.01 - 1); d > 0.05 {
		t.Errorf("target variance %.6f, want 0.01", res.Summary().TargetVar)
	}
}

// TestTunedBarrierMatchesLinearLambda checks that after schedule tuning the
// barrier Σ r_n estimates Λ = z/√π = 11.28 (z = 20) within 5% and that the
// rejections are nearly equal (eq:equicrit).
func TestTunedBarrierMatchesLinearLambda(t *testing.T) {
	cfg := Config{Model: gaussian(t, 0.1), Chains: 50, Replicates: 8, Iterations: 6000, Scans: 6,
		TuneSchedule: true, Knots: 1, Seed: 7}
	res := mustRun(t, cfg)
	lambda := 20 / math.Sqrt(math.Pi)
	if math.Abs(res.Summary().Barrier/lambda-1) > 0.05 {
		t.Errorf("barrier %.3f, want Λ = %.3f within 5%%", res.Summary().Barrier, lambda)
	}
	mean := res.Summary().Barrier / float64(len(res.Summary().Rejection))
	for n, r := range res.Summary().Rejection {
		// Per pair, 8 × 1000 draws: SE ≤ 0.5/sqrt(8000) = 0.0056; 5 SE.
		if math.Abs(r-mean) > 0.028 {
			t.Errorf("pair %d: rejection %.3f far from the mean %.3f", n, r, mean)
		}
	}
}

// TestRoundTripRateMatchesPrediction checks eq:nrpt_rtr: the measured
// round-trip rate of NRPT agrees with 1/(2+2Σ r/(1-r)), and reversible PT's
// is clearly lower.
func TestRoundTripRateMatchesPrediction(t *testing.T) {
	// No shorter run under -short: the count starts with every replica
	// still on its first trip, a deficit of about one trip per replica
	// that at 8,000 iterations already biases the rate by 9%.
	iters := 20000
	base := Config{Model: gaussian(t, 0.1), Chains: 30, Replicates: 16, Iterations: iters, Scans: 1, Knots: 1, Seed: 11}
	res := mustRun(t, base)
	// Exact prediction on the uniform schedule (λ is constant on this path,
	// so the uniform schedule is the tuned one): r = erf(z/(2·29)).
	r := exactLinearRejection(1.0/29, 20)
	tau := 1 / (2 + 2*29*r/(1-r))
	total := 0
	for _, n := range res.RoundTrips {
		total += n
	}
	rate := float64(total) / float64(iters*base.Replicates)
	// Round trips form a renewal process; over ~16·iters·τ trips the
	// relative SE of the count is below 1/sqrt(count)·(CV of a trip time
	// ≈ 0.5, measured) — a few percent at most. Allow 8%, and check the
	// engine's own prediction too.
	if math.Abs(rate/tau-1) > 0.08 {
		t.Errorf("NRPT round-trip rate %.5f, predicted %.5f", rate, tau)
	}
	if math.Abs(res.Summary().TauPredicted/tau-1) > 0.05 {
		t.Errorf("tau_predicted %.5f, exact %.5f", res.Summary().TauPredicted, tau)
	}
	rev := base
	rev.Algorithm = Reversible
	resRev := mustRun(t, rev)
	totalRev := 0
	for _, n := range resRev.RoundTrips {
		totalRev += n
	}
	if rateRev := float64(totalRev) / float64(iters*base.Replicates); rateRev > 0.5*rate {
		t.Errorf("reversible rate %.5f not clearly below NRPT's %.5f", rateRev, rate)
	}
}

func sameResults(t *testing.T, a, b *Result, replicates int, what string) {
	t.Helper()
	for r := 0; r < replicates; r++ {
		if a.RoundTrips[r] != b.RoundTrips[r] {
			t.Errorf("%s: replicate %d round trips %d vs %d", what, r, a.RoundTrips[r], b.RoundTrips[r])
		}
		for n := range a.Schedules[r] {
			if a.Schedules[r][n] != b.Schedules[r][n] {
				t.Errorf("%s: replicate %d schedule differs at %d", what, r, n)
				break
			}
		}
		for s := range a.History[r] {
			if a.History[r][s] != b.History[r][s] {
				t.Errorf("%s: replicate %d scan %d: %+v vs %+v", what, r, s+1, a.History[r][s], b.History[r][s])
				break
			}
		}
	}
}

// TestInvariance checks parallelism invariance: 1 or 2 workers, and
// replicates 0–3 of runs with 4 and 8 replicates, give identical results.
func TestInvariance(t *testing.T) {
	for _, alg := range []Algorithm{NRPT, Reversible} {
		cfg := Config{Model: gaussian(t, 0.1), Chains: 12, Replicates: 20, Algorithm: alg, Iterations: 600, Scans: 6,
			TuneSchedule: true, Knots: 1, Seed: 13}
		cfg.Workers = 1
		one := mustRun(t, cfg)
		cfg.Workers = 2
		two := mustRun(t, cfg)
		sameResults(t, one, two, 20, alg.String()+" workers 1 vs 2")
		cfg.Replicates = 4
		four := mustRun(t, cfg)
		cfg.Replicates = 8
		eight := mustRun(t, cfg)
		sameResults(t, four, eight, 4, alg.String()+" R=4 vs R=8")
	}
}

// TestEngineMatchesScalarOracle runs the batched engine and the scalar
// oracle (oracle_test.go) on the same small runs and compares round trips,
// rejections and schedules, replicate by replicate.
func TestEngineMatchesScalarOracle(t *testing.T) {
	for _, alg := range []Algorithm{NRPT, Reversible} {
		cfg := Config{Model: gaussian(t, 0.5), Chains: 9, Replicates: 11, Algorithm: alg, Iterations: 800, Scans: 4,
			TuneSchedule: true, Knots: 1, Seed: 17, Workers: 2}
		res := mustRun(t, cfg)
		total := 0
		for b := 0; b < cfg.Replicates; b++ {
			o := runOracle(cfg, b)
			total += o.trips
			if o.trips != res.RoundTrips[b] {
				t.Errorf("%s replicate %d: round trips engine %d, oracle %d", alg, b, res.RoundTrips[b], o.trips)
			}
			for s, rej := range o.rejection {
				got := res.History[b][s]
				sum := 0.0
				for _, r := range rej {
					sum += r
				}
				// The oracle evaluates the acceptance ratio term by term and
				// with math.Exp; the engine in factored form with its own exp:
				// agreement to rounding, not bits.
				if math.Abs(sum-got.Barrier) > 1e-9 {
					t.Errorf("%s replicate %d scan %d: barrier engine %.12f, oracle %.12f", alg, b, s+1, got.Barrier, sum)
				}
			}
			for n, x := range o.schedule {
				if math.Abs(x-res.Schedules[b][n]) > 1e-9 {
					t.Errorf("%s replicate %d: schedule[%d] engine %v, oracle %v", alg, b, n, res.Schedules[b][n], x)
					break
				}
			}
		}
		if total < 50 {
			t.Errorf("%s: only %d round trips; the comparison needs a run with many", alg, total)
		}
	}
}

// TestBetaBinomialTargetMoments checks the target chain of the paper's
// Beta-binomial against its exact posterior Beta(140180, 60840).
func TestBetaBinomialTargetMoments(t *testing.T) {
	m, err := models.NewBetaBinomial(180, 840, 140000, 60000)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Model: m, Chains: 30, Replicates: 8, Iterations: 3000, Scans: 3, TuneSchedule: true, Knots: 1, Seed: 11}
	res := mustRun(t, cfg)
	a, b := 140180.0, 60840.0
	mean := a / (a + b)
	variance := a * b / ((a + b) * (a + b) * (a + b + 1))
	// Last scan: 8 × 1000 exact (or swapped-in stationary) draws, SE(mean)
	// = sd/sqrt(8000); allow 5 SE. SE(var)/var ≈ sqrt(2/8000) = 1.6%; allow 8%.
	if d := math.Abs(res.Summary().TargetMean - mean); d > 5*math.Sqrt(variance/8000) {
		t.Errorf("target mean %.7f, want %.7f", res.Summary().TargetMean, mean)
	}
	if d := math.Abs(res.Summary().TargetVar/variance - 1); d > 0.08 {
		t.Errorf("target variance %.4g, want %.4g", res.Summary().TargetVar, variance)
	}
}

// TestReplicateOffset checks that a run of replicates [8, 20) started at
// Config.FirstReplicate = 8 gives bit for bit what those replicates give
// inside a run of 20, for an exact and a stateful model: the basis of
// sharding a run over machines.
func TestReplicateOffset(t *testing.T) {
	g, _ := models.NewGaussian(2, -1, 1, 0.3, 0.3)
	for _, m := range []models.Model{g, twoModes(t, 2, models.RandomWalk{})} {
		cfg := Config{Model: m, Chains: 10, Replicates: 20, Iterations: 600, Scans: 3, TuneSchedule: true,
			Knots: 3, TunePath: true, LearningRate: 0.3, Seed: 41}
		whole := mustRun(t, cfg)
		cfg.FirstReplicate, cfg.Replicates = 8, 12
		part := mustRun(t, cfg)
		shifted := *whole
		shifted.RoundTrips = whole.RoundTrips[8:]
		shifted.Schedules = whole.Schedules[8:]
		shifted.History = whole.History[8:]
		sameResults(t, part, &shifted, 12, "replicates 8–19 alone vs inside 0–19")
	}
}
