package batch

import (
	"math"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/tune"
)

// oracleResult is what the scalar oracle measures for one replicate.
type oracleResult struct {
	trips     int
	rejection [][]float64 // per scan, per pair: mean rejection
	schedule  []float64
	replica   []int // final replica at each chain
}

// runOracle is the simplest correct engine for one replicate b: alg:NRPT
// (or reversible PT) written with scalar loops over the model's Scalar
// reference, drawing lane b's random numbers in the engine's order:
// exploration, [a coin for reversible], then numChains/2 swap uniforms,
// the k-th used by pair 2k+parity. It shares nothing with the engine but
// the random streams and tune.UpdateSchedule.
func runOracle(cfg Config, b int) oracleResult {
	c := cfg.Chains
	s := kernel.NewStream(cfg.Seed, b)
	lane := s.Lane(0)
	sc := cfg.Model.(models.Referenced).Scalar()
	exact := models.IsExact(cfg.Model)
	sched := tune.UniformSchedule(c)
	eta := func(t float64) (float64, float64) { return 1 - t, t } // linear path
	states, w0s, w1s := sc.Init(lane, c)
	slotAt := make([]int, c) // slot (= replica) at chain n
	chainOf := make([]int, c)
	for n := range slotAt {
		slotAt[n], chainOf[n] = n, n
	}
	leftZero := make([]bool, c)
	reachedTop := make([]bool, c)
	leftZero[0] = true
	var res oracleResult
	perScan := cfg.Iterations / cfg.Scans
	m := 0
	for scan := 0; scan < cfg.Scans; scan++ {
		rej := make([]float64, c-1)
		for k := 0; k < perScan; k++ {
			m++
			// Local exploration: rows are chains for exact samplers, slots otherwise.
			e0 := make([]float64, c)
			e1 := make([]float64, c)
			chains := make([]int, c)
			for row := 0; row < c; row++ {
				n := row
				if !exact {
					n = chainOf[row]
				}
				e0[row], e1[row] = eta(sched[n])
				chains[row] = n
			}
			w0s, w1s = sc.Explore(lane, states, e0, e1, chains)
			energy := func(n int) (float64, float64) { // energies of the state at chain n
				if exact {
					return w0s[n], w1s[n]
				}
				return w0s[slotAt[n]], w1s[slotAt[n]]
			}
			alpha := make([]float64, c-1)
			for n := 0; n < c-1; n++ {
				a0, a1 := eta(sched[n])
				b0, b1 := eta(sched[n+1])
				x0, x1 := energy(n)
				y0, y1 := energy(n + 1)
				// log of π_n(y)π_{n+1}(x) / (π_n(x)π_{n+1}(y))
				lr := (a0*y0 + a1*y1) + (b0*x0 + b1*x1) - (a0*x0 + a1*x1) - (b0*y0 + b1*y1)
				switch {
				case math.IsNaN(lr):
					alpha[n] = 0
				case lr >= 0:
					alpha[n] = 1
				default:
					alpha[n] = math.Exp(lr)
				}
				rej[n] += 1 - alpha[n]
			}
			parity := m & 1
			if cfg.Algorithm == Reversible {
				if lane.Uniform() < 0.5 {
					parity = 0
				} else {
					parity = 1
				}
			}
			u := make([]float64, c/2)
			for i := range u {
				u[i] = lane.Uniform()
			}
			for n := parity; n < c-1; n += 2 {
				if u[n/2] <= alpha[n] {
					if exact {
						w0s[n], w0s[n+1] = w0s[n+1], w0s[n]
						w1s[n], w1s[n+1] = w1s[n+1], w1s[n]
					}
					slotAt[n], slotAt[n+1] = slotAt[n+1], slotAt[n]
					chainOf[slotAt[n]], chainOf[slotAt[n+1]] = n, n+1
				}
			}
			r0, rN := slotAt[0], slotAt[c-1]
			if leftZero[rN] {
				reachedTop[rN] = true
			}
			if reachedTop[r0] {
				res.trips++
				reachedTop[r0] = false
			}
			leftZero[r0] = true
		}
		for n := range rej {
			rej[n] /= float64(perScan)
		}
		res.rejection = append(res.rejection, rej)
		if a, ok := sc.(models.ScanEnder); ok {
			a.EndScan()
		}
		if cfg.TuneSchedule {
			tune.UpdateSchedule(sched, sched, rej)
		}
	}
	res.schedule = sched
	res.replica = slotAt
	return res
}
