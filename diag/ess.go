package diag

import (
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// autocovariance returns the biased autocovariances γ̂_t =
// (1/N)·Σ_{i<N−t} (x_i − x̄)(x_{i+t} − x̄), t = 0…N−1, of the series x by the
// fast Fourier transform of the centred series padded with zeros to a
// power of two of at least 2N (so that no lag wraps around).
func autocovariance(x []float64) []float64 {
	n := len(x)
	size := 1
	for size < 2*n {
		size *= 2
	}
	mean, _ := meanVar(x)
	seq := make([]float64, size)
	for i, v := range x {
		seq[i] = v - mean
	}
	fft := fourier.NewFFT(size)
	coef := fft.Coefficients(nil, seq)
	for i, c := range coef {
		coef[i] = complex(real(c)*real(c)+imag(c)*imag(c), 0)
	}
	ac := fft.Sequence(nil, coef)[:n]
	for i := range ac {
		ac[i] /= float64(size) * float64(n) // Sequence is unnormalised
	}
	return ac
}

// ess returns the effective sample size of Section 3.2 of the chains given
// (already split, and rank-normalised or not): M chains of N draws,
// S = MN, ESS = S/τ̂. The multi-chain autocorrelations are
// ρ̂_t = 1 − (W − mean_m γ̂_{t,m})/var⁺, with W = mean_m γ̂_{0,m}·N/(N−1) and
// var⁺ = (N−1)/N·W + (the sample variance of the chains' means). Geyer's
// initial positive sequence sums the pairs P̂_k = ρ̂_{2k} + ρ̂_{2k+1} while
// they are positive; the initial monotone sequence replaces each pair
// larger than the one before by the mean of the one before;
// τ̂ = −1 + 2·Σ_k P̂_k + ρ̂_{2K+2} (the first even lag left out, when
// positive: it lowers the variance for antithetic chains), bounded below
// by 1/log₁₀(S). ErrConstant when W is 0.
func ess(chains [][]float64) (float64, error) {
	m, n := len(chains), len(chains[0])
	acov := make([][]float64, m)
	means := make([]float64, m)
	var w float64
	for j, c := range chains {
		acov[j] = autocovariance(c)
		means[j], _ = meanVar(c)
		w += acov[j][0] / float64(m)
	}
	w *= float64(n) / float64(n-1)
	if !(w > 0) {
		return 0, ErrConstant
	}
	_, vm := meanVar(means)
	varPlus := w*float64(n-1)/float64(n) + vm
	rho := func(t int) float64 {
		var g float64
		for _, a := range acov {
			g += a[t] / float64(m)
		}
		return 1 - (w-g)/varPlus
	}
	tau := geyerTau(rho, n)
	s := float64(m * n)
	return s / math.Max(tau, 1/math.Log10(s)), nil
}

// geyerTau returns τ̂ = −1 + 2·Σ_k P̂_k + ρ̂_{2K+2} from the
// autocorrelations rho(t), 0 < t < n, with Geyer's initial positive and
// initial monotone sequences (see ess): r[t] holds ρ̂_t for the lags
// summed, 0 past them.
func geyerTau(rho func(int) float64, n int) float64 {
	r := make([]float64, n)
	even, odd := 1.0, rho(1) // ρ̂_0 = 1
	r[0], r[1] = even, odd
	t := 0
	for t < n-5 && even+odd > 0 {
		t += 2
		even, odd = rho(t), rho(t+1)
		if even+odd >= 0 {
			r[t], r[t+1] = even, odd
		}
	}
	maxT := t
	if even > 0 {
		r[maxT] = even
	}
	for t := 2; t <= maxT-2; t += 2 {
		if r[t]+r[t+1] > r[t-2]+r[t-1] {
			r[t] = (r[t-2] + r[t-1]) / 2
			r[t+1] = r[t]
		}
	}
	sum := 0.0
	for _, v := range r[:maxT] {
		sum += v
	}
	return -1 + 2*sum + r[maxT]
}
