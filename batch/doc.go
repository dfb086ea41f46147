// Package batch is the ptbatch engine: non-reversible parallel tempering
// (alg:NRPT of Syed et al., ICML 2021) for many independent replicates at
// once, with the schedule and path tuning loop of alg:PT_tuning between
// scans.
//
// One iteration of every block of layout.Lanes replicates is
//
//  1. local exploration of every chain (one Block.Explore call of the model);
//  2. the swap acceptance α_n of every pair of adjacent chains from the
//     cached energies (§2 "Communication"), r_n += 1-α_n for every pair;
//  3. the swaps of the active pairs — even pairs on even iterations and odd
//     pairs on odd ones for NRPT, a fair coin per replicate and iteration for
//     reversible PT — accepted when U ≤ α_n;
//  4. round-trip bookkeeping and the moments of the target chain.
//
// Energies and annealing coefficients are stored by chain; a swap exchanges
// two chains' cached energies and replica indices, O(1) per replicate,
// never the coordinates of the states. States stay in their slot and the
// engine gathers each slot's coefficients from its chain.
//
// Replicates never interact, so workers own disjoint blocks for a whole run
// and synchronise only when it ends; every replicate's random numbers come
// from its own stream, so results do not depend on the number of workers or
// replicates (parallelism invariance).
//
// References: S. Syed, V. Romaniello, T. Campbell, A. Bouchard-Côté,
// Parallel tempering on optimized paths, ICML 2021 (alg:NRPT,
// alg:PT_tuning, eq:nrpt_rtr, eq:nonasympcb, eq:bound); S. Syed, A.
// Bouchard-Côté, G. Deligiannidis, A. Doucet, Non-reversible parallel
// tempering, JRSS-B 2022, §3.5 and §5.1; N. Surjanovic, S. Syed, A.
// Bouchard-Côté, T. Campbell, Parallel tempering with a variational
// reference, NeurIPS 2022 (the stabilised two legs of
// Config.VariationalLeg).
package batch
