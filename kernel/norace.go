//go:build !race

package kernel

import "github.com/ptbatch/ptbatch/layout"

// Without -race the shims of race.go do nothing and are inlined away.

const raceEnabled = false

func raceRead([]float64) {}

func raceWrite([]float64) {}

func raceReadInts([]int) {}

func raceWriteInts([]int) {}

func raceWriteInt32s([]int32) {}

func raceWriteState(*[4 * layout.Lanes]uint64) {}
