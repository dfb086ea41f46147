package batch

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/models"
)

// flatModel is a model whose W0 and W1 are both 0: every swap's log
// acceptance is exactly 0, so every swap is accepted (α = 1 ≥ U for every
// uniform U on (0, 1]), and the index process of NRPT is deterministic.
// Its moves (random walk on a flat density) are not exact draws, as a
// second leg needs.
func flatModel(t *testing.T) models.Model {
	t.Helper()
	zero := func([]float64) float64 { return 0 }
	m, err := models.FromFuncs(models.Funcs{Dim: 1, LogReference: zero, LogTarget: zero,
		SampleReference: func(r models.Rand, x []float64) { x[0] = r.Normal() }}, models.RandomWalk{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// arrivals returns #{k ≥ 0 : a0 + 2k + lag ≤ m}, the number of events at
// the iterations a0 + 2k + lag up to iteration m.
func arrivals(a0, lag, m int) int {
	if m-lag-a0 < 0 {
		return 0
	}
	return (m-lag-a0)/2 + 1
}

// TestLegCountsWhenEverySwapIsAccepted checks each leg's round trips and
// restarts against their exact values on two lines of unequal legs, C1 = 5,
// C2 = 3 (N = 8 chains) and C1 = 4, C2 = 7 (N = 11), at the end of every
// scan.
//
// Derivation. With every swap accepted, NRPT swaps the pairs (n, n+1) with
// n ≡ m (mod 2) at iteration m, so a replica moving up at chain n moves
// up again at the next iteration, and each replica bounces along the whole
// line 0 … N−1, the junction between the target chains C1−1 and C1
// included. Chain 0 swaps with chain 1 at every even m: a replica arrives
// at chain 0 at every even iteration a (and replica 0 is there at a = 0),
// waits one iteration (pair (0, 1) is idle at a+1), climbs one chain per
// iteration to reach chain C1−1, its first target chain, at a+C1 (a leg-1
// restart), and chain N−1 at a+N; it waits there (pair (N−2, N−1) is idle
// at a+N+1, as a+N+1 ≢ N−2) and comes down to chain 0 at a+2N, having
// passed the target chains: a leg-1 round trip. Over m iterations leg 1
// therefore has #{a ∈ {0, 2, …}: a+C1 ≤ m} restarts and #{a: a+2N ≤ m}
// round trips. Leg 2 is the mirror image (chain n ↔ N−1−n), whose pair
// n ↔ N−2−n swaps at m ≡ N−n: arrivals at chain N−1 come at the
// iterations a ≡ N (mod 2), from a0 = 0 for N even, and for N odd from
// a0 = −1 (replica N−1 moves down at m = 1 at once, as one arrived at
// a = −1 would), with restarts at a+C2 and round trips at a+2N. Every
// replica reaches a target chain between two visits to either
// reference, since C1−1 ≥ 1 and C1 ≤ N−2.
func TestLegCountsWhenEverySwapIsAccepted(t *testing.T) {
	for _, legs := range [][2]int{{5, 3}, {4, 7}} {
		c1, c2 := legs[0], legs[1]
		n := c1 + c2
		rs := new(Restarts)
		cfg := Config{Model: flatModel(t), Chains: n, VariationalLeg: c2, Replicates: 3, Iterations: 120, Scans: 4,
			Knots: 1, Seed: 5, Statistics: []Statistic{rs}}
		e := newEngine(t, cfg)
		for !e.Done() {
			if err := e.Step(t.Context()); err != nil {
				t.Fatal(err)
			}
			m := e.Scans() * e.perScan
			a2 := -(n & 1)
			want := [2]Leg{
				{Chains: c1, RoundTrips: arrivals(0, 2*n, m), Restarts: arrivals(0, c1, m)},
				{Chains: c2, RoundTrips: arrivals(a2, 2*n, m), Restarts: arrivals(a2, c2, m)},
			}
			res := e.Result()
			if len(res.Legs) != cfg.Replicates {
				t.Fatalf("%d replicates' legs, want %d", len(res.Legs), cfg.Replicates)
			}
			for b, got := range res.Legs {
				for l := range got {
					g := got[l]
					if g.Chains != want[l].Chains || g.RoundTrips != want[l].RoundTrips || g.Restarts != want[l].Restarts || g.Barrier != 0 {
						t.Errorf("C1 = %d, C2 = %d, %d iterations, replicate %d, leg %d: %+v, want %+v", c1, c2, m, b, l+1, g, want[l])
					}
				}
				if sum := want[0].RoundTrips + want[1].RoundTrips; res.RoundTrips[b] != sum {
					t.Errorf("replicate %d: %d round trips, want the legs' sum %d", b, res.RoundTrips[b], sum)
				}
				if sum := want[0].Restarts + want[1].Restarts; rs.Counts()[b] != sum {
					t.Errorf("replicate %d: Restarts counts %d, want the legs' sum %d", b, rs.Counts()[b], sum)
				}
			}
		}
	}
}

// scalarLegCounts counts each leg's round trips and restarts from the
// index process alone, one replica at a time: pos[m][r] is replica r's
// chain after iteration m+1. It is the plain form of the definitions of
// Leg, written apart from the engine's counter (which works chain by
// chain): leg L's reference is chain 0 (leg 1) or chains−1 (leg 2), the
// target chains are c1−1 and c1, and replica r starts at chain r.
func scalarLegCounts(pos [][]int, chains, c1 int) (trips, restarts [2]int) {
	refs := [2]int{0, chains - 1}
	for l, ref := range refs {
		for r := 0; r < chains; r++ {
			been, fresh, up := r == ref, r == ref, false
			for _, p := range pos {
				n := p[r]
				if n == c1-1 || n == c1 {
					if fresh {
						restarts[l]++
						fresh = false
					}
					up = up || been
				}
				if n == ref {
					if up {
						trips[l]++
						up = false
					}
					been, fresh = true, true
				}
			}
		}
	}
	return trips, restarts
}

// TestLegCountsMatchTheIndexProcess runs the paper's Gaussian (σ = 0.1)
// with a second leg of unequal length (C1 = 9, C2 = 5) under NRPT and
// reversible PT, records the whole index process the engine's own swap
// decisions made (IndexProcess), and checks each leg's round trips and
// restarts against scalarLegCounts of that record.
func TestLegCountsMatchTheIndexProcess(t *testing.T) {
	const c1, c2, iters = 9, 5, 3000
	for _, alg := range []Algorithm{NRPT, Reversible} {
		pos := map[int][][]int{}
		ip := &IndexProcess{Write: func(b, m int, chains []int) error {
			pos[b] = append(pos[b], append([]int(nil), chains...))
			return nil
		}}
		cfg := Config{Model: walkGaussian(t), Chains: c1 + c2, VariationalLeg: c2, Replicates: 4, Algorithm: alg,
			Iterations: iters, Scans: 3, TuneSchedule: true, Knots: 1, Seed: 9, Statistics: []Statistic{ip}}
		res := mustRun(t, cfg)
		if len(res.Legs) != cfg.Replicates || len(pos) != cfg.Replicates {
			t.Fatalf("%d replicates' legs and %d index processes, want %d", len(res.Legs), len(pos), cfg.Replicates)
		}
		total := 0
		for b, legs := range res.Legs {
			trips, restarts := scalarLegCounts(pos[b], c1+c2, c1)
			for l := range legs {
				if legs[l].RoundTrips != trips[l] || legs[l].Restarts != restarts[l] {
					t.Errorf("%s replicate %d leg %d: %d round trips and %d restarts, the index process has %d and %d",
						alg, b, l+1, legs[l].RoundTrips, legs[l].Restarts, trips[l], restarts[l])
				}
				total += trips[l]
			}
		}
		if total == 0 {
			t.Errorf("%s: no round trips at all; the test compares nothing", alg)
		}
		t.Logf("%s: legs %+v", alg, res.Legs[0])
	}
}

// walkGaussian is a non-exact Gaussian of FromFuncs: N(−1, 0.5²) →
// N(1, 0.5²) in one dimension (Λ ≈ 2.3 on the linear path), explored by
// random-walk Metropolis.
func walkGaussian(t *testing.T) models.Model {
	t.Helper()
	g := gaussian(t, 0.5)
	m, err := models.FromFuncs(g.Funcs(), models.RandomWalk{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSecondLegRefusals checks Validate's refusals of a bad second leg.
func TestSecondLegRefusals(t *testing.T) {
	g := gaussian(t, 0.1)
	stab := stabilizedGaussian(t, 2)
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Model: walkGaussian(t), Chains: 10, VariationalLeg: 1}, "at least 2 chains"},
		{Config{Model: walkGaussian(t), Chains: 10, VariationalLeg: 9}, "leaves 1 of the 10 chains"},
		{Config{Model: g, Chains: 10, VariationalLeg: 4}, "not exact draws"},
		{Config{Model: stab, Chains: 10}, "needs a second leg"},
	} {
		c.cfg.Replicates, c.cfg.Iterations, c.cfg.Scans = 1, 10, 1
		err := c.cfg.Validate()
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != "VariationalLeg" || !containsText(err.Error(), c.want) {
			t.Errorf("%+v: %v, want a VariationalLeg error with %q", c.cfg.VariationalLeg, err, c.want)
		}
	}
}

func containsText(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// stabilizedGaussian returns the 2-d Gaussian N(−1·1, 0.3² I) →
// N(1·1, 0.3² I) under MALA with the stabilised reference, refitted over
// the first fitScans scans.
func stabilizedGaussian(t *testing.T, fitScans int) models.Model {
	t.Helper()
	g, err := models.NewGaussian(2, -1, 1, 0.3, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	m, err := models.Stabilized(g, models.MALA{}, fitScans)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// stabilizedSmall is a cheap two-leg run for the invariance tests: the
// 2-d Gaussian of stabilizedGaussian, 10 chains of which 4 on leg 2,
// refitted over the first 4 of 6 scans, 20 replicates (three blocks of
// lanes), with a tuned spline on leg 1.
func stabilizedSmall(t *testing.T) Config {
	return Config{Model: stabilizedGaussian(t, 4), Chains: 10, VariationalLeg: 4, Replicates: 20, Iterations: 600,
		Scans: 6, TuneSchedule: true, Knots: 3, TunePath: true, LearningRate: 0.3, Seed: 31}
}

// TestStabilizedInvariance checks a two-leg run of the stabilised
// reference for parallelism invariance: checkpointed at a scan's end and
// within a scan, on 1 worker, and resumed on 3, it gives the Result and
// every statistic of the run on 2 workers bit for bit (checkResume), under
// the paper's tuning and the automatic tuner (whose leg-2 rejections are
// pooled over its rounds); replicates 11..15 alone give what they give
// inside the run of 20 (checkAloneOrInBatch).
func TestStabilizedInvariance(t *testing.T) {
	cfg := stabilizedSmall(t)
	t.Run("scan-end", func(t *testing.T) { checkResume(t, cfg, 3, 0) })
	t.Run("within-scan", func(t *testing.T) { checkResume(t, cfg, 3, cfg.Iterations/cfg.Scans/3) })
	t.Run("alone-or-in-batch", func(t *testing.T) {
		checkAloneOrInBatch(t, cfg)
		all := mustRun(t, cfg)
		part := cfg
		part.FirstReplicate, part.Replicates, part.Workers = 11, 5, 1
		for b, legs := range mustRun(t, part).Legs {
			if legs != all.Legs[11+b] {
				t.Errorf("replicate %d alone has legs %+v, in the batch %+v", 11+b, legs, all.Legs[11+b])
			}
		}
	})
	auto := Config{Model: stabilizedGaussian(t, 150), Chains: 10, VariationalLeg: 4, Replicates: 17, Iterations: 2400,
		Scans: 300, TuneSchedule: true, Knots: 3, TunePath: true, Tuning: AutoTuning, Seed: 41}
	t.Run("auto/within-round", func(t *testing.T) { checkResume(t, auto, 6, 4) })
	t.Run("auto/frozen", func(t *testing.T) { checkResume(t, auto, 150, 0) })
}

// TestStabilizedSameOnEveryKernelTier checks that a two-leg run gives the
// same Result, bit for bit, under every kernel implementation this CPU
// and build offer (with -tags purego, the generic ones alone).
func TestStabilizedSameOnEveryKernelTier(t *testing.T) {
	cfg := stabilizedSmall(t)
	var want string
	for _, impl := range kernel.Impls() {
		restore, err := kernel.SetImpl(impl)
		if err != nil {
			t.Fatal(err)
		}
		got := resultText(mustRun(t, cfg))
		restore()
		if want == "" {
			want = got
		} else if got != want {
			t.Errorf("kernel %s gives another result than %s", impl, kernel.Impls()[0])
		}
	}
}

// TestStabilizedLogZ checks log Z of a two-leg stabilised run on a
// Gaussian with a closed form, N(0, 1) → N(3, 0.5²) in one dimension
// (log(Z1/Z0) = log(0.5/1) = −ln 2 for the model's own normal densities,
// models.Gaussian.ExactLogZ), within 3 standard errors across replicates:
// the stepping stone runs along leg 1, from the model's own reference, so
// the fitted reference of leg 2 does not change what it estimates.
func TestStabilizedLogZ(t *testing.T) {
	const scans, keep = 12, 4
	g, err := models.NewGaussian(1, 0, 3, 1, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	m, err := models.Stabilized(g, models.AutoMALA{}, scans-keep)
	if err != nil {
		t.Fatal(err)
	}
	lz := &LogZ{FromScan: scans - keep + 1}
	cfg := Config{Model: m, Chains: 20, VariationalLeg: 8, Replicates: 10, Iterations: 2400, Scans: scans,
		KeepScans: keep, TuneSchedule: true, Knots: 1, Seed: 22, Statistics: []Statistic{lz}}
	res := mustRun(t, cfg)
	logZ, se := lz.Estimate()
	t.Logf("legs %+v, log Z = %.4f ± %.4f (exact %v)", res.Legs[0], logZ, se, g.ExactLogZ())
	if !(math.Abs(logZ-g.ExactLogZ()) <= 3*se) {
		t.Errorf("log Z = %v ± %v, more than 3 se from the closed form %v", logZ, se, g.ExactLogZ())
	}
}

// junctionCheck is a Statistic that checks, after every iteration, that
// the W0 the engine holds for the state at the target chain (View.
// Energies) is the model's own W0 of that state (f.LogReference of
// View.ObserveTarget's coordinates, in one dimension the whole state).
type junctionCheck struct {
	f      models.Funcs
	errs   []string
	checks int
}

func (c *junctionCheck) NewObserver(BlockInfo) Observer { return c }

// Iterate compares the energies of every lane (blocks share the check,
// so the test runs on one worker).
func (c *junctionCheck) Iterate(v *View) {
	x := make([]float64, 1)
	for j := 0; j < 8; j++ {
		v.ObserveTarget(x, j)
		w0, _ := v.Energies(v.TargetChain(), j)
		if want := c.f.LogReference(x); w0 != want && len(c.errs) < 5 {
			c.errs = append(c.errs, fmt.Sprintf("iteration %d lane %d: W0 = %v, the model's own W0 is %v", v.Iteration, j, w0, want))
		}
		c.checks++
	}
}

func (c *junctionCheck) EndScan(*View) {}

// TestStabilizedJunctionEnergies checks that the state at leg 1's target
// chain always carries the model's own W0, also right after the swap
// across the junction has brought it from leg 2, where its W0 was the
// fitted reference's (models.LegChanger): the stepping stone of log Z
// reads it.
func TestStabilizedJunctionEnergies(t *testing.T) {
	g, err := models.NewGaussian(1, 0, 3, 1, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	m, err := models.Stabilized(g, models.AutoMALA{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	jc := &junctionCheck{f: g.Funcs()}
	cfg := Config{Model: m, Chains: 12, VariationalLeg: 5, Replicates: 8, Iterations: 600, Scans: 6,
		TuneSchedule: true, Knots: 1, Seed: 3, Workers: 1, Statistics: []Statistic{jc}}
	mustRun(t, cfg)
	for _, e := range jc.errs {
		t.Error(e)
	}
	if jc.checks != 8*600 {
		t.Errorf("%d checks, want %d", jc.checks, 8*600)
	}
}

// TestLegSchedules checks each leg's schedule after tuning, under the
// paper's tuning with the block and the full-covariance gradient and under
// the automatic tuner: leg 1 rises from exactly 0 at chain 0 to exactly 1
// at chain C1−1, leg 2 falls from exactly 1 at chain C1 to exactly 0 at
// the last chain, both strictly (eq:equicrit keeps the ends and the
// order), and leg 2's rejections, on the linear path from the fitted
// Gaussian, sum to less than leg 1's on the 2-d Gaussian of
// stabilizedGaussian (σ = 0.3 at distance 2√2: Λ = 2√2/(0.3√π) ≈ 5.3 on
// leg 1's linear path, the slope of exactLinearRejection; leg 2's fitted
// reference is the target itself up to sampling error, so its Λ is near
// 0).
// StabilizedDense's leg 2 is checked too.
func TestLegSchedules(t *testing.T) {
	dense := func() models.Model {
		g, _ := models.NewGaussian(2, -1, 1, 0.3, 0.3)
		m, err := models.StabilizedDense(g, models.MALA{}, 20)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	base := Config{Model: stabilizedGaussian(t, 20), Chains: 14, VariationalLeg: 6, Replicates: 4, Iterations: 3000,
		Scans: 30, TuneSchedule: true, Knots: 1, Seed: 17}
	full := base
	full.Knots, full.TunePath, full.LearningRate, full.Gradient = 3, true, 0.2, FullGradient
	auto := base
	auto.Knots, auto.TunePath, auto.Tuning = 3, true, AutoTuning
	withDense := base
	withDense.Model = dense()
	for name, cfg := range map[string]Config{"paper": base, "full-gradient": full, "auto": auto, "dense": withDense} {
		res := mustRun(t, cfg)
		c1 := cfg.Chains - cfg.VariationalLeg
		for b, s := range res.Schedules {
			ok := s[0] == 0 && s[c1-1] == 1 && s[c1] == 1 && s[cfg.Chains-1] == 0
			for n := 1; n < c1; n++ {
				ok = ok && s[n] > s[n-1]
			}
			for n := c1 + 1; n < cfg.Chains; n++ {
				ok = ok && s[n] < s[n-1]
			}
			if !ok {
				t.Errorf("%s replicate %d: schedule %v is not two monotone legs", name, b, s)
			}
			if l := res.Legs[b]; !(l[1].Barrier < l[0].Barrier) || res.Rejections[b][c1-1] != 0 {
				t.Errorf("%s replicate %d: legs %+v, junction rejection %v", name, b, l, res.Rejections[b][c1-1])
			}
		}
		t.Logf("%s: legs %+v", name, res.Legs[0])
	}
}
