package batch

import (
	"math"
	"slices"
	"testing"

	"github.com/ptbatch/ptbatch/models"
)

// TestRestartsBoundRoundTrips checks on a run with many round trips
// (Gaussian N(-1, 0.1²) → N(1, 0.1²), Λ = 11.3, 30 chains, 16 replicates,
// 16000 iterations in 4 scans: about 400 round trips per replicate with
// NRPT, 150 with reversible PT) that every round trip contains one restart
// — round trips ≤ restarts ≤ round trips + chains, per replicate, at the end
// of every scan — and that the restart rate agrees with the round-trip
// rate within Monte Carlo error over scans 2 to 4. (Over the whole run the
// rates differ by up to chains/iterations: at the end about half the
// replicas have made the restart of a round trip they have not finished,
// 15 of 30 here, a bias of 0.0009 against a standard error of 0.0002 of
// the rate. After the first scan the number of such replicas is
// stationary, so their change over scans 2 to 4 has mean zero.) The test
// is that the mean over replicates of the difference of the two rates is
// within 4 of its standard errors (across replicates), and within 4
// standard errors of the round-trip rate.
func TestRestartsBoundRoundTrips(t *testing.T) {
	for _, alg := range []Algorithm{NRPT, Reversible} {
		rs := new(Restarts)
		const chains, iters, scans, reps = 30, 16000, 4, 16
		cfg := Config{Model: gaussian(t, 0.1), Chains: chains, Replicates: reps, Algorithm: alg, Iterations: iters, Scans: scans,
			Knots: 1, Seed: 13, Statistics: []Statistic{rs}}
		e, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var trips1, restarts1 []int // at the end of scan 1
		for !e.Done() {
			if err := e.Step(t.Context()); err != nil {
				t.Fatal(err)
			}
			res := e.Result()
			for b, rt := range res.RoundTrips {
				if r := rs.Counts()[b]; r < rt || r > rt+chains {
					t.Fatalf("%s, scan %d, replicate %d: %d restarts, %d round trips", alg, e.Scans(), b, r, rt)
				}
			}
			if e.Scans() == 1 {
				trips1, restarts1 = res.RoundTrips, rs.Counts()
			}
		}
		res := e.Result()
		total, restarts := 0, 0
		const n = iters * (scans - 1) / scans
		var rtRate, rsRate, diff []float64
		for b, rt := range res.RoundTrips {
			total += rt
			restarts += rs.Counts()[b]
			rtRate = append(rtRate, float64(rt-trips1[b])/n)
			rsRate = append(rsRate, float64(rs.Counts()[b]-restarts1[b])/n)
			diff = append(diff, rsRate[b]-rtRate[b])
		}
		if want := map[Algorithm]int{NRPT: 300, Reversible: 100}[alg]; total < reps*want {
			t.Fatalf("%s: only %d round trips: not a run with many", alg, total)
		}
		mRT, seRT := meanSE(rtRate)
		mRS, seRS := meanSE(rsRate)
		mD, seD := meanSE(diff)
		t.Logf("%s: %d round trips, %d restarts; per iteration over scans 2-%d: round trips %.5f ± %.5f, restarts %.5f ± %.5f, difference %.6f ± %.6f",
			alg, total, restarts, scans, mRT, seRT, mRS, seRS, mD, seD)
		if math.Abs(mD) > 4*seD || math.Abs(mD) > 4*seRT {
			t.Errorf("%s: restart rate %.5f ± %.5f, round-trip rate %.5f ± %.5f: difference %.6f ± %.6f",
				alg, mRS, seRS, mRT, seRT, mD, seD)
		}
		// Restarts' own rates are its counts over the iterations.
		if r := rs.Rates()[0]; r != float64(rs.Counts()[0])/iters {
			t.Errorf("%s: rate %g, count %d over %d iterations", alg, r, rs.Counts()[0], iters)
		}
		if r := rs.ScanRates()[0]; r != float64(rs.ScanCounts()[0])/(iters/scans) {
			t.Errorf("%s: last-scan rate %g, count %d", alg, r, rs.ScanCounts()[0])
		}
	}
}

// TestRestartsMatchIndexProcess recounts restarts and round trips from the
// definition on the whole index process, recorded by IndexProcess, of a
// small run of an exact and of a stateful model, and compares them with
// Restarts and Result.RoundTrips.
func TestRestartsMatchIndexProcess(t *testing.T) {
	g, _ := models.NewGaussian(1, -1, 1, 0.5, 0.5)
	for _, m := range []models.Model{g, twoModes(t, 1, models.RandomWalk{})} {
		const chains, reps = 5, 10
		// chain[b][m-1][r] is the chain of replica r after iteration m.
		chain := make([][][]int, reps)
		ip := &IndexProcess{Write: func(b, it int, chains []int) error {
			if it != len(chain[b])+1 {
				t.Fatalf("replicate %d: iteration %d after %d", b, it, len(chain[b]))
			}
			chain[b] = append(chain[b], slices.Clone(chains))
			return nil
		}}
		rs := new(Restarts)
		cfg := Config{Model: m, Chains: chains, Replicates: reps, Iterations: 600, Scans: 3, TuneSchedule: true, Knots: 1, Seed: 5,
			Statistics: []Statistic{ip, rs}}
		res := mustRun(t, cfg)
		for b := 0; b < reps; b++ {
			restarts, trips := 0, 0
			for r := 0; r < chains; r++ {
				atZero, fromZero, reachedTop := r == 0, r == 0, false
				for _, c := range chain[b] {
					switch c[r] {
					case chains - 1:
						if fromZero {
							restarts++
							fromZero = false
						}
						if atZero {
							reachedTop = true
						}
					case 0:
						if reachedTop {
							trips++
							reachedTop = false
						}
						atZero, fromZero = true, true
					}
				}
			}
			if restarts != rs.Counts()[b] || trips != res.RoundTrips[b] {
				t.Errorf("%T replicate %d: %d restarts and %d round trips by definition; Restarts %d, Result %d",
					m, b, restarts, trips, rs.Counts()[b], res.RoundTrips[b])
			}
		}
	}
}
