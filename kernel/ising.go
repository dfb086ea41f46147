package kernel

import "github.com/ptbatch/ptbatch/asm"

// IsingLine runs the checkerboard Metropolis moves of sites x0, x0+2, … of
// one lattice row of the batched Ising model (models.Ising) with the
// stream's 8 lanes, as asm.IsingLineGeneric describes: row, up and down
// are the row and its upper and lower neighbours (one word a site, byte j
// lane j's spin, 0 or 1), q the per-lane acceptance thresholds. Every
// byte of the three rows must be 0 or 1 (the assembly tiers index q with
// them unchecked). It panics with "kernel: Ising rows of different
// lengths" when up or down is not as long as row, and with "kernel: Ising
// line start out of range" when x0 is negative.
func (s *Stream) IsingLine(row, up, down []uint64, x0 int, q *[80]int32) {
	if len(up) != len(row) || len(down) != len(row) {
		panic("kernel: Ising rows of different lengths")
	}
	if x0 < 0 {
		panic("kernel: Ising line start out of range")
	}
	raceWriteState(&s.state)
	raceWriteUint64s(row)
	raceReadUint64s(up)
	raceReadUint64s(down)
	impl.IsingLine(row, up, down, x0, q, &s.state)
}

// Uint64 returns the lane's next xoshiro256++ output, the raw 64 bits of
// which Uniform keeps the top 53 (asm.UnitOpen).
func (l Lane) Uint64() uint64 { return asm.XoshiroNext(&l.s.state, l.j) }

// IsingXor adds a[i] XOR b[i] to dst[i mod 4] for i < len(a), as
// asm.IsingXorGeneric describes: bytewise counts of the differences of two
// spans of Ising words. len(a) must be a multiple of 4, at most 1020, b at
// least as long, and every byte of every word 0 or 1, dst starting at 0
// (so no byte passes 255); it panics with "kernel: Ising count span too
// long or not a multiple of 4" otherwise.
func IsingXor(dst *[4]uint64, a, b []uint64) {
	if len(a)%4 != 0 || len(a) > 1020 || len(b) < len(a) {
		panic("kernel: Ising count span too long or not a multiple of 4")
	}
	raceReadUint64s(a)
	raceReadUint64s(b[:len(a)])
	impl.IsingXor(dst, a, b)
}
