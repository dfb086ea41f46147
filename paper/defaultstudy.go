package paper

import (
	"context"

	"github.com/ptbatch/ptbatch/batch"
	"github.com/ptbatch/ptbatch/models"
	"github.com/ptbatch/ptbatch/registry"
	"github.com/ptbatch/ptbatch/runloop"
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

// DefaultStudyRow is one method's line of the default study.
type DefaultStudyRow struct {
	// Method is the method the row ran.
	Method StudyMethod
	// Result is its run's result (Interrupted when the context ended it).
	Result *batch.Result
	// Rate and RateSD are the mean and standard deviation over the
	// replicates of the round-trip rate of the last scan.
	Rate, RateSD float64
	// RoundTrips is the mean number of round trips per replicate.
	RoundTrips float64
}

// RunDefaultStudy runs the default study: each of DefaultStudyMethods on
// the registry's Gaussian preset, one after the other, through
// runloop.Run (the one loop of every run). progress, when not nil, gives
// each method's progress callback; each is called with every method's
// row, and its error ends the study. A run the context ended is the last
// one: its row is passed to each and RunDefaultStudy returns each's error.
func RunDefaultStudy(ctx context.Context, progress func(StudyMethod) func(batch.Progress), each func(DefaultStudyRow) error) error {
	g, err := registry.MustPreset(registry.Gaussian).NewModel(DefaultStudySeed)
	if err != nil {
		return err
	}
	for _, m := range DefaultStudyMethods() {
		var o runloop.Options
		if progress != nil {
			o.Progress = progress(m)
		}
		res, err := runloop.Run(ctx, m.Config(g), o)
		if err != nil {
			return err
		}
		row := DefaultStudyRow{Method: m, Result: res}
		row.Rate, row.RateSD = batch.MeanSD(res.RoundTripRates)
		for _, t := range res.RoundTrips {
			row.RoundTrips += float64(t) / float64(len(res.RoundTrips))
		}
		if err := each(row); err != nil || res.Interrupted {
			return err
		}
	}
	return nil
}
