package asm

import "math"

// ScanSumsGeneric computes, for every lane j of a block, the scan's sums
// that its statistics report (batch's ScanStats): with inv = 1/M and the
// swaps' rejection counts xrej of the pairs n = 0 … P-1 (one row of lanes
// per pair), each pair's mean rejection r_n = xrej·inv, written to rej at
// the same index, and
//
//	out[j]         = Σ_n r_n                       the barrier Λ (eq:equicrit's estimate)
//	out[lanes+j]   = Σ_n r_n/(1-r_n)               the non-asymptotic barrier (eq:nonasympcb); +Inf if some r_n ≥ 1
//	out[2·lanes+j] = Σ_n (η_{n+1} - η_n)·(m_{n+1} - m_n)   the SKL estimate (eq:bound)
//
// the last over the chains' coefficients eta0, eta1 and mean energies
// m = shift + sum·inv (one row of lanes per chain, P+1 chains), each
// pair's term (b0-a0)·(p0-m0) + (b1-a1)·(p1-m1) as tune.SKLTerm, every
// product rounded before it is added. The sums run in pair order. len(rej)
// == len(xrej) == P·lanes with P ≥ 1, the chains' rows have (P+1)·lanes
// values, and len(out) == 3·lanes (the checked layer in package kernel
// guarantees it).
func ScanSumsGeneric(out, rej, xrej, eta0, eta1, shift0, sum0, shift1, sum1 []float64, inv float64) {
	pairs := len(xrej) / lanes
	n := (pairs + 1) * lanes
	rej, eta0, eta1 = rej[:len(xrej)], eta0[:n], eta1[:n]
	shift0, sum0, shift1, sum1 = shift0[:n], sum0[:n], shift1[:n], sum1[:n]
	for j := 0; j < lanes; j++ {
		barrier, nab := 0.0, 0.0
		full := false
		for p := 0; p < pairs; p++ {
			r := xrej[p*lanes+j] * inv
			rej[p*lanes+j] = r
			barrier += r
			full = full || r >= 1
			nab += r / (1 - r)
		}
		if full {
			nab = math.Inf(1)
		}
		skl := 0.0
		m0, m1 := shift0[j]+float64(sum0[j]*inv), shift1[j]+float64(sum1[j]*inv)
		e0, e1 := eta0[j], eta1[j]
		for c := 1; c <= pairs; c++ {
			k := c*lanes + j
			p0, p1 := shift0[k]+float64(sum0[k]*inv), shift1[k]+float64(sum1[k]*inv)
			f0, f1 := eta0[k], eta1[k]
			skl += float64((f0-e0)*(p0-m0)) + float64((f1-e1)*(p1-m1))
			m0, m1, e0, e1 = p0, p1, f0, f1
		}
		out[j], out[lanes+j], out[2*lanes+j] = barrier, nab, skl
	}
}
