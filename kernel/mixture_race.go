//go:build race

package kernel

import (
	"runtime"
	"unsafe"
)

// raceWriteBytes is raceWrite for the mixture kernels' rows of labels.
func raceWriteBytes(x []uint8) {
	if len(x) > 0 {
		runtime.RaceWriteRange(unsafe.Pointer(&x[0]), len(x))
	}
}
