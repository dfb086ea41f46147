package batch

import (
	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/models"
)

// iterate runs iteration m (1-based, alg:NRPT) of every lane of the block.
// m within the scan is mScan (0-based), used to record energies.
func (b *block) iterate(alg Algorithm, m, mScan int) {
	c := b.numChains
	// 1. Local exploration.
	if b.indep {
		b.states.Explore(b.rng, b.eta0, b.eta1, models.Energies{W0: b.w0, W1: b.w1, First: b.firstX})
	} else {
		b.gather()
		b.states.Explore(b.rng, b.eta0s, b.eta1s, models.Energies{W0: b.w0s, W1: b.w1s, First: b.firstSlots})
		b.scatter()
	}
	b.accumulateEnergies(mScan)

	// 2. Acceptance of every pair, from the pre-swap energies.
	kernel.SwapAlpha(b.alpha, b.rej, b.eta0, b.eta1, b.w0, b.w1)

	// 3. Swaps of the active pairs.
	if alg == Reversible {
		b.rng.Uniform(b.coin)
		for j := range b.parity {
			if b.coin[j] < 0.5 {
				b.parity[j] = 0
			} else {
				b.parity[j] = 1
			}
		}
	} else {
		for j := range b.parity {
			b.parity[j] = m & 1
		}
	}
	b.rng.Uniform(b.u)
	for j := 0; j < lanes; j++ {
		for n := b.parity[j]; n < c-1; n += 2 {
			i := n*lanes + j
			if b.u[(n/2)*lanes+j] <= b.alpha[i] {
				b.swap(i, i+lanes)
			}
		}
	}

	// 4. Round trips and target moments.
	top := (c - 1) * lanes
	for j := 0; j < lanes; j++ {
		r0 := int(b.replica[j])*lanes + j
		rN := int(b.replica[top+j])*lanes + j
		if b.leftZero[rN] {
			b.reachedTop[rN] = true
		}
		if b.reachedTop[r0] {
			b.trips[j]++
			b.tripsScan[j]++
			b.reachedTop[r0] = false
		}
		b.leftZero[r0] = true
		x := b.firstX[top+j]
		if mScan == 0 {
			b.shift[j] = x
		}
		d := x - b.shift[j]
		b.sum1[j] += d
		b.sum2[j] += d * d
	}
}

// swap exchanges chains at row offsets i and k (same lane): their cached
// energies, first coordinates and replicas, never the states.
func (b *block) swap(i, k int) {
	b.w0[i], b.w0[k] = b.w0[k], b.w0[i]
	b.w1[i], b.w1[k] = b.w1[k], b.w1[i]
	b.firstX[i], b.firstX[k] = b.firstX[k], b.firstX[i]
	b.replica[i], b.replica[k] = b.replica[k], b.replica[i]
	if !b.indep {
		j := i % lanes
		b.chainOf[int(b.replica[i])*lanes+j] = int32(i / lanes)
		b.chainOf[int(b.replica[k])*lanes+j] = int32(k / lanes)
	}
}

// accumulateEnergies adds the post-exploration energies of every chain to
// the scan's sums (for the SKL estimate), and, with path tuning, to the
// sums of squares and products (block-form gradient) or to the record
// (full-covariance gradient).
func (b *block) accumulateEnergies(mScan int) {
	if mScan == 0 {
		copy(b.wShift0, b.w0)
		copy(b.wShift1, b.w1)
	}
	if b.wSq00 != nil {
		sum0, sum1, w0, w1 := b.wSum0, b.wSum1[:len(b.wSum0)], b.w0[:len(b.wSum0)], b.w1[:len(b.wSum0)]
		sh0, sh1 := b.wShift0[:len(sum0)], b.wShift1[:len(sum0)]
		q00, q01, q11 := b.wSq00[:len(sum0)], b.wSq01[:len(sum0)], b.wSq11[:len(sum0)]
		for i := range sum0 {
			d0, d1 := w0[i]-sh0[i], w1[i]-sh1[i]
			sum0[i] += d0
			sum1[i] += d1
			q00[i] += d0 * d0
			q01[i] += d0 * d1
			q11[i] += d1 * d1
		}
	} else {
		for i := range b.wSum0 {
			b.wSum0[i] += b.w0[i] - b.wShift0[i]
			b.wSum1[i] += b.w1[i] - b.wShift1[i]
		}
	}
	if b.record == nil {
		return
	}
	c := b.numChains
	rec := b.record[mScan*2*c*lanes:]
	for n := 0; n < c; n++ {
		copy(rec[(2*n)*lanes:(2*n+1)*lanes], b.w0[n*lanes:(n+1)*lanes])
		copy(rec[(2*n+1)*lanes:(2*n+2)*lanes], b.w1[n*lanes:(n+1)*lanes])
	}
}
