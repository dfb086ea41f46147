package kernel

import "github.com/ptbatch/ptbatch/layout"

// The panic messages of the checked layer: constant, so that callers and
// tests can match them, and raised before any assembly runs.
const (
	errLengths = "kernel: slice lengths do not match"
	errRows    = "kernel: length is not a multiple of layout.Lanes"
	errDim     = "kernel: dim must be at least 1"
	errSegment = "kernel: segment out of range"
	errTargets = "kernel: target count out of range"
)

// GaussEnergy evaluates, for rows of lanes, the isotropic Gaussian energies
// W0 = -Σ_d (x_d-mu0)² h0 and W1 = -Σ_d (x_d-mu1)² h1 of the states
// x_d = m + s z_d, and their first coordinate, without storing x (see
// asm.GaussEnergyGeneric for the exact operation order). len(m) == len(s)
// == len(w0) == len(w1) == len(first) == rows*layout.Lanes and
// len(z) == rows*dim*layout.Lanes exactly; otherwise it panics with
// "kernel: slice lengths do not match", and with "kernel: dim must be at
// least 1" when dim < 1 (the first coordinate is always read).
//
// The check on z is made without forming rows*dim*layout.Lanes, which can
// wrap around (8 × 2⁶² wraps to 0, 8 × (2⁶¹+1) to 8): with n = len(m) and
// dim ≥ 1,
//
//	len(z)/dim == n && len(z)%dim == 0   ⟺   len(z) == n·dim exactly,
//
// so the assembly, which walks dim·64 bytes of z per row, reads only z.
func GaussEnergy(w0, w1, first, m, s, z []float64, dim int, mu0, mu1, h0, h1 float64) {
	n := len(m)
	if n%layout.Lanes != 0 || len(s) != n || len(w0) != n || len(w1) != n || len(first) != n {
		panic(errLengths)
	}
	if dim < 1 {
		panic(errDim)
	}
	if len(z)/dim != n || len(z)%dim != 0 {
		panic(errLengths)
	}
	raceRead(m)
	raceRead(s)
	raceRead(z)
	raceWrite(w0)
	raceWrite(w1)
	raceWrite(first)
	impl.GaussEnergy(w0, w1, first, m, s, z, dim, mu0, mu1, h0, h1)
}

// SwapAlpha computes the acceptance probability of the swap of every pair
// of adjacent chains in a block and adds 1-α to rej (see
// asm.SwapAlphaGeneric): α = e^min(lr, 0) by asm.ExpNonPos (at most 1 ulp
// from the exact exponential; 0 when lr is NaN or below asm.ExpMin). The
// chain-indexed rows eta0, eta1, w0, w1 hold one row more than alpha and
// rej: len(alpha) == len(rej), a multiple of layout.Lanes, and the others
// have layout.Lanes more; otherwise it panics with "kernel: slice lengths
// do not match". (The comparisons subtract layout.Lanes from the longer
// lengths rather than add it to len(alpha), so that none can wrap.)
func SwapAlpha(alpha, rej, eta0, eta1, w0, w1 []float64) {
	n := len(alpha)
	const L = layout.Lanes
	if n%L != 0 || len(rej) != n || len(eta0)-L != n || len(eta1)-L != n || len(w0)-L != n || len(w1)-L != n {
		panic(errLengths)
	}
	raceRead(eta0)
	raceRead(eta1)
	raceRead(w0)
	raceRead(w1)
	raceWrite(alpha)
	raceWrite(rej) // read and written
	impl.SwapAlpha(alpha, rej, eta0, eta1, w0, w1)
}

// MomentsAdd adds one iteration's energies, shifted by the scan's first
// values, to the scan's sums (see asm.MomentsAddGeneric):
// sum0 += w0-shift0 and sum1 += w1-shift1, element by element. All six
// slices have the same length, a multiple of layout.Lanes; otherwise it
// panics with "kernel: slice lengths do not match".
func MomentsAdd(sum0, sum1, w0, w1, shift0, shift1 []float64) {
	checkMoments(sum0, sum1, w0, w1, shift0, shift1)
	impl.MomentsAdd(sum0, sum1, w0, w1, shift0, shift1)
}

// MomentsAddSq is MomentsAdd plus the sums of the shifted energies'
// products sq00 += d0·d0, sq01 += d0·d1 and sq11 += d1·d1, each product
// rounded before the sum (see asm.MomentsAddSqGeneric). All nine slices
// have the same length, a multiple of layout.Lanes; otherwise it panics
// with "kernel: slice lengths do not match".
func MomentsAddSq(sum0, sum1, sq00, sq01, sq11, w0, w1, shift0, shift1 []float64) {
	n := len(sum0)
	if len(sq00) != n || len(sq01) != n || len(sq11) != n {
		panic(errLengths)
	}
	checkMoments(sum0, sum1, w0, w1, shift0, shift1)
	raceWrite(sq00)
	raceWrite(sq01)
	raceWrite(sq11)
	impl.MomentsAddSq(sum0, sum1, sq00, sq01, sq11, w0, w1, shift0, shift1)
}

// checkMoments is the checked layer of MomentsAdd and MomentsAddSq for
// their common slices: the lengths, then the race announcements.
func checkMoments(sum0, sum1, w0, w1, shift0, shift1 []float64) {
	n := len(sum0)
	if n%layout.Lanes != 0 || len(sum1) != n || len(w0) != n || len(w1) != n || len(shift0) != n || len(shift1) != n {
		panic(errLengths)
	}
	raceRead(w0)
	raceRead(w1)
	raceRead(shift0)
	raceRead(shift1)
	raceWrite(sum0)
	raceWrite(sum1)
}

// SwapApply applies the accepted swaps of one communication step of
// alg:NRPT (see asm.SwapApplyGeneric): for the pairs n = from, from+2, …
// of a block's C = len(w0)/layout.Lanes chains, lane j exchanges rows n and
// n+1 of w0, w1 and rep when u[(n/2)·L+j] <= alpha[n·L+j]. len(w0) ==
// len(w1) == len(rep) == C·L with C ≥ 1, len(alpha) == (C-1)·L, len(u) ==
// (C/2)·L and from is 0 or 1; otherwise it panics with "kernel: slice
// lengths do not match".
func SwapApply(w0, w1 []float64, rep []int32, alpha, u []float64, from int) {
	const L = layout.Lanes
	n := len(w0)
	if n%L != 0 || n == 0 || len(w1) != n || len(rep) != n || len(alpha) != n-L || len(u) != n/L/2*L || from&^1 != 0 {
		panic(errLengths)
	}
	raceRead(alpha)
	raceRead(u)
	raceWrite(w0)
	raceWrite(w1)
	raceWriteInt32s(rep)
	impl.SwapApply(w0, w1, rep, alpha, u, from)
}
