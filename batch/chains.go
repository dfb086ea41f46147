package batch

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/ptbatch/ptbatch/tune"
)

// pilotSeedOffset is added to Config.Seed for the pilots of ChooseChains,
// so that their draws differ from the run's (the golden ratio's 64-bit
// fraction, SplitMix64's increment).
const pilotSeedOffset = 0x9e3779b97f4a7c15

// pilotMaxReplicates caps the replicates of a pilot: its barrier is an
// average over them, and eight (one block of lanes) make it precise enough
// to choose the number of chains.
const pilotMaxReplicates = 8

// pilotMaxRuns bounds the pilots of ChooseChains: each doubles the chains
// of the one before when its barrier is too large to be estimated.
const pilotMaxRuns = 8

// Pilot is one pilot run of ChooseChains.
type Pilot struct {
	Chains, Iterations, Replicates int
	// Barrier is the mean over replicates of Σ_n r_n over the pilot's
	// kept scans, which run on its frozen path and schedule.
	Barrier float64
	Elapsed time.Duration
}

// ChainsChoice is what ChooseChains found.
type ChainsChoice struct {
	// Chains maximises the round trips per unit of work,
	// tune.EquiRejectionRate(Barrier, Chains)/Chains (tune.BestChains),
	// and is at least Knots+1.
	Chains int
	// Barrier is the estimate of the tuned path's Λ it used: the last
	// pilot's.
	Barrier float64
	// Pilots are the pilot runs, in order.
	Pilots []Pilot
}

// ChainIterations returns the pilots' cost in chain-iterations, Σ chains ×
// iterations × replicates: the same unit as the run's Chains ×
// Iterations × Replicates.
func (c ChainsChoice) ChainIterations() int64 {
	var n int64
	for _, p := range c.Pilots {
		n += int64(p.Chains) * int64(p.Iterations) * int64(p.Replicates)
	}
	return n
}

// ChooseChains chooses the number of chains for a run of cfg (whose Chains
// it ignores) from pilot runs: each pilot is cfg with AutoTuning, the
// given chains, pilotIterations iterations (AutoScans of them), at most
// eight replicates (those of the run's first ones, with Seed shifted by a
// constant so that the draws differ from the run's) and no statistics. It
// estimates the barrier Λ of the automatically tuned path by the mean of
// Σ_n r_n over the pilot's kept scans, on its frozen path and schedule,
// and returns the N that maximises τ(N)/N (tune.BestChains). The first
// pilot runs firstChains chains; while its mean rejection Λ/(chains-1)
// exceeds one half — too coarse a schedule for Σ_n r_n to estimate Λ,
// since r_n < Λ(t_n, t_{n+1}) when neighbours are far apart — the next
// pilot doubles the chains. The choice depends on cfg's model, path and
// algorithm, Replicates (up to eight), Seed and the arguments only, so it is
// the same for every shard and every worker count.
func ChooseChains(ctx context.Context, cfg Config, firstChains, pilotIterations int) (ChainsChoice, error) {
	var out ChainsChoice
	if firstChains < 2 {
		return out, &ConfigError{"Chains", firstChains, "a pilot needs at least 2 chains"}
	}
	if pilotIterations < 2 {
		return out, &ConfigError{"Iterations", pilotIterations, "a pilot needs at least 2 iterations"}
	}
	pilot := cfg
	pilot.Tuning = AutoTuning
	pilot.Replicates = min(cfg.Replicates, pilotMaxReplicates)
	pilot.FirstReplicate = 0
	pilot.Iterations = pilotIterations
	pilot.Scans = AutoScans(pilotIterations)
	pilot.KeepScans = 0
	pilot.Seed = cfg.Seed + pilotSeedOffset
	pilot.Statistics = nil
	pilot.Gradient = BlockGradient
	chains := firstChains
	for run := 0; run < pilotMaxRuns; run++ {
		pilot.Chains = chains
		t0 := time.Now()
		res, err := Run(ctx, pilot, nil)
		if err != nil {
			return out, err
		}
		if res.Interrupted {
			return out, ctx.Err()
		}
		p := Pilot{Chains: chains, Iterations: res.Iterations, Replicates: pilot.Replicates,
			Barrier: keptBarrier(res), Elapsed: time.Since(t0)}
		out.Pilots = append(out.Pilots, p)
		out.Barrier = p.Barrier
		if !(p.Barrier <= 0.5*float64(chains-1)) && chains < math.MaxInt32/2 {
			if math.IsNaN(p.Barrier) {
				return out, fmt.Errorf("batch: the pilot's barrier is NaN")
			}
			chains *= 2
			continue
		}
		out.Chains = max(tune.BestChains(p.Barrier, math.MaxInt32), max(cfg.Knots, 1)+1)
		return out, nil
	}
	return out, fmt.Errorf("batch: %d pilots up to %d chains found the barrier too large to estimate (Λ ≈ %.4g)", pilotMaxRuns, chains/2, out.Barrier)
}

// keptBarrier returns the mean over replicates of the mean of Σ_n r_n over
// the kept scans.
func keptBarrier(res *Result) float64 {
	kept := max(res.KeptScans, 1)
	total := 0.0
	for _, hist := range res.History {
		s := 0.0
		for _, st := range hist[len(hist)-kept:] {
			s += st.Barrier
		}
		total += s / float64(kept)
	}
	return total / float64(len(res.History))
}
