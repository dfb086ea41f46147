package tune_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/internal/gaussexact"
	"github.com/ptbatch/ptbatch/tune"
)

// exactAutoRun drives an automatic tuner with the closed forms of a
// one-dimensional Gaussian pair: every scan of scanIters iterations draws
// exact independent energies at every chain (gaussexact.SampleEnergies),
// as an exact local exploration does, and reports the exact rejections
// (gaussexact.ScheduleRejections) times scanIters as its rejection sums.
type exactAutoRun struct {
	g        gaussexact.GaussianPair
	pcg      *rand.PCG
	rng      *rand.Rand
	auto     *tune.Auto
	path     *tune.Spline
	sched    []float64
	scanIter int
	energies []float64
	scan     tune.AutoScan
}

func newExactAutoRun(g gaussexact.GaussianPair, numChains, numKnots, scanIters int, opts tune.AutoOptions, seed uint64) *exactAutoRun {
	pcg := rand.NewPCG(seed, 17)
	return &exactAutoRun{
		g:        g,
		pcg:      pcg,
		rng:      rand.New(pcg),
		auto:     tune.NewAuto(numChains, numKnots, opts),
		path:     tune.NewSpline(numKnots),
		sched:    tune.UniformSchedule(numChains),
		scanIter: scanIters,
		energies: make([]float64, scanIters*2*numChains),
		scan: tune.AutoScan{Iters: scanIters, Mean: make([]float64, 2*numChains), M2: make([]float64, 3*numChains),
			RejSum: make([]float64, numChains-1)},
	}
}

// step runs one scan and hands it to the tuner; it returns EndScan's
// answer.
func (r *exactAutoRun) step(t *testing.T) bool {
	t.Helper()
	m, c := r.scanIter, len(r.sched)
	r.g.SampleEnergies(r.rng, r.path, r.sched, m, r.energies)
	for n := 0; n < c; n++ {
		var s0, s1 float64
		for it := 0; it < m; it++ {
			s0 += r.energies[it*2*c+2*n]
			s1 += r.energies[it*2*c+2*n+1]
		}
		m0, m1 := s0/float64(m), s1/float64(m)
		var q00, q01, q11 float64
		for it := 0; it < m; it++ {
			d0, d1 := r.energies[it*2*c+2*n]-m0, r.energies[it*2*c+2*n+1]-m1
			q00 += d0 * d0
			q01 += d0 * d1
			q11 += d1 * d1
		}
		r.scan.Mean[2*n], r.scan.Mean[2*n+1] = m0, m1
		r.scan.M2[3*n], r.scan.M2[3*n+1], r.scan.M2[3*n+2] = q00, q01, q11
	}
	rej, err := r.g.ScheduleRejections(r.path, r.sched)
	if err != nil {
		t.Fatal(err)
	}
	for n, x := range rej {
		r.scan.RejSum[n] = x * float64(m)
	}
	return r.auto.EndScan(r.sched, r.path, r.scan)
}

// TestAutoReachesTheFamilysBest runs the automatic tuner on the paper's
// Gaussian N(-1, 0.01²) → N(1, 0.01²) with 50 chains and K = 4, scans of
// 90 iterations and the budget of half the paper's 45,000 iterations, on
// exact draws, for two seeds. The linear path has Λ = 200/√π ≈ 112.8;
// the best 2-knot path Λ*₂ = 6.4455 (gaussexact.OptimalKnots), an upper
// bound on the 4-knot family's best (6.438). Each run must stop within the
// budget and end with Λ ≤ 1.02 Λ*₂; after the stop, EndScan changes
// nothing.
func TestAutoReachesTheFamilysBest(t *testing.T) {
	g := gaussexact.GaussianPair{Dim: 1, Mu0: -1, Mu1: 1, Sigma0: 0.01, Sigma1: 0.01}
	_, best := g.OptimalKnots(2)
	opts := tune.AutoOptions{Budget: 22500, FirstRound: 90, Path: true, Schedule: true}
	for seed := uint64(1); seed <= 2; seed++ {
		r := newExactAutoRun(g, 50, 4, 90, opts, seed)
		scans := 0
		for !r.auto.Frozen() {
			r.step(t)
			scans++
		}
		lam := g.Barrier(r.path)
		t.Logf("seed %d: stopped after %d rounds, %d iterations; Λ = %.4f (Λ*₂ = %.4f)", seed, r.auto.Rounds(), r.auto.Used(), lam, best)
		if r.auto.Used() > opts.Budget || r.auto.Used() != 90*scans {
			t.Errorf("seed %d: used %d iterations in %d scans, budget %d", seed, r.auto.Used(), scans, opts.Budget)
		}
		if !(lam <= 1.02*best) {
			t.Errorf("seed %d: tuned Λ = %.4f, want at most 1.02 × %.4f", seed, lam, best)
		}
		knots, sched := r.path.Knots(), slices.Clone(r.sched)
		for i := 0; i < 5; i++ {
			if r.step(t) {
				t.Fatalf("seed %d: EndScan changed the path after the stop", seed)
			}
		}
		if !slices.Equal(knots, r.path.Knots()) || !slices.Equal(sched, r.sched) {
			t.Errorf("seed %d: path or schedule changed after the stop", seed)
		}
	}
}

