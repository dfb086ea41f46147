// Package layout describes how ptbatch stores many independent parallel
// tempering runs in memory.
//
// Glossary (the words used across ptbatch's packages and README):
//
//   - chain: one annealing level t_n, n = 0..N; a batch has numChains = N+1.
//   - replica: the state that moves between chains when a swap is accepted.
//   - replicate: one independent PT run; it fills one SIMD lane (loop
//     variable b).
//   - slot: the memory row that holds one replica's state; a swap exchanges
//     the slot indices of two chains, never the coordinates of the states.
//   - block: a group of Lanes consecutive replicates stored together; the
//     unit of work a worker owns.
//
// Every per-lane quantity is stored struct-of-arrays with the replicate as
// the innermost, contiguous axis. Inside a block of L lanes, row k of a
// quantity holds L values, one per replicate, and the flat index of
// coordinate d of slot s of lane j is
//
//	i = (s*dim + d)*L + j
//
// Rows are L = Lanes = 8 float64 wide (one 64-byte AVX-512 vector, two AVX2
// vectors) and every allocation is 64-byte aligned, so a row is exactly one
// cache line and the kernels in package asm can use aligned full-width loads
// with no tail.
//
// Sizes are products of extents and Go's int multiplication wraps without
// a word, so a size computed from a user's extents should be computed by
// MulInt or Mul, which report overflow. Shape.Validate refuses a shape whose
// states, Blocks × Chains × Dim × Lanes float64, have more bytes than an
// int can count, naming the extent (a *ShapeError), and Shape.Elements
// and Shape.BlockElements give the counts of a valid shape for memory
// estimates.
package layout
