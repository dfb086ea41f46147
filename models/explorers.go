package models

import (
	"cmp"
	"fmt"
	"math"

	"github.com/ptbatch/ptbatch/internal/wire"
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

// NewState returns one chain's step size and counts.
func (e RandomWalk) NewState(dim int) ExplorerState {
	return &rwState{step: cmp.Or(e.Step, 1), target: cmp.Or(e.Acceptance, 0.3), moves: cmp.Or(e.Moves, 1),
		prop: make([]float64, dim)}
}

func (e RandomWalk) settings() string {
	return fmt.Sprintf("step=%s acceptance=%s moves=%d", fmtFloat(cmp.Or(e.Step, 1)), fmtFloat(cmp.Or(e.Acceptance, 0.3)), cmp.Or(e.Moves, 1))
}

// rwState is RandomWalk's state at one chain: the step size and the
// scan's proposals and acceptances.
type rwState struct {
	step, target float64
	moves        int
	tries, accs  int
	prop         []float64
}

// Move draws, per move, Dim normals then one uniform, whatever the
// proposal's density.
func (s *rwState) Move(t *Target, rng Rand, x []float64, w *[2]float64) {
	for k := 0; k < s.moves; k++ {
		for d := range x {
			s.prop[d] = x[d] + s.step*rng.Normal()
		}
		u := rng.Uniform()
		wp := t.Energies(s.prop)
		s.tries++
		if math.Log(u) < t.LogDensity(wp)-t.LogDensity(*w) {
			copy(x, s.prop)
			*w = wp
			s.accs++
		}
	}
}

// EndScan adapts the step size towards the target acceptance rate.
func (s *rwState) EndScan() {
	if s.tries > 0 {
		a := float64(s.accs) / float64(s.tries)
		s.step *= math.Exp(2 * (a - s.target))
	}
	s.tries, s.accs = 0, 0
}

// MarshalBinary saves the step size and the open scan's counts.
func (s *rwState) MarshalBinary() ([]byte, error) {
	var w wire.Writer
	w.Float64(s.step)
	w.Int(s.tries)
	w.Int(s.accs)
	return w.Bytes(), nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (s *rwState) UnmarshalBinary(data []byte) error {
	r := wire.NewReader(data)
	step, tries, accs := r.Float64(), r.Int(), r.Int()
	if err := r.Close(); err != nil {
		return fmt.Errorf("random-walk state: %w", err)
	}
	s.step, s.tries, s.accs = step, tries, accs
	return nil
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

// NewState returns the sampler's settings, which it does not adapt.
func (e SliceSampler) NewState(dim int) ExplorerState {
	return &sliceState{width: cmp.Or(e.Width, 1), maxSteps: cmp.Or(e.MaxSteps, 20), passes: cmp.Or(e.Passes, 1),
		prop: make([]float64, dim)}
}

func (e SliceSampler) settings() string {
	return fmt.Sprintf("width=%s max-steps=%d passes=%d", fmtFloat(cmp.Or(e.Width, 1)), cmp.Or(e.MaxSteps, 20), cmp.Or(e.Passes, 1))
}

// sliceState is SliceSampler's state: its settings and scratch.
type sliceState struct {
	width    float64
	maxSteps int
	passes   int
	prop     []float64
}

// maxShrink bounds the shrinkage loop: an interval shrunk this many times
// is narrower than any float64 spacing around x, so the move keeps x.
const maxShrink = 200

// Move updates each coordinate of x by one slice-sampling step: one
// uniform for the slice level, one for the interval's position and one for
// the split of the stepping-out budget, then one per shrinkage try.
func (s *sliceState) Move(t *Target, rng Rand, x []float64, w *[2]float64) {
	copy(s.prop, x)
	for p := 0; p < s.passes; p++ {
		for d := range x {
			s.coordinate(t, rng, x, w, d)
			s.prop[d] = x[d]
		}
	}
}

// logp returns the annealed log density and the energies of the scratch
// state with coordinate d set to v.
func (s *sliceState) logp(t *Target, v float64, d int) (float64, [2]float64) {
	s.prop[d] = v
	wv := t.Energies(s.prop)
	return t.LogDensity(wv), wv
}

// coordinate is one slice-sampling update of coordinate d (Neal's
// Figures 3 and 5).
func (s *sliceState) coordinate(t *Target, rng Rand, x []float64, w *[2]float64, d int) {
	level := t.LogDensity(*w) + math.Log(rng.Uniform())
	x0 := x[d]
	lo := x0 - s.width*rng.Uniform()
	hi := lo + s.width
	j := min(int(float64(s.maxSteps)*rng.Uniform()), s.maxSteps-1) // u may be 1
	k := s.maxSteps - 1 - j
	for ; j > 0; j-- {
		if v, _ := s.logp(t, lo, d); !(v > level) {
			break
		}
		lo -= s.width
	}
	for ; k > 0; k-- {
		if v, _ := s.logp(t, hi, d); !(v > level) {
			break
		}
		hi += s.width
	}
	for i := 0; i < maxShrink; i++ {
		x1 := lo + rng.Uniform()*(hi-lo)
		if v, wv := s.logp(t, x1, d); v > level {
			x[d], *w = x1, wv
			return
		}
		if x1 < x0 {
			lo = x1
		} else {
			hi = x1
		}
	}
}

// EndScan does nothing: the slice sampler does not adapt.
func (s *sliceState) EndScan() {}

// MarshalBinary returns nothing: the state is the settings alone.
func (s *sliceState) MarshalBinary() ([]byte, error) { return nil, nil }

// UnmarshalBinary accepts the empty state.
func (s *sliceState) UnmarshalBinary(data []byte) error {
	if len(data) != 0 {
		return fmt.Errorf("slice state: %d bytes, want none", len(data))
	}
	return nil
}
