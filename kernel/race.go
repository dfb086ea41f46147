//go:build race

package kernel

import (
	"runtime"
	"unsafe"

	"github.com/ptbatch/ptbatch/layout"
)

// Race-detector shims. The race detector instruments Go code only: it
// cannot see the loads and stores of the assembly kernels of package asm,
// so a data race through a kernel would go unreported. Before each call
// into an implementation the checked layer announces the memory the kernel
// reads and writes (the whole of every slice it was given, which the
// length checks have just verified), as klauspost/compress does around its
// assembly. With -race off these are the no-ops of norace.go.

// raceEnabled reports whether this is a -race build.
const raceEnabled = true

// raceRead tells the race detector that the kernel about to run reads x.
func raceRead(x []float64) {
	if len(x) > 0 {
		runtime.RaceReadRange(unsafe.Pointer(&x[0]), len(x)*int(unsafe.Sizeof(x[0])))
	}
}

// raceWrite tells the race detector that the kernel about to run writes x
// (and may read it).
func raceWrite(x []float64) {
	if len(x) > 0 {
		runtime.RaceWriteRange(unsafe.Pointer(&x[0]), len(x)*int(unsafe.Sizeof(x[0])))
	}
}

// raceReadInts is raceRead for a slice of int.
func raceReadInts(x []int) {
	if len(x) > 0 {
		runtime.RaceReadRange(unsafe.Pointer(&x[0]), len(x)*int(unsafe.Sizeof(x[0])))
	}
}

// raceWriteInts is raceWrite for a slice of int.
func raceWriteInts(x []int) {
	if len(x) > 0 {
		runtime.RaceWriteRange(unsafe.Pointer(&x[0]), len(x)*int(unsafe.Sizeof(x[0])))
	}
}

// raceWriteInt32s is raceWrite for a slice of int32.
func raceWriteInt32s(x []int32) {
	if len(x) > 0 {
		runtime.RaceWriteRange(unsafe.Pointer(&x[0]), len(x)*int(unsafe.Sizeof(x[0])))
	}
}

// raceWriteState tells the race detector that the kernel about to run
// advances the generator state st (reads and writes it).
func raceWriteState(st *[4 * layout.Lanes]uint64) {
	runtime.RaceWriteRange(unsafe.Pointer(st), int(unsafe.Sizeof(*st)))
}
