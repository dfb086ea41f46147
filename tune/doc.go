// Package tune adapts the annealing schedule and the annealing path of
// non-reversible parallel tempering between scans, one replicate at a time:
// the schedule update of §3.3 "Tuning the schedule" (eq:equicrit, after
// Syed et al. 2019, §5.1) and the spline path family of §4 with its
// symmetric-KL surrogate (eq:bound) and covariance gradient (appendix
// "Objective and Gradient"), stepped by Adagrad (alg:PT_tuning).
//
// The exact theory of the paper's Gaussian experiment (closed-form
// moments, rejections and barriers, the Λ-optimal spline), which the tests
// check these estimators against, is in internal/gaussexact.
//
// References:
//
//   - S. Syed, V. Romaniello, T. Campbell, A. Bouchard-Côté. Parallel
//     tempering on optimized paths. ICML 2021.
//   - S. Syed, A. Bouchard-Côté, G. Deligiannidis, A. Doucet. Non-reversible
//     parallel tempering: a scalable highly parallel MCMC scheme. JRSS-B
//     2022 (arXiv 2019), §5.1.
//   - PT-pathoptim, the authors' Python code
//     (github.com/vittrom/PT-pathoptim): the gradient scaling, Adagrad and
//     monotone repair (fix_monotonicity_2) that Spline.Step follows.
//   - F. N. Fritsch, J. Butland. A method for constructing local monotone
//     piecewise cubic interpolants. SIAM J. Sci. Stat. Comput. 1984.
package tune
