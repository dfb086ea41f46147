package kernel

import (
	"fmt"

	"github.com/ptbatch/ptbatch/asm"
)

// The implementation in use: the fastest the CPU offers (asm.Impls, read
// once at start-up), or the one SetImpl chose. All give bit-identical
// results, so the choice changes speed only.
var impl = asm.Impls()[0]

// Impl names the kernel implementation in use: "avx512", "avx2" or
// "generic" (always "generic" with -tags purego or off amd64).
func Impl() string { return impl.Name }

// Impls names the implementations this build and CPU offer, fastest first;
// the last is "generic".
func Impls() []string {
	var names []string
	for _, im := range asm.Impls() {
		names = append(names, im.Name)
	}
	return names
}

// SetImpl switches every kernel to the named implementation and returns a
// function that switches back, or an error naming the implementations
// available. It is for tests and benchmarks (`ptbatch bench --impl`): it
// must not run while kernels are in use.
func SetImpl(name string) (restore func(), err error) {
	for _, im := range asm.Impls() {
		if im.Name == name {
			old := impl
			impl = im
			return func() { impl = old }, nil
		}
	}
	return nil, fmt.Errorf("kernel: implementation %q not available (have %v)", name, Impls())
}
