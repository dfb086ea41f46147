package main

import "github.com/ptbatch/ptbatch/runout"

// resultName is a run's record (runout.RecordName).
const resultName = runout.RecordName
