package kernel

import "github.com/ptbatch/ptbatch/asm"

// NormalFrom returns a standard normal draw made from two uniforms of rng,
// u1 then u2: the cosine half of their Box–Muller pair, as
// Stream.LaneNormal makes it, so that a scalar reference that draws
// through a Stream's Lane gets the same numbers as the batched code.
func NormalFrom(rng interface{ Uniform() float64 }) float64 {
	u1 := rng.Uniform()
	u2 := rng.Uniform()
	z0, _ := asm.BoxMuller(u1, u2)
	return z0
}
