// Package kernel is the checked batch-maths layer of ptbatch: random number
// streams laid out one per replicate lane, and the vector operations the
// models and the engine run on rows of layout.Lanes values. It checks
// lengths (panicking with "kernel: ..." on a programmer error) and
// dispatches to the unchecked primitives of package asm.
//
// Random numbers: every replicate b owns a xoshiro256++ stream seeded from
// (seed, b) alone, so the numbers it sees do not depend on how many
// replicates run beside it, on its lane position, or on the number of
// workers (parallelism invariance, as in Pigeons.jl).
package kernel
