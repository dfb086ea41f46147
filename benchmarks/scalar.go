package benchmarks

import (
	"context"
	"math"
	"math/rand/v2"
)

// ScalarGaussian runs NRPT on the isotropic Gaussian pair N(mu0·1, σ²I) →
// N(mu1·1, σ²I) in dimension dim on the linear path with the uniform
// schedule, one replicate after another, for iters iterations, and
// returns the total number of round trips. It is the reference a user
// would write: math/rand/v2 (PCG seeded with (seed, replicate)),
// NormFloat64, math.Exp, and plain loops. It checks ctx every
// checkElements elements or so (a fraction of a millisecond) and returns
// ctx's error, with the round trips so far, once ctx is done.
func ScalarGaussian(ctx context.Context, replicates, chains, dim, iters int, mu0, mu1, sigma float64, seed uint64) (int, error) {
	trips := 0
	x := make([]float64, dim)
	w0 := make([]float64, chains)
	w1 := make([]float64, chains)
	rep := make([]int, chains)
	var rt roundTrips
	h := 0.5 / (sigma * sigma)
	every := checkEvery(chains, dim)
	for b := 0; b < replicates; b++ {
		rng := rand.New(rand.NewPCG(seed, uint64(b)))
		rt.reset(rep)
		for m := 1; m <= iters; m++ {
			if m%every == 0 {
				if err := ctx.Err(); err != nil {
					return trips, err
				}
			}
			// Local exploration: exact draws from π_t = N(μ_t, σ²).
			for n := 0; n < chains; n++ {
				t := float64(n) / float64(chains-1)
				mean := (1-t)*mu0 + t*mu1
				a0, a1 := 0.0, 0.0
				for d := range x {
					x[d] = mean + sigma*rng.NormFloat64()
					a0 += (x[d] - mu0) * (x[d] - mu0)
					a1 += (x[d] - mu1) * (x[d] - mu1)
				}
				w0[n], w1[n] = -a0*h, -a1*h
			}
			// Communication: even or odd pairs.
			for n := m & 1; n < chains-1; n += 2 {
				t0 := float64(n) / float64(chains-1)
				t1 := float64(n+1) / float64(chains-1)
				lr := (t1 - t0) * ((w1[n] - w0[n]) - (w1[n+1] - w0[n+1]))
				if rng.Float64() < math.Exp(math.Min(0, lr)) {
					w0[n], w0[n+1] = w0[n+1], w0[n]
					w1[n], w1[n+1] = w1[n+1], w1[n]
					rep[n], rep[n+1] = rep[n+1], rep[n]
				}
			}
			trips += rt.count(rep)
		}
	}
	return trips, nil
}

// checkElements is the number of elements (replicate × chain × coordinate
// steps, about a nanosecond each) between two checks of the context.
const checkElements = 1 << 16

// checkEvery returns how many iterations of chains × dim elements make up
// about checkElements, at least 1.
func checkEvery(chains, dim int) int {
	if chains < 1 || dim < 1 || chains > checkElements || dim > checkElements {
		return 1
	}
	return max(1, checkElements/(chains*dim))
}

// roundTrips counts the round trips of the replicas of one replicate: a
// replica that has been at the reference (chain 0) and then reaches the
// target (the last chain) completes a round trip when it is back at the
// reference.
type roundTrips struct {
	leftZero, reachedTop []bool // per replica
}

// reset puts replica n at chain n (rep[n] = n), with only the reference's
// replica counted as having been there.
func (r *roundTrips) reset(rep []int) {
	r.leftZero = append(r.leftZero[:0], make([]bool, len(rep))...)
	r.reachedTop = append(r.reachedTop[:0], make([]bool, len(rep))...)
	for n := range rep {
		rep[n] = n
	}
	r.leftZero[0] = true
}

// count takes the replicas' places after an iteration (rep[n] is the
// replica at chain n) and returns the round trips completed in it, 0 or 1.
func (r *roundTrips) count(rep []int) int {
	trips := 0
	top := rep[len(rep)-1]
	if r.leftZero[top] {
		r.reachedTop[top] = true
	}
	if r.reachedTop[rep[0]] {
		trips++
		r.reachedTop[rep[0]] = false
	}
	r.leftZero[rep[0]] = true
	return trips
}
