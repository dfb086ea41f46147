package diag

import (
	"math"
	"sort"
)

// split returns the 2M half-chains of chains (Section 3.1): the first
// ⌊N/2⌋ draws of each chain, then the last ⌊N/2⌋ (the middle draw of an odd
// chain belongs to neither), chain by chain.
func split(chains [][]float64) [][]float64 {
	n := len(chains[0])
	h := n / 2
	out := make([][]float64, 0, 2*len(chains))
	for _, c := range chains {
		out = append(out, c[:h], c[n-h:])
	}
	return out
}

// pooled returns the draws of all chains in one slice.
func pooled(chains [][]float64) []float64 {
	out := make([]float64, 0, len(chains)*len(chains[0]))
	for _, c := range chains {
		out = append(out, c...)
	}
	return out
}

// reshape cuts x into chains of n draws each.
func reshape(x []float64, n int) [][]float64 {
	out := make([][]float64, len(x)/n)
	for m := range out {
		out[m] = x[m*n : (m+1)*n]
	}
	return out
}

// rankNormal returns the rank-normalised draws of eq. (14): each draw is
// replaced by Φ⁻¹((r − 3/8)/(S + 1/4)), r its rank among all S draws of all
// chains (ties given their average rank), chain by chain in the same shape.
func rankNormal(chains [][]float64) [][]float64 {
	x := pooled(chains)
	s := float64(len(x))
	r := ranks(x)
	for i, ri := range r {
		r[i] = normalQuantile((ri - 3.0/8) / (s + 1.0/4))
	}
	return reshape(r, len(chains[0]))
}

// ranks returns the ranks 1…len(x) of x, ties given their average rank.
func ranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	r := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && x[idx[j]] == x[idx[i]] {
			j++
		}
		avg := float64(i+j+1) / 2 // mean of the ranks i+1 … j
		for _, k := range idx[i:j] {
			r[k] = avg
		}
		i = j
	}
	return r
}

// normalQuantile returns Φ⁻¹(p), the standard normal quantile.
func normalQuantile(p float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*p) }

// fold returns |θ − median θ| of every draw (Section 4.2), the median over
// all draws of all chains.
func fold(chains [][]float64) [][]float64 {
	med := quantile(sortedCopy(pooled(chains)), 0.5)
	out := make([][]float64, len(chains))
	for m, c := range chains {
		out[m] = make([]float64, len(c))
		for i, x := range c {
			out[m][i] = math.Abs(x - med)
		}
	}
	return out
}

// indicator returns I(θ ≤ q) of every draw, in the same shape.
func indicator(chains [][]float64, q float64) [][]float64 {
	out := make([][]float64, len(chains))
	for m, c := range chains {
		out[m] = make([]float64, len(c))
		for i, x := range c {
			if x <= q {
				out[m][i] = 1
			}
		}
	}
	return out
}

// sortedCopy returns x sorted in increasing order, x left as it is.
func sortedCopy(x []float64) []float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return s
}

// quantile returns the p-quantile of the sorted draws s by linear
// interpolation between order statistics: with h = (n−1)p, s[⌊h⌋] +
// (h−⌊h⌋)(s[⌊h⌋+1] − s[⌊h⌋]) (Hyndman and Fan 1996, type 7; R's quantile
// and quantile2 default).
func quantile(s []float64, p float64) float64 {
	h := float64(len(s)-1) * p
	lo := math.Floor(h)
	i := int(lo)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (h-lo)*(s[i+1]-s[i])
}
