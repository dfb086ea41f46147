package asm

// The engine's per-chain bookkeeping, as lane kernels: the scan's energy
// moments (the SKL estimate's means, eq:bound, and the block-form path
// gradient's second moments) and the swaps of alg:NRPT's communication
// step. Rows are chains of layout.Lanes lanes; the assembly twins perform
// the same IEEE operations element by element, so they agree bit for bit.

// MomentsAddGeneric adds one iteration's shifted energies to the scan's
// sums, element by element:
//
//	d0, d1 := w0[i]-shift0[i], w1[i]-shift1[i]
//	sum0[i] += d0
//	sum1[i] += d1
//
// All slices have the length of sum0, a multiple of 4 for the assembly
// twins (the checked layer in package kernel guarantees it).
func MomentsAddGeneric(sum0, sum1, w0, w1, shift0, shift1 []float64) {
	n := len(sum0)
	sum1, w0, w1, shift0, shift1 = sum1[:n], w0[:n], w1[:n], shift0[:n], shift1[:n]
	for i := range sum0 {
		sum0[i] += w0[i] - shift0[i]
		sum1[i] += w1[i] - shift1[i]
	}
}

// MomentsAddSqGeneric is MomentsAddGeneric plus the sums of the products
// of the shifted energies, each product rounded before it is added (no
// fused multiply-add):
//
//	sq00[i] += d0*d0
//	sq01[i] += d0*d1
//	sq11[i] += d1*d1
func MomentsAddSqGeneric(sum0, sum1, sq00, sq01, sq11, w0, w1, shift0, shift1 []float64) {
	n := len(sum0)
	sum1, sq00, sq01, sq11 = sum1[:n], sq00[:n], sq01[:n], sq11[:n]
	w0, w1, shift0, shift1 = w0[:n], w1[:n], shift0[:n], shift1[:n]
	for i := range sum0 {
		d0 := w0[i] - shift0[i]
		d1 := w1[i] - shift1[i]
		sum0[i] += d0
		sum1[i] += d1
		// The conversions round each product, so that no compiler fuses
		// it with the sum (the Go spec allows fusing x*y + z otherwise).
		sq00[i] += float64(d0 * d0)
		sq01[i] += float64(d0 * d1)
		sq11[i] += float64(d1 * d1)
	}
}

// SwapApplyGeneric applies the swaps of one communication step (alg:NRPT,
// deterministic even/odd scheme): for the pairs n = from, from+2, … with
// n+1 < C, where C = len(w0)/lanes is the number of chains, lane j swaps
// rows n and n+1 of w0, w1 and rep when
//
//	u[(n/2)*lanes+j] <= alpha[n*lanes+j]
//
// (false when either is NaN). alpha has C-1 rows and u at least C/2;
// from is 0 or 1.
func SwapApplyGeneric(w0, w1 []float64, rep []int32, alpha, u []float64, from int) {
	c := len(w0) / lanes
	for n := from; n+1 < c; n += 2 {
		i, k, r := n*lanes, (n+1)*lanes, (n/2)*lanes
		a, uu := alpha[i:i+lanes], u[r:r+lanes]
		x0, y0 := w0[i:i+lanes], w0[k:k+lanes]
		x1, y1 := w1[i:i+lanes], w1[k:k+lanes]
		xr, yr := rep[i:i+lanes], rep[k:k+lanes]
		for j := 0; j < lanes; j++ {
			if uu[j] <= a[j] {
				x0[j], y0[j] = y0[j], x0[j]
				x1[j], y1[j] = y1[j], x1[j]
				xr[j], yr[j] = yr[j], xr[j]
			}
		}
	}
}