// TestAutoRounds checks the rounds' lengths and the stop on a flat SKL:
// with the schedule and the path fixed (Schedule and Path false) and the
// same exact moments in every scan, every round's SKL estimate is the
// same, so from round flatLag+1 = 4 on every round is flat and doubles the
// next: rounds of 40, 40, 40, 40, 80, 160, … iterations. The tuning stops
// at the second flat round in a row once the SKL's relative standard
// error Σ z Cov z / M is at most 1%, here at a round of 640 iterations,
// and otherwise when the next round no longer fits in the budget.
func TestAutoRounds(t *testing.T) {
	g := gaussexact.GaussianPair{Dim: 1, Mu0: -1, Mu1: 1, Sigma0: 0.5, Sigma1: 0.5}
	const c, k = 6, 2
	path, sched := tune.NewSpline(k), tune.UniformSchedule(c)
	scan := tune.AutoScan{Iters: 10, Mean: make([]float64, 2*c), M2: make([]float64, 3*c), RejSum: make([]float64, c-1)}
	varSum := 0.0 // Σ_n z_nᵀ Cov_n z_n, so that the SKL's variance over M iterations is varSum/M
	eta := make([]float64, 2*c)
	for n, ti := range sched {
		eta[2*n], eta[2*n+1] = path.Eta(ti)
	}
	z := make([]float64, 2*c)
	tune.Laplacian(z, eta)
	skl := 0.0
	for n, ti := range sched {
		e0, e1 := path.Eta(ti)
		mu, cov := g.Moments(e0, e1)
		scan.Mean[2*n], scan.Mean[2*n+1] = mu[0], mu[1]
		// M2 of a scan whose sample covariance is the exact one.
		scan.M2[3*n], scan.M2[3*n+1], scan.M2[3*n+2] = 9*cov[0][0], 9*cov[0][1], 9*cov[1][1]
		varSum += z[2*n]*z[2*n]*cov[0][0] + 2*z[2*n]*z[2*n+1]*cov[0][1] + z[2*n+1]*z[2*n+1]*cov[1][1]
		skl += z[2*n]*mu[0] + z[2*n+1]*mu[1]
	}
	// The round of M iterations has relative standard error
	// √(varSum/M)/SKL; find the first doubling that reaches 1%.
	wantLens := []int{40, 40, 40, 40}
	for m := 80; ; m *= 2 {
		wantLens = append(wantLens, m)
		if math.Sqrt(varSum/float64(m)) <= 0.01*skl && len(wantLens) >= 6 {
			break
		}
	}
	t.Logf("SKL %.4f, Σ z Cov z %.4f: rounds %v", skl, varSum, wantLens)
	a := tune.NewAuto(c, k, tune.AutoOptions{Budget: 1 << 20, FirstRound: 40})
	var lens []int
	iters := 0
	for !a.Frozen() {
		iters += scan.Iters
		if a.EndScan(sched, path, scan) {
			lens = append(lens, iters)
			iters = 0
		}
	}
	if !slices.Equal(lens, wantLens) {
		t.Errorf("rounds of %v iterations, want %v", lens, wantLens)
	}

	// A budget of 500 iterations ends the tuning when the next round no
	// longer fits: after rounds of 40, 40, 40, 40, 80 and 160 iterations
	// (400 in all) the next would take 320.
	a = tune.NewAuto(c, k, tune.AutoOptions{Budget: 500, FirstRound: 40})
	for !a.Frozen() {
		a.EndScan(sched, path, scan)
	}
	if a.Used() != 400 || a.Rounds() != 6 {
		t.Errorf("budget 500: used %d iterations in %d rounds, want 400 in 6", a.Used(), a.Rounds())
	}
}

// TestAutoMarshalRoundTrip checks that a tuner restored from its binary
// form in the middle of a round takes the same decisions as the original,
// and that other options or damaged data are refused.
func TestAutoMarshalRoundTrip(t *testing.T) {
	g := gaussexact.GaussianPair{Dim: 1, Mu0: -1, Mu1: 1, Sigma0: 0.05, Sigma1: 0.05}
	opts := tune.AutoOptions{Budget: 3000, FirstRound: 30, Path: true, Schedule: true}
	r := newExactAutoRun(g, 12, 3, 10, opts, 5)
	for i := 0; i < 37; i++ { // 370 iterations: 12 rounds of 30, and 10 into the 13th
		r.step(t)
	}
	data, err := r.auto.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	restored := tune.NewAuto(12, 3, opts)
	if err := restored.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	twin := *r
	twin.auto = restored
	twin.path = r.path.Clone()
	twin.sched = slices.Clone(r.sched)
	pcg := *r.pcg
	twin.pcg, twin.rng = &pcg, rand.New(&pcg)
	for !r.auto.Frozen() {
		a, b := r.step(t), twin.step(t)
		if a != b || !slices.Equal(r.path.Knots(), twin.path.Knots()) || !slices.Equal(r.sched, twin.sched) {
			t.Fatalf("the restored tuner decides differently")
		}
	}
	if !twin.auto.Frozen() || twin.auto.Used() != r.auto.Used() || twin.auto.Rounds() != r.auto.Rounds() {
		t.Errorf("restored: frozen %v, used %d in %d rounds; original used %d in %d", twin.auto.Frozen(),
			twin.auto.Used(), twin.auto.Rounds(), r.auto.Used(), r.auto.Rounds())
	}
	other := tune.NewAuto(12, 3, tune.AutoOptions{Budget: 3001, FirstRound: 30, Path: true, Schedule: true})
	if err := other.UnmarshalBinary(data); err == nil {
		t.Error("data of another budget accepted")
	}
	if err := tune.NewAuto(12, 3, opts).UnmarshalBinary(data[:len(data)-3]); err == nil {
		t.Error("truncated data accepted")
	}
	if err := tune.NewAuto(13, 3, opts).UnmarshalBinary(data); err == nil {
		t.Error("data of 12 chains accepted by a tuner of 13")
	}
}
