package main

import (
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
)

// availableImpls lists the kernel implementations this build and CPU offer.
func availableImpls() []string { return kernel.Impls() }

// useImpl switches the kernels to impl and returns the function that
// switches them back.
func useImpl(t *testing.T, impl string) func() {
	t.Helper()
	restore, err := kernel.SetImpl(impl)
	if err != nil {
		t.Fatal(err)
	}
	return restore
}
