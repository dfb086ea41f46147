package paper

import (
	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
)

// The default study is what `ptbatch` runs with no arguments: the paper's
// Gaussian experiment (appendix "Experimental details", Gaussian: 50
// chains, 45,000 iterations in 150 scans, learning rate 0.2) for each of
// DefaultStudyMethods, 10 replicates, seed 1.
const (
	DefaultStudyChains       = 50
	DefaultStudyIterations   = 45000
	DefaultStudyScans        = 150
	DefaultStudyReplicates   = 10
	DefaultStudyLearningRate = 0.2
	DefaultStudySeed         = 1
)

// StudyMethod is one method (column) of the default study.
type StudyMethod struct {
	// Name is the method's label, as the paper's Figure 3 names it.
	Name string
	// Algorithm is the swap scheme.
	Algorithm batch.Algorithm
	// TuneSchedule tunes the annealing schedule (Syed et al. 2021,
	// Algorithm 4).
	TuneSchedule bool
	// Knots is the number of the path's spline knots; 1 is the linear
	// path, 2 or more a tuned spline path.
	Knots int
}

// DefaultStudyMethods returns the methods of the paper's Figure 3 that the
// default study compares, in the order it runs them.
func DefaultStudyMethods() []StudyMethod {
	return []StudyMethod{
		{"Reversible+Linear", batch.Reversible, false, 1},
		{"NRPT+Linear", batch.NRPT, true, 1},
		{"NRPT+Spline(K=4)", batch.NRPT, true, 4},
	}
}

// Config returns the default study's run of method m on model g (the
// paper's Gaussian pair): the path is tuned when it has knots to tune.
func (m StudyMethod) Config(g models.Model) batch.Config {
	return batch.Config{
		Model: g, Chains: DefaultStudyChains, Replicates: DefaultStudyReplicates,
		Algorithm: m.Algorithm, Iterations: DefaultStudyIterations, Scans: DefaultStudyScans,
		TuneSchedule: m.TuneSchedule, Knots: m.Knots, TunePath: m.Knots >= 2,
		LearningRate: DefaultStudyLearningRate, Seed: DefaultStudySeed,
	}
}
