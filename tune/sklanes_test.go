package tune

import (
	"math/rand/v2"
	"testing"
)

// TestMomentGradientsMatchesMomentGradient checks MomentGradients against
// MomentGradient lane by lane, bit for bit: random moments, knots (K = 1
// to 6, differing between lanes) and schedules (some out of order and
// beyond [0, 1]), 2 to 41 chains, random lanes inactive (whose gradient
// must stay untouched), and all lanes inactive.
func TestMomentGradientsMatchesMomentGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 9))
	var ws LaneGradientWorkspace
	var one SKLWorkspace
	for trial := range 300 {
		numChains := 2 + trial%40
		var (
			grad   [lanes][]float64
			sched  [lanes][]float64
			path   [lanes]*Spline
			active [lanes]bool
		)
		m := LaneMoments{}
		for _, s := range []*[]float64{&m.Mean0, &m.Mean1, &m.C00, &m.C01, &m.C11} {
			*s = make([]float64, numChains*lanes)
			for i := range *s {
				(*s)[i] = rng.NormFloat64() * 5
			}
		}
		for j := range lanes {
			active[j] = trial%50 != 49 && rng.IntN(4) != 0
			path[j] = NewSpline(1 + rng.IntN(6))
			for k := 1; k < path[j].K(); k++ {
				path[j].knots[k] = [2]float64{rng.Float64() * 2, rng.Float64() * 2}
			}
			sched[j] = UniformSchedule(numChains)
			for n := 1; n < numChains-1; n++ {
				sched[j][n] += 0.4 / float64(numChains-1) * (rng.Float64() - 0.5)
			}
			if rng.IntN(4) == 0 {
				rng.Shuffle(numChains, func(a, b int) { sched[j][a], sched[j][b] = sched[j][b], sched[j][a] })
				sched[j][rng.IntN(numChains)] = -0.5
				sched[j][rng.IntN(numChains)] = 1.5
			}
			grad[j] = make([]float64, 2*(path[j].K()-1))
			for c := range grad[j] {
				grad[j][c] = 42 // overwritten where active
			}
		}
		ws.MomentGradients(&grad, &m, &sched, &path, &active)
		for j := range lanes {
			want := make([]float64, len(grad[j]))
			if active[j] {
				mean, cov := make([]float64, 2*numChains), make([]float64, 3*numChains)
				for n := range numChains {
					i := n*lanes + j
					mean[2*n], mean[2*n+1] = m.Mean0[i], m.Mean1[i]
					cov[3*n], cov[3*n+1], cov[3*n+2] = m.C00[i], m.C01[i], m.C11[i]
				}
				one.MomentGradient(want, mean, cov, sched[j], path[j])
			} else {
				for c := range want {
					want[c] = 42
				}
			}
			for c := range want {
				if !sameBits(grad[j][c], want[c]) {
					t.Fatalf("trial %d, lane %d (active %v, %d chains, K=%d): got %v, want %v", trial, j, active[j], numChains, path[j].K(), grad[j], want)
				}
			}
		}
	}
}
