package kernel

import "github.com/ptbatch/ptbatch/layout"

// SolveCubics inverts the segments of a monotone cubic at given heights,
// the root finding of the schedule update (eq:equicrit): for every i, the
// root t[i] = x0[i] + dx of a1·dx + a2·dx² + a3·dx³ = u on the segment
// [x0[i], x1[i]] of width h[i] whose cubic rises by dy[i], by Halley's
// method from the secant guess and a last Newton step, or NaN where that
// iteration does not converge (see asm.SolveCubicsGeneric for the exact
// operations and the test of convergence). All nine slices have the same
// length, a multiple of layout.Lanes; otherwise it panics with "kernel:
// slice lengths do not match". t may alias dy.
func SolveCubics(t, a1, a2, a3, u, h, dy, x0, x1 []float64) {
	n := len(t)
	if n%layout.Lanes != 0 || len(a1) != n || len(a2) != n || len(a3) != n || len(u) != n ||
		len(h) != n || len(dy) != n || len(x0) != n || len(x1) != n {
		panic(errLengths)
	}
	for _, r := range [...][]float64{a1, a2, a3, u, h, dy, x0, x1} {
		raceRead(r)
	}
	raceWrite(t)
	impl.SolveCubics(t, a1, a2, a3, u, h, dy, x0, x1)
}
