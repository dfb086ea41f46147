package models

import (
	"cmp"
	"math"
)

// RandomWalk is random-walk Metropolis: each move proposes
// x' = x + s_n·z, z ~ N(0, I), and accepts it with probability
// min(1, π(x')/π(x)) for the chain's annealed density π. The step size
// s_n is kept per replicate and chain (the chain, not the memory slot:
// replicas move between chains) and adapted after every scan towards the
// acceptance rate Acceptance by s_n ← s_n·exp(2(a_n − Acceptance)), with
// a_n the scan's acceptance rate at chain n (a factor between e^{-0.6}
// and e^{1.4} for the default 0.3, so a poor start is corrected within a
// few scans).
type RandomWalk struct {
	// Step is the initial step size of every chain; 0 means 1.
	Step float64
	// Acceptance is the acceptance rate the adaptation aims at; 0 means
	// 0.3, between the optimal rates in one dimension (0.44) and many
	// (0.234; Roberts, Gelman and Gilks, 1997).
	Acceptance float64
	// Moves is the number of moves per local exploration; 0 means 1.
	Moves int
}

// Name returns "random-walk".
func (RandomWalk) Name() string { return "random-walk" }

func (e RandomWalk) newLane(dim int) explorerLane {
	return &rwLane{step0: cmp.Or(e.Step, 1), target: cmp.Or(e.Acceptance, 0.3), moves: cmp.Or(e.Moves, 1)}
}

// rwLane is RandomWalk's state for one replicate: per chain, the step
// size and the scan's proposals and acceptances.
type rwLane struct {
	step0, target float64
	moves         int
	step          []float64
	tries, accs   []int
}

// grow extends the per-chain settings to chain n.
func (l *rwLane) grow(n int) {
	for len(l.step) <= n {
		l.step = append(l.step, l.step0)
		l.tries = append(l.tries, 0)
		l.accs = append(l.accs, 0)
	}
}

// move draws, per move, Dim normals then one uniform, whatever the
// proposal's density.
func (l *rwLane) move(f *Funcs, rng Rand, x []float64, w *[2]float64, eta0, eta1 float64, n int, prop []float64) {
	l.grow(n)
	for k := 0; k < l.moves; k++ {
		for d := range x {
			prop[d] = x[d] + l.step[n]*rng.Normal()
		}
		u := rng.Uniform()
		wp := [2]float64{f.LogReference(prop), f.LogTarget(prop)}
		l.tries[n]++
		if math.Log(u) < annealed(wp, eta0, eta1)-annealed(*w, eta0, eta1) {
			copy(x, prop)
			*w = wp
			l.accs[n]++
		}
	}
}

func (l *rwLane) endScan() {
	for n, t := range l.tries {
		if t > 0 {
			a := float64(l.accs[n]) / float64(t)
			l.step[n] *= math.Exp(2 * (a - l.target))
		}
		l.tries[n], l.accs[n] = 0, 0
	}
}

// SliceSampler is the univariate slice sampler with stepping out and
// shrinkage (Neal, Slice sampling, Ann. Statist. 31(3), 2003, §4, Figures
// 3 and 5), applied to each coordinate in turn: Pigeons.jl's default
// explorer. It needs no tuning: the interval grows by Width up to
// MaxSteps times on each side and shrinks on rejection.
type SliceSampler struct {
	// Width is the initial interval width; 0 means 1.
	Width float64
	// MaxSteps bounds the stepping out (Neal's m); 0 means 20.
	MaxSteps int
	// Passes is the number of sweeps over the coordinates per local
	// exploration; 0 means 1.
	Passes int
}

// Name returns "slice".
func (SliceSampler) Name() string { return "slice" }

func (e SliceSampler) newLane(int) explorerLane {
	return &sliceLane{width: cmp.Or(e.Width, 1), maxSteps: cmp.Or(e.MaxSteps, 20), passes: cmp.Or(e.Passes, 1)}
}

// sliceLane is SliceSampler's state: its settings, which it does not adapt.
type sliceLane struct {
	width    float64
	maxSteps int
	passes   int
}

// maxShrink bounds the shrinkage loop: an interval shrunk this many times
// is narrower than any float64 spacing around x, so the move keeps x.
const maxShrink = 200

// move updates each coordinate of x by one slice-sampling step: one
// uniform for the slice level, one for the interval's position and one for
// the split of the stepping-out budget, then one per shrinkage try.
func (l *sliceLane) move(f *Funcs, rng Rand, x []float64, w *[2]float64, eta0, eta1 float64, _ int, prop []float64) {
	copy(prop, x)
	logp := func(v float64, d int) (float64, [2]float64) {
		prop[d] = v
		wv := [2]float64{f.LogReference(prop), f.LogTarget(prop)}
		return annealed(wv, eta0, eta1), wv
	}
	for p := 0; p < l.passes; p++ {
		for d := range x {
			level := annealed(*w, eta0, eta1) + math.Log(rng.Uniform())
			x0 := x[d]
			lo := x0 - l.width*rng.Uniform()
			hi := lo + l.width
			j := min(int(float64(l.maxSteps)*rng.Uniform()), l.maxSteps-1) // u may be 1
			k := l.maxSteps - 1 - j
			for ; j > 0; j-- {
				if v, _ := logp(lo, d); !(v > level) {
					break
				}
				lo -= l.width
			}
			for ; k > 0; k-- {
				if v, _ := logp(hi, d); !(v > level) {
					break
				}
				hi += l.width
			}
			for s := 0; s < maxShrink; s++ {
				x1 := lo + rng.Uniform()*(hi-lo)
				if v, wv := logp(x1, d); v > level {
					x[d], *w = x1, wv
					break
				}
				if x1 < x0 {
					lo = x1
				} else {
					hi = x1
				}
			}
			prop[d] = x[d]
		}
	}
}

func (l *sliceLane) endScan() {}
