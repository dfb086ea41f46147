// Package kernel is the checked batch-maths layer of ptbatch: random number
// streams laid out one per replicate lane, and the vector operations the
// models and the engine run on rows of layout.Lanes values. It checks
// lengths (panicking with a constant "kernel: ..." message on a programmer
// error) and dispatches to the unchecked primitives of package asm.
//
// Checks: no kernel of package asm runs on lengths this layer has not
// verified, and the checks cannot be satisfied by an overflow: a length
// that is a product (GaussEnergy's len(z) = rows·dim·layout.Lanes) is
// checked by division, never by forming the product, which wraps around
// in int arithmetic. FuzzGaussEnergy, FuzzSwapAlpha, FuzzUniform and
// FuzzNormal compare every implementation with the generic twins on
// random lengths and values, bad lengths included; FuzzMixKernels and
// FuzzBookKernels do so for the mixture models' kernels (mixture.go) and
// the engine's bookkeeping kernels (MomentsAdd, MomentsAddSq, SwapApply)
// on random values.
//
// Race detector: it cannot see the memory the assembly reads and writes,
// so under -race every call into an implementation first announces the
// slices and generator state it touches (runtime.RaceReadRange and
// RaceWriteRange in race.go; no-ops otherwise), and races through the
// assembly are reported like races in Go.
//
// Implementations: the fastest the CPU offers is chosen once at start-up
// ("avx512", "avx2", or "generic", the only one under -tags purego); Impl
// names it, Impls lists the others and SetImpl switches for tests and
// benchmarks. They all draw the same numbers and compute the same energies
// and acceptance probabilities bit for bit.
//
// Random numbers: every replicate b owns a xoshiro256++ stream seeded from
// (seed, b) alone, so the numbers it sees do not depend on how many
// replicates run beside it, on its lane position, on the number of
// workers (parallelism invariance, as in Pigeons.jl) or on the
// implementation. A Stream saves and restores its exact position with
// MarshalBinary and UnmarshalBinary.
//
// Variates: Normal, Exponential and Gamma (Marsaglia and Tsang, with
// GammaSampler and FinishGamma for first attempts drawn by the batched
// fills) draw from any Source, a Lane of a Stream or a model's scalar
// reference, in one documented order, so that a batched model and its
// reference draw the same numbers.
package kernel
