// Package gaussexact holds the exact theory of the paper's Gaussian
// experiment, for checking the engine rather than running it: for an
// isotropic Gaussian reference and target (GaussianPair) every annealed
// density on a spline path is Gaussian, so the moments of the energies, the
// SKL surrogate of eq:bound and its gradient, the swap rejection rates
// r(t, t') of eq:nrpt_rtr, the local and global communication barriers λ
// and Λ of Theorem thm:general_GCB, the equi-barrier schedule of
// eq:equicrit and the round-trip rate have closed forms or one-dimensional
// integrals (adaptive Gauss–Legendre quadrature, quadrature.go). OptimalKnots
// minimises the exact Λ over the spline family with gonum's Nelder–Mead
// (gonum.org/v1/gonum/optimize) to report the best round-trip rate a family
// can reach.
//
// The package is internal because only tests (those of tune, batch and this
// package) and the reproduce command of cmd/ptbatch use it: it is analysis
// code, not part of the tuning that package tune exports, and keeping it
// out of the public API leaves it free to change with the tests. It builds
// on tune's Spline and reuses tune's estimators (SKLEstimate,
// SKLWorkspace.MomentGradient, CumulativeBarrier, NonAsymptoticBarrier)
// with exact moments in place of sample ones, so the formulas exist once.
//
// References:
//
//   - S. Syed, V. Romaniello, T. Campbell, A. Bouchard-Côté. Parallel
//     tempering on optimized paths. ICML 2021 (the Gaussian experiment of
//     the appendix "Experimental details"; eq:bound, eq:nrpt_rtr,
//     eq:equicrit, Theorem thm:general_GCB).
//   - S. Syed, A. Bouchard-Côté, G. Deligiannidis, A. Doucet. Non-reversible
//     parallel tempering: a scalable highly parallel MCMC scheme. JRSS-B
//     2022 (arXiv 2019): the communication barrier and the Gaussian
//     example with its closed-form Λ on the linear path.
//   - F. Gao, L. Han. Implementing the Nelder-Mead simplex algorithm with
//     adaptive parameters. Comput. Optim. Appl. 2012 (the dimension-dependent
//     coefficients gonum's optimize.NelderMead uses in OptimalKnots).
package gaussexact
