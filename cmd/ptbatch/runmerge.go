package main

import "github.com/ptbatch/ptbatch/runout"

// resultName is a run's record (runout.RecordName).
const resultName = runout.RecordName

// momentsSource gives the target moments of a run, per replicate and
// observable (a *batch.TargetMoments).
type momentsSource interface {
	Means() [][]float64
	Vars() [][]float64
}
