// Package kernel is the checked batch-maths layer of ptbatch: random number
// streams laid out one per replicate lane, and the vector operations the
// models and the engine run on rows of layout.Lanes values. It checks
// lengths (panicking with "kernel: ..." on a programmer error) and
// dispatches to the unchecked primitives of package asm.
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
