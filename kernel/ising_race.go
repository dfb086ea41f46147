//go:build race

package kernel

import (
	"runtime"
	"unsafe"
)

// raceReadUint64s is raceRead for a slice of uint64.
func raceReadUint64s(x []uint64) {
	if len(x) > 0 {
		runtime.RaceReadRange(unsafe.Pointer(&x[0]), 8*len(x))
	}
}

// raceWriteUint64s is raceWrite for a slice of uint64.
func raceWriteUint64s(x []uint64) {
	if len(x) > 0 {
		runtime.RaceWriteRange(unsafe.Pointer(&x[0]), 8*len(x))
	}
}
