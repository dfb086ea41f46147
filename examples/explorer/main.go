// Command explorer shows an explorer of a user's own, written only against
// ptbatch's public API: Metropolis-within-Gibbs, one random-walk update
// per coordinate with a step size per coordinate, adapted per chain
// between scans towards an acceptance rate of 0.44 (the optimal rate of a
// one-dimensional random walk; Roberts and Rosenthal, Statist. Sci. 16(4),
// 2001, §4).
//
// It samples a d-dimensional Gaussian with standard deviations 1, 2, …, d
// from the reference N(0, I) and prints, per coordinate, the kept target
// samples' variance next to the truth k²:
//
//	go run ./examples/explorer --dim 4 --replicates 8 --chains 8 --iterations 8000
package main

import (
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// Gibbs is the explorer: the settings FromFuncs is given.
type Gibbs struct {
	// Step is every coordinate's initial step size.
	Step float64
}

// Name returns "gibbs-rw".
func (Gibbs) Name() string { return "gibbs-rw" }

// NewState returns one chain's state: a step size per coordinate, the
// scan's counts per coordinate, and scratch.
func (g Gibbs) NewState(dim int) models.ExplorerState {
	s := &gibbsState{step: make([]float64, dim), tries: make([]float64, dim), accs: make([]float64, dim), y: make([]float64, dim)}
	for d := range s.step {
		s.step[d] = g.Step
	}
	return s
}

type gibbsState struct {
	step, tries, accs []float64
	y                 []float64
}

// Move updates each coordinate in turn: a normal step, accepted with
// probability min(1, π(y)/π(x)).
func (s *gibbsState) Move(t *models.Target, r models.Rand, x []float64, w *[2]float64) {
	for d := range x {
		copy(s.y, x)
		s.y[d] += s.step[d] * r.Normal()
		wy := t.Energies(s.y)
		s.tries[d]++
		if math.Log(r.Uniform()) < t.LogDensity(wy)-t.LogDensity(*w) {
			x[d], *w = s.y[d], wy
			s.accs[d]++
		}
	}
}

// EndScan moves each step size towards the acceptance rate 0.44.
func (s *gibbsState) EndScan() {
	for d := range s.step {
		if s.tries[d] > 0 {
			s.step[d] *= math.Exp(2 * (s.accs[d]/s.tries[d] - 0.44))
		}
		s.tries[d], s.accs[d] = 0, 0
	}
}

// MarshalBinary saves the step sizes and counts as little-endian float64s.
func (s *gibbsState) MarshalBinary() ([]byte, error) {
	var b []byte
	for _, v := range [][]float64{s.step, s.tries, s.accs} {
		for _, f := range v {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
		}
	}
	return b, nil
}

// UnmarshalBinary restores what MarshalBinary saved.
func (s *gibbsState) UnmarshalBinary(b []byte) error {
	if len(b) != 3*8*len(s.step) {
		return errors.New("gibbs-rw: state of another dimension")
	}
	for _, v := range [][]float64{s.step, s.tries, s.accs} {
		for d := range v {
			v[d] = math.Float64frombits(binary.LittleEndian.Uint64(b))
			b = b[8:]
		}
	}
	return nil
}

// scaled is the model: reference N(0, I), target N(0, diag(1², …, d²)).
func scaled(dim int, ex models.Explorer) (models.Model, error) {
	return models.FromFuncs(models.Funcs{
		Dim:          dim,
		LogReference: models.StdNormalLog, SampleReference: models.StdNormalDraw,
		LogTarget: func(x []float64) float64 {
			s := 0.0
			for k, v := range x {
				sd := float64(k + 1)
				s -= v * v / (2 * sd * sd)
			}
			return s
		},
	}, ex)
}

// study runs the sampler and returns the pooled variance of every
// coordinate's kept target samples.
func study(dim, replicates, chains, iterations int, seed uint64) ([]float64, error) {
	m, err := scaled(dim, Gibbs{Step: 1})
	if err != nil {
		return nil, err
	}
	mom := new(batch.TargetMoments)
	_, err = batch.Run(context.Background(), batch.Config{Model: m, Chains: chains, Replicates: replicates,
		Iterations: iterations, Scans: 20, TuneSchedule: true, Seed: seed, Statistics: []batch.Statistic{mom}}, nil)
	if err != nil {
		return nil, err
	}
	means, vs := mom.Means(), mom.Vars()
	vars := make([]float64, dim)
	for d := range vars {
		mean, sq := 0.0, 0.0
		for b := 0; b < replicates; b++ {
			mean += means[b][d]
			sq += vs[b][d] + means[b][d]*means[b][d]
		}
		mean /= float64(replicates)
		vars[d] = sq/float64(replicates) - mean*mean
	}
	return vars, nil
}

func main() {
	fs := flag.NewFlagSet("explorer", flag.ContinueOnError)
	dim := fs.Int("dim", 4, "dimension d")
	replicates := fs.Int("replicates", 8, "independent replicates")
	chains := fs.Int("chains", 8, "chains")
	iterations := fs.Int("iterations", 8000, "iterations, a multiple of 20")
	seed := fs.Uint64("seed", 1, "random seed")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	vars, err := study(*dim, *replicates, *chains, *iterations, *seed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "explorer:", err)
		os.Exit(2)
	}
	for d, v := range vars {
		fmt.Printf("x%d variance %.3f (truth %d)\n", d, v, (d+1)*(d+1))
	}
}
