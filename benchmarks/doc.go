// Package benchmarks is the end-to-end speed harness behind `ptbatch
// bench`: it times, in one process and on one workload, (a) the batched
// engine, (b) a plain scalar reference engine — math/rand/v2, one replicate
// at a time, the simplest correct code — and (c) a roofline microkernel that
// only draws the normals and runs the energy FMA stream of the same number
// of elements, with no engine logic. Recorded results live beside this file
// (results.md) with the CPU they were measured on.
package benchmarks
