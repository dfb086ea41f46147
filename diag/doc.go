// Package diag computes the multi-chain convergence diagnostics of
// Vehtari, Gelman, Simpson, Carpenter and Bürkner (2021), "Rank-
// normalization, folding, and localization: an improved R-hat for
// assessing convergence of MCMC", Bayesian Analysis 16(2), 667–718
// (arXiv:1903.08008), over the replicates of a ptbatch run: every
// replicate is an independent chain, so the spread between replicates
// checks the spread within each.
//
// For one scalar quantity given as M chains of N draws each, Summarize
// returns
//
//   - the split R-hat of eqs. (1)–(4) — B = N/(M−1)·Σ_m (θ̄_m − θ̄)², W the
//     mean of the chains' variances s_m², var⁺ = (N−1)/N·W + B/N,
//     R̂ = √(var⁺/W) — computed over the 2M half-chains (Section 3.1) of
//     the rank-normalised draws z = Φ⁻¹((r − 3/8)/(S + 1/4)) (eq. 14; r
//     the pooled rank, ties averaged, S the number of draws), and of the
//     rank-normalised folded draws |θ − median θ| (Section 4.2); R-hat is
//     the larger of the two (bulk and tail);
//   - the bulk-ESS: the effective sample size of Section 3.2, S/τ̂ with
//     τ̂ = −1 + 2·Σ_{k} P̂_k + ρ̂_{2K+2} from the multi-chain autocorrelations
//     ρ̂_t = 1 − (W − mean_m γ̂_{t,m})/var⁺ (γ̂_{t,m} the biased
//     autocovariance of half-chain m at lag t), summed in pairs
//     P̂_k = ρ̂_{2k} + ρ̂_{2k+1} up to the last positive pair and made
//     monotone (Geyer's initial monotone sequence), of the rank-normalised
//     half-chains (Section 4.1);
//   - the tail-ESS: the smaller of the ESS of the indicators I(θ ≤ q_0.05)
//     and I(θ ≤ q_0.95) (Section 4.3);
//   - the Monte Carlo standard error of the mean, sd(θ)/√ESS with the ESS
//     of the (not rank-normalised) half-chains;
//   - the 5 %, 50 % and 95 % quantiles of the pooled draws (linear
//     interpolation between order statistics, R's and NumPy's default).
//
// The conventions (split halves dropping the middle draw of an odd chain,
// the quantile type, τ̂ bounded below by 1/log₁₀(S)) are those of the
// reference implementation, the R package posterior (Stan's and ArviZ's
// are the same), whose values the tests reproduce. R-hat below 1.01 and a
// bulk- and tail-ESS of at least 100 per chain are the paper's
// recommendations (Section 5).
package diag
