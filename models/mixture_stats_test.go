package models

import (
	"fmt"
	"math"
	"testing"

	"github.com/ptbatch/ptbatch/kernel"
	"github.com/ptbatch/ptbatch/layout"
)

// mixChainMeans runs rows×Lanes independent chains of the batched sweep at
// constant coefficients (eta0, eta1) from the initial state, discards burn
// sweeps, and returns for every statistic f_s the grand mean over chains of
// the chain averages and its standard error.
//
// Standard errors: the chains are independent, so their averages
// a_1 … a_C are i.i.d. whatever the autocorrelation within a chain, and
// SE = sd(a)/√C estimates the sd of the grand mean (the batch-means method
// with one batch per chain). With C = 64 the estimate has about
// 1/√(2·63) ≈ 9% relative error; the tests allow 5 SE, which a Student t
// with 63 degrees of freedom exceeds with probability about 5e-6.
func mixChainMeans(m *Mixture, seed uint64, rows, burn, keep int, eta0, eta1 float64,
	stats func(b *mixBlock, r, j int, w0 float64, dst []float64), numStats int) (mean, se []float64) {
	run := mixRun{m: m, seed: seed, rows: rows, burn: burn, keep: keep, eta0: eta0, eta1: eta1}
	mean, se, _ = run.means(stats, numStats)
	return mean, se
}

// mixRun is a run of mixChainMeans; with mhOnly it applies move 1 alone,
// and with mu set it starts every chain at those means.
type mixRun struct {
	m                *Mixture
	seed             uint64
	rows, burn, keep int
	eta0, eta1       float64
	mhOnly           bool
	mu               []float64
}

// means returns the grand means and SEs of mixChainMeans, and the fraction
// of MH proposals accepted after burn-in.
func (run mixRun) means(stats func(b *mixBlock, r, j int, w0 float64, dst []float64), numStats int) (mean, se []float64, accepted float64) {
	const lanes = layout.Lanes
	rows, keep := run.rows, run.keep
	blk := run.m.NewBlock(BlockSpec{Rows: rows}).(*mixBlock)
	rng := kernel.NewStream(run.seed, 0)
	n := rows * lanes
	out := Energies{W0: make([]float64, n), W1: make([]float64, n)}
	e0, e1 := make([]float64, n), make([]float64, n)
	for i := range e0 {
		e0[i], e1[i] = run.eta0, run.eta1
	}
	in := testRows(e0, e1)
	blk.Init(rng, initRows(rows), out)
	if run.mu != nil {
		for r := 0; r < rows; r++ {
			for i, mu := range run.mu {
				for j := 0; j < lanes; j++ {
					blk.mu[(r*blk.k+i)*lanes+j] = mu
				}
			}
		}
	}
	sums := make([]float64, n*numStats)
	v := make([]float64, numStats)
	acc := 0
	for sweep := 0; sweep < run.burn+keep; sweep++ {
		if run.mhOnly {
			for r := 0; r < rows; r++ {
				blk.coefficients(r, e0, e1)
				blk.moveWeightsMH(r, rng)
				if sweep >= run.burn {
					for j := 0; j < lanes; j++ {
						acc += int(b2f(blk.acc[j]))
					}
				}
			}
		} else {
			blk.Explore(rng, in, out)
		}
		if sweep < run.burn {
			continue
		}
		for r := 0; r < rows; r++ {
			for j := 0; j < lanes; j++ {
				stats(blk, r, j, out.W0[r*lanes+j], v)
				for s, x := range v {
					sums[(r*lanes+j)*numStats+s] += x
				}
			}
		}
	}
	accepted = float64(acc) / float64(n*keep)
	mean, se = make([]float64, numStats), make([]float64, numStats)
	for s := range mean {
		var acc, acc2 float64
		for c := 0; c < n; c++ {
			a := sums[c*numStats+s] / float64(keep)
			acc += a
			acc2 += a * a
		}
		mu := acc / float64(n)
		mean[s] = mu
		se[s] = math.Sqrt((acc2/float64(n) - mu*mu) * float64(n) / float64(n-1) / float64(n))
	}
	return mean, se, accepted
}

// mixCheck compares MC estimates with exact values: |mean - exact| ≤ 5 SE
// (see mixChainMeans), and SE ≤ maxSE so that the check has power.
func mixCheck(t *testing.T, names []string, mean, se, exact, maxSE []float64) {
	t.Helper()
	for s := range names {
		t.Logf("%-14s MC %.5f ± %.5f, exact %.5f", names[s], mean[s], se[s], exact[s])
		if se[s] > maxSE[s] {
			t.Errorf("%s: SE %v above %v, the check has no power", names[s], se[s], maxSE[s])
		}
		if math.Abs(mean[s]-exact[s]) > 5*se[s] {
			t.Errorf("%s: MC %v ± %v, exact %v (%.1f SE)", names[s], mean[s], se[s], exact[s], (mean[s]-exact[s])/se[s])
		}
	}
}

// mixEnumerate returns the exact expectations under the annealed density
// with powers β = eta0 + eta1 and γ = eta1 of a K-component mixture, by
// enumerating all K^N label configurations z. Given z, with counts n_i,
// sums S_i = Σ_{z_n=i} y_n and Q_i = Σ_{z_n=i} y_n², the weights and means
// integrate in closed form:
//
//	∫ Dir(w; α)^β Π_n w_{z_n}^β dw ∝ B(c),  c_i = β(α-1) + β n_i + 1,
//	∫ N(μ; m, τ²)^β Π_{z_n=i} N(y_n; μ, σ²)^γ dμ
//	    ∝ √(2π/P_i) exp(-(C_i - B_i²/P_i)/2),
//	P_i = β/τ² + γ n_i/σ², B_i = β m/τ² + γ S_i/σ², C_i = β m²/τ² + γ Q_i/σ²,
//
// where B(c) = Π Γ(c_i)/Γ(Σ c_i) and the factors left out do not depend on
// z. Given z, w ~ Dir(c) (so E w_0 = c_0/Σc, E w_0² = c_0(c_0+1)/(Σc(Σc+1)))
// and μ_i ~ N(B_i/P_i, 1/P_i) independently. The statistics are those of
// mixPosteriorStats.
func mixEnumerate(p MixtureParams, eta0, eta1 float64) []float64 {
	beta, gamma := eta0+eta1, eta1
	k, nd := p.K, len(p.Data)
	tau2, s2 := p.PriorSD*p.PriorSD, p.Sigma*p.Sigma
	type conf struct {
		logw  float64
		stats []float64
	}
	var confs []conf
	maxLog := math.Inf(-1)
	configs := 1
	for range p.Data {
		configs *= k
	}
	for code := 0; code < configs; code++ {
		cnt, sum, sq := make([]float64, k), make([]float64, k), make([]float64, k)
		z := make([]int, nd)
		for n, y, rest := 0, 0.0, code; n < nd; n, rest = n+1, rest/k {
			y = p.Data[n]
			i := rest % k
			z[n] = i
			cnt[i]++
			sum[i] += y
			sq[i] += y * y
		}
		c, mean, prec := make([]float64, k), make([]float64, k), make([]float64, k)
		lw, cs := 0.0, 0.0
		for i := 0; i < k; i++ {
			c[i] = beta*(p.Alpha-1) + beta*cnt[i] + 1
			cs += c[i]
			lg, _ := math.Lgamma(c[i])
			lw += lg
			P := beta/tau2 + gamma*cnt[i]/s2
			B := beta*p.PriorMean/tau2 + gamma*sum[i]/s2
			C := beta*p.PriorMean*p.PriorMean/tau2 + gamma*sq[i]/s2
			lw += 0.5*math.Log(2*math.Pi/P) - 0.5*(C-B*B/P)
			mean[i], prec[i] = B/P, P
		}
		lgs, _ := math.Lgamma(cs)
		lw -= lgs
		st := []float64{
			mean[0],
			mean[0]*mean[0] + 1/prec[0],
			c[0] / cs,
			c[0] * (c[0] + 1) / (cs * (cs + 1)),
		}
		for a := 0; a < nd; a++ {
			for b := a + 1; b < nd; b++ {
				st = append(st, b2f(z[a] == z[b]))
			}
		}
		for n := 0; n < nd; n++ {
			st = append(st, mean[z[n]])
		}
		confs = append(confs, conf{lw, st})
		maxLog = math.Max(maxLog, lw)
	}
	exact := make([]float64, len(confs[0].stats))
	total := 0.0
	for _, cf := range confs {
		pz := math.Exp(cf.logw - maxLog)
		total += pz
		for s, v := range cf.stats {
			exact[s] += pz * v
		}
	}
	for s := range exact {
		exact[s] /= total
	}
	return exact
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// mixPosteriorStats are, for a state of K components: μ_0, μ_0², w_0, w_0²,
// the indicators 1{z_a = z_b} of every pair a < b, and μ_{z_n} of every n
// (the label-switching symmetry makes P(z_n = i) = 1/K, so the pairwise
// co-clustering and the mean of each point's component carry the
// information about the labels).
func mixPosteriorStats(b *mixBlock, r, j int, _ float64, dst []float64) {
	const lanes = layout.Lanes
	k := b.k
	w0 := b.w[(r*k)*lanes+j]
	mu := func(i int) float64 { return b.mu[(r*k+i)*lanes+j] }
	z := func(n int) int { return int(b.z[(r*b.n+n)*lanes+j]) }
	dst[0], dst[1], dst[2], dst[3] = mu(0), mu(0)*mu(0), w0, w0*w0
	s := 4
	for a := 0; a < b.n; a++ {
		for c := a + 1; c < b.n; c++ {
			dst[s] = b2f(z(a) == z(c))
			s++
		}
	}
	for n := 0; n < b.n; n++ {
		dst[s] = mu(z(n))
		s++
	}
}

// TestMixtureSweepLeavesPosteriorInvariant runs the full sweep (moves 1–4)
// on mixtures of two and of three components with three points and
// compares posterior moments of μ and w, co-clustering frequencies and the
// means of each point's component with their exact values by enumeration
// (mixEnumerate), at the target η = (0, 1) and at an interior annealed
// density. Two components take the block's code for K = 2, three its
// general code. The chains start from the paper's initial state (means 0,
// labels 0), so the burn-in also checks that they forget it.
func TestMixtureSweepLeavesPosteriorInvariant(t *testing.T) {
	data := []float64{-1.5, 0.3, 2.4}
	names := []string{"mu0", "mu0^2", "w0", "w0^2", "z0=z1", "z0=z2", "z1=z2", "mu[z0]", "mu[z1]", "mu[z2]"}
	cases := []struct {
		p     MixtureParams
		maxSE []float64
	}{
		// Largest SE with power, about 3× the SEs measured with
		// keep = 4000 (μ0 0.004-0.009, μ0² 0.01, w 0.0006, indicators
		// 0.001, μ[z_n] 0.002-0.003), so that chains that stop mixing fail
		// the test.
		{MixtureParams{K: 2, Sigma: 1, PriorMean: 0.5, PriorSD: 2, Alpha: 1.5, Data: data},
			[]float64{0.03, 0.04, 0.002, 0.002, 0.004, 0.004, 0.004, 0.01, 0.01, 0.01}},
		// The same for K = 3 (measured μ0 0.004-0.008, μ0² 0.013, w0
		// 0.0005, w0² 0.0004, indicators 0.0003-0.0015, μ[z_n]
		// 0.0017-0.0027).
		{MixtureParams{K: 3, Sigma: 0.8, PriorMean: 0.5, PriorSD: 2, Alpha: 1.2, Data: data},
			[]float64{0.03, 0.04, 0.0015, 0.0012, 0.005, 0.005, 0.005, 0.008, 0.008, 0.008}},
	}
	keep := 4000
	if testing.Short() {
		keep = 1500
	}
	for _, tc := range cases {
		m, err := NewMixtureModel(tc.p)
		if err != nil {
			t.Fatal(err)
		}
		maxSE := append([]float64(nil), tc.maxSE...)
		if testing.Short() {
			for s := range maxSE {
				maxSE[s] *= 1.7 // √(4000/1500) ≈ 1.63
			}
		}
		for _, eta := range [][2]float64{{0, 1}, {0.6, 0.25}} {
			t.Run(fmt.Sprintf("K=%d,eta=%v,%v", tc.p.K, eta[0], eta[1]), func(t *testing.T) {
				exact := mixEnumerate(tc.p, eta[0], eta[1])
				mean, se := mixChainMeans(m, 11, 8, 100, keep, eta[0], eta[1], mixPosteriorStats, len(names))
				mixCheck(t, names, mean, se, exact, maxSE)
			})
		}
	}
}

// TestMixtureSweepSamplesPriorAtReference runs the galaxy sweep at
// η = (1, 0), where π_η is the prior, and compares with its moments:
// μ_i ~ N(150, 1), so E μ_i = 150 and E (μ_i - 150)² = 1; w ~ Dir(1_6), so
// E w_i = 1/6 and E w_i² = 1·2/(6·7) = 1/21; z_n | w ~ Cat(w), so the count
// n_0 is Dirichlet-multinomial(82; 1_6) with E n_0 = 82/6 and
// E n_0² = Var + mean² = 82·(1/6)(5/6)(82+6)/(1+6) + (82/6)² = 329.9524;
// and W0 = log π0 has mean
//
//	E W0 = lnΓ(6) - 3(ln 2π + 1) + 82·6·E[w_0 ln w_0]
//	     = ln 120 - 3(ln 2π + 1) + 82(ψ(2) - ψ(7))
//	     = ln 120 - 3(ln 2π + 1) + 82(1 - H_6),  H_6 = 49/20,
//
// using E[n_i ln w_i] = 82 E[w_i ln w_i] and, for w_0 ~ Beta(1, 5),
// E[w_0 ln w_0] = (1/6)(ψ(2) - ψ(7)). The moments of μ and w² are
// averaged over the six components (exchangeable).
func TestMixtureSweepSamplesPriorAtReference(t *testing.T) {
	m := NewGalaxy()
	const k, nd = 6, 82
	names := []string{"mu", "(mu-150)^2", "w0", "w^2", "n0", "n0^2", "W0"}
	stats := func(b *mixBlock, r, j int, w0 float64, dst []float64) {
		const lanes = layout.Lanes
		for s := range dst {
			dst[s] = 0
		}
		for i := 0; i < k; i++ {
			q := (r*k+i)*lanes + j
			mu, w := b.mu[q], b.w[q]
			dst[0] += mu / k
			dst[1] += (mu - 150) * (mu - 150) / k
			dst[3] += w * w / k
		}
		dst[2] = b.w[(r*k)*lanes+j]
		n0 := 0.0
		for n := 0; n < nd; n++ {
			n0 += b2f(b.z[(r*nd+n)*lanes+j] == 0)
		}
		dst[4], dst[5], dst[6] = n0, n0*n0, w0
	}
	exact := []float64{150, 1, 1.0 / 6, 1.0 / 21, 82.0 / 6,
		82*(1.0/6)*(5.0/6)*88/7 + (82.0/6)*(82.0/6),
		math.Log(120) - 3*(math.Log(2*math.Pi)+1) + 82*(1-49.0/20)}
	// Largest SE with power, about 3× the SEs measured with 8 rows and
	// keep = 1500 (μ 0.0015, (μ-150)² 0.002, w0 0.002, w² 0.00012, n0 0.18,
	// n0² 7.7, W0 0.15): w has sd 0.14 and an autocorrelation time of tens
	// of sweeps at the prior (the labels hold it: lag-1 correlation about
	// 82/88), n0 an sd of 12.
	maxSE := []float64{0.005, 0.006, 0.006, 0.0004, 0.5, 20, 0.45}
	rows, keep := 8, 1500
	if testing.Short() {
		rows, keep = 4, 1000
		for s := range maxSE {
			maxSE[s] *= 1.8 // √(8·1500/(4·1000)) ≈ 1.73
		}
	}
	mean, se := mixChainMeans(m, 5, rows, 100, keep, 1, 0, stats, len(names))
	mixCheck(t, names, mean, se, exact, maxSE)
}
